// The typed IR: what the checker makes of a syntax tree.
//
// Names are resolved to attributes and relationships of the schema, enum cases to
// raw values, literals to values of the type their context needs. Every spelling
// of a construct is one node here, and so is every way of quantifying over a
// to-many relationship: `any tags.name == 'x'`, `tags.contains { $0.name == 'x' }`
// and `SUBQUERY(tags, $t, $t.name == 'x').@count > 0` differ only in how they are
// written. Lowering to SQL and the in-memory evaluator both start from here.
//
// Objects in scope are numbered by level: 0 is the object the query filters, and
// each quantifier or aggregate binds the elements of its collection at the next
// level. A path names the level it starts from.

/// One step along a relationship.
public struct RelationshipStep: Sendable, Hashable {
    /// The entity the step starts from.
    public var source: String
    /// The relationship followed.
    public var relationship: Relationship

    /// A step along `relationship`, declared on the entity `source`.
    public init(source: String, relationship: Relationship) {
        self.source = source
        self.relationship = relationship
    }
}

/// An attribute reached from an object in scope through to-one relationships.
public struct AttributePath: Sendable, Hashable {
    /// The level of the object the path starts from.
    public var level: Int
    /// The to-one relationships followed first; a nil one makes the value nil.
    public var steps: [RelationshipStep]
    /// The entity that has the attribute.
    public var entity: String
    /// The attribute at the end of the path.
    public var attribute: Attribute

    /// Whether the value can be nil: an optional attribute or a step through an optional relationship.
    public var isOptional: Bool {
        attribute.isOptional || steps.contains { $0.relationship.isOptional }
    }

    /// The path as it is written: `budget.name`.
    public var dottedName: String {
        (steps.map(\.relationship.name) + [attribute.name]).joined(separator: ".")
    }
}

/// An object reached from an object in scope through to-one relationships.
public struct ObjectPath: Sendable, Hashable {
    /// The level of the object the path starts from: 0 for the object the query
    /// filters; each quantifier or aggregate binds its elements one level deeper.
    public var level: Int
    /// The to-one relationships followed from that object, in order.
    public var steps: [RelationshipStep]
    /// The entity of the object reached.
    public var entity: String
}

/// A to-many relationship reached from an object in scope through to-one relationships.
public struct CollectionPath: Sendable, Hashable {
    /// The level of the object the path starts from.
    public var level: Int
    /// The to-one relationships followed first.
    public var steps: [RelationshipStep]
    /// The to-many relationship whose elements are visited.
    public var relationship: RelationshipStep
    /// The entity of the elements.
    public var elementEntity: String
    /// The level at which the elements are bound inside the quantifier or aggregate.
    public var elementLevel: Int
}

/// A declared parameter: its name, the type its context gives it, and its first use.
public struct ParameterDeclaration: Sendable, Hashable {
    /// The parameter's name, without `$`.
    public var name: String
    /// The type of the value it takes, inferred from where it is used.
    public var type: ValueType
    /// Where the parameter is first used.
    public var span: SourceSpan
}

/// A typed expression.
public indirect enum TypedExpr: Sendable {
    /// A value known at check time: literals, enum cases (as raw values), dates.
    case constant(Value, ValueType)
    /// `$name`, bound when the query runs.
    case parameter(String, ValueType)
    /// `now()` or `today()`, evaluated when the query runs.
    case currentDate(BuiltinFunction)
    /// The value of an attribute.
    case attribute(AttributePath, ValueType)
    /// A related object; appears only under `isNil`.
    case object(ObjectPath)
    /// True when the operand is nil (an attribute, a parameter, or a related object).
    case isNil(TypedExpr)
    /// `!x`: true where `x` is false.
    case not(TypedExpr)
    /// `a && b && …`: true where every operand is true.
    case and([TypedExpr])
    /// `a || b || …`: true where any operand is true.
    case or([TypedExpr])
    /// Both operands have the same type; `[c]`/`[d]` only on strings. False if either is nil.
    case compare(ComparisonOperator, TypedExpr, TypedExpr, StringOptions)
    /// A string test; false if either operand is nil.
    case stringTest(StringOperator, TypedExpr, TypedExpr, StringOptions)
    /// Membership in a list of values of the element's type.
    case inList(TypedExpr, [TypedExpr])
    /// Membership in a list bound at run time to a parameter of type `[T]`; with
    /// `[c]`/`[d]`, of Strings compared as `==[c]` compares them.
    case inParameterList(TypedExpr, String, ValueType, StringOptions = [])
    /// `lower <= x <= upper` (closed) or `lower <= x < upper` (half-open).
    case inRange(TypedExpr, TypedExpr, TypedExpr, RangeKind)
    /// Arithmetic; the result type is given.
    case arithmetic(ArithmeticOperator, TypedExpr, TypedExpr, ValueType)
    /// `-x`, of the given numeric type.
    case negate(TypedExpr, ValueType)
    /// `a ?? b`: `a` unless it is nil, then `b`; the type is given.
    case coalesce(TypedExpr, TypedExpr, ValueType)
    /// An Int used where a Double is compared or computed.
    case toDouble(TypedExpr)
    /// `any`, `all` or `none` of the collection's elements satisfy the condition. Over
    /// a nil collection (one reached through a nil to-one) all three are false: `none`
    /// is what `isEmpty` checks to, and `$0.budget?.transactions.isEmpty` is nil in
    /// Swift, not true. The text's `none` quantifier checks to `not(any)` instead.
    case quantified(Quantifier, CollectionPath, TypedExpr)
    /// `@count` (of the elements satisfying `filter`), or `@sum`/`@avg`/`@min`/`@max` of `value`.
    case aggregate(AggregateFunction, CollectionPath, filter: TypedExpr?, value: TypedExpr?, ValueType)

    /// The type of the expression's value.
    public var type: ValueType {
        switch self {
        case .constant(_, let type), .parameter(_, let type), .attribute(_, let type),
            .arithmetic(_, _, _, let type), .negate(_, let type), .aggregate(_, _, _, _, let type),
            .coalesce(_, _, let type):
            return type
        case .currentDate: return .date
        case .object(let path): return .object(path.entity)
        case .toDouble: return .double
        case .isNil, .not, .and, .or, .compare, .stringTest, .inList, .inParameterList, .inRange, .quantified:
            return .bool
        }
    }
}

extension TypedExpr {
    /// The direct subexpressions: operands, a quantifier's body, an aggregate's
    /// filter and value.
    public var children: [TypedExpr] {
        var children: [TypedExpr] = []
        forEachChild { children.append($0) }
        return children
    }

    /// Whether `test` holds for one of the direct subexpressions, in order (operands,
    /// a quantifier's body, an aggregate's filter and value), without making an array
    /// of them: the lowering asks this of every node of every query it compiles.
    func anyChild(_ test: (TypedExpr) throws -> Bool) rethrows -> Bool {
        switch self {
        case .constant, .parameter, .currentDate, .attribute, .object: return false
        case .isNil(let operand), .not(let operand), .negate(let operand, _), .toDouble(let operand),
            .inParameterList(let operand, _, _, _), .quantified(_, _, let operand):
            return try test(operand)
        case .and(let operands), .or(let operands): return try operands.contains(where: test)
        case .compare(_, let lhs, let rhs, _), .stringTest(_, let lhs, let rhs, _), .arithmetic(_, let lhs, let rhs, _),
            .coalesce(let lhs, let rhs, _):
            return try test(lhs) || test(rhs)
        case .inList(let element, let members): return try test(element) || members.contains(where: test)
        case .inRange(let element, let lower, let upper, _): return try test(element) || test(lower) || test(upper)
        case .aggregate(_, _, let filter, let value, _):
            if let filter, try test(filter) { return true }
            if let value, try test(value) { return true }
            return false
        }
    }

    /// Whether the expression reads nothing of an object (literals, parameters,
    /// `now()` and what is computed from them): the Foundation exporter folds such
    /// an expression into one value.
    var readsNoObject: Bool {
        switch self {
        case .attribute, .object, .aggregate, .quantified: false
        case .constant, .parameter, .currentDate: true
        // The common shapes without making an array of the children.
        case .isNil(let operand), .not(let operand), .negate(let operand, _), .toDouble(let operand):
            operand.readsNoObject
        case .compare(_, let lhs, let rhs, _), .arithmetic(_, let lhs, let rhs, _), .coalesce(let lhs, let rhs, _):
            lhs.readsNoObject && rhs.readsNoObject
        default: allChildren(\.readsNoObject)
        }
    }

    /// Whether `test` holds for every direct subexpression (see `anyChild`).
    func allChildren(_ test: (TypedExpr) throws -> Bool) rethrows -> Bool {
        try !anyChild { try !test($0) }
    }

    /// `body` on each direct subexpression, in order, without making an array.
    func forEachChild(_ body: (TypedExpr) throws -> Void) rethrows {
        _ = try anyChild {
            try body($0)
            return false
        }
    }
}

/// A checked sort key.
public struct CheckedSortKey: Sendable {
    /// The attribute sorted on.
    public var path: AttributePath
    /// The attribute's value type.
    public var type: ValueType
    /// Whether the order is ascending (`asc`, the default) rather than descending.
    public var isAscending: Bool
    /// `[c]`, `[d]` or `[cd]`: a string key sorted case- or diacritic-insensitively.
    public var options: StringOptions
}

/// A checked `limit` or `offset`.
public enum CheckedCount: Sendable, Hashable {
    /// A count written as a number.
    case literal(Int64)
    /// A count given as a parameter, bound when the query runs.
    case parameter(String)
}

/// A query that type-checked against a schema: ready to lower or evaluate.
public struct CheckedQuery: Sendable {
    /// The schema the query was checked against.
    public var schema: Schema
    /// The entity whose objects the query returns.
    public var entity: Entity
    /// The filter; nil means every object.
    public var predicate: TypedExpr?
    /// The sort keys, most significant first.
    public var sortKeys: [CheckedSortKey]
    /// At most this many results, if the query says so.
    public var limit: CheckedCount?
    /// How many results to skip, if the query says so.
    public var offset: CheckedCount?
    /// The parameters the query needs, in order of first use.
    public var parameters: [ParameterDeclaration]
    /// The parameters used as `matches` patterns: checked to be valid regular
    /// expressions before the query runs, whatever order it is evaluated in.
    public var patternParameters: Set<String> = []
    /// Warnings found while checking.
    public var warnings: [Diagnostic]
    /// Attributes reached through to-one relationships that each result row also
    /// carries, for display (`budget.name`; see `TypeChecker.checkDisplayPath`).
    public var displayPaths: [AttributePath] = []
}
