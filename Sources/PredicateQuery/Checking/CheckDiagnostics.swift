// The catalog of type-checker diagnostics.
//
// Codes are stable; the README's diagnostics table and the golden tests refer to
// them. Messages follow swiftc's wording where Swift has the same error.

extension DiagnosticCode {
    /// The named entity is not in the schema.
    public static let unknownEntity: DiagnosticCode = "check.unknownEntity"
    /// No entity named and none can be inferred from an empty query.
    public static let missingEntity: DiagnosticCode = "check.missingEntity"
    /// No entity named, and the predicate type-checks against several.
    public static let ambiguousEntity: DiagnosticCode = "check.ambiguousEntity"
    /// Checking ran past `Limits.deadline`.
    public static let deadlinePassed: DiagnosticCode = "limit.deadline"
    /// A name that is not a property of the entity.
    public static let unknownProperty: DiagnosticCode = "check.unknownProperty"
    /// A computed property: not stored, so not queryable.
    public static let computedProperty: DiagnosticCode = "check.computedProperty"
    /// A `@Transient` property: not stored, so not queryable.
    public static let transientProperty: DiagnosticCode = "check.transientProperty"
    /// Operands whose types do not go together.
    public static let typeMismatch: DiagnosticCode = "check.typeMismatch"
    /// `<`, `>`, a range or sorting on a type without an order.
    public static let notOrderable: DiagnosticCode = "check.notOrderable"
    /// A string test on something that is not a string.
    public static let notAString: DiagnosticCode = "check.notAString"
    /// `[c]` or `[d]` on something that is not a string.
    public static let modifierNotApplicable: DiagnosticCode = "check.modifierNotApplicable"
    /// A path through a to-many relationship used as a single value.
    public static let toManyWithoutQuantifier: DiagnosticCode = "check.toManyWithoutQuantifier"
    /// `any`/`all`/`none` with no to-many relationship to quantify over.
    public static let quantifierWithoutToMany: DiagnosticCode = "check.quantifierWithoutToMany"
    /// `any`/`all`/`none` over a condition with several to-many paths.
    public static let quantifierAmbiguous: DiagnosticCode = "check.quantifierAmbiguous"
    /// An enum case or raw value that the enum does not have.
    public static let unknownEnumCase: DiagnosticCode = "check.unknownEnumCase"
    /// `.case` with nothing to say which enum it belongs to.
    public static let enumCaseWithoutContext: DiagnosticCode = "check.enumCaseWithoutContext"
    /// A `matches` pattern that is not a valid regular expression.
    public static let invalidRegex: DiagnosticCode = "check.invalidRegex"
    /// A parameter used at two different types.
    public static let parameterTypeConflict: DiagnosticCode = "check.parameterTypeConflict"
    /// A parameter whose type nothing determines.
    public static let parameterTypeUnknown: DiagnosticCode = "check.parameterTypeUnknown"
    /// `$0` outside a closure.
    public static let closureArgumentOutsideClosure: DiagnosticCode = "check.closureArgumentOutsideClosure"
    /// Data, transformable or Codable-struct values used other than in a nil test.
    public static let unqueryableAttribute: DiagnosticCode = "check.unqueryableAttribute"
    /// A sort key through a to-many relationship.
    public static let sortByToMany: DiagnosticCode = "check.sortByToMany"
    /// A sort key that is a relationship or an unsortable attribute.
    public static let unsortableKey: DiagnosticCode = "check.unsortableKey"
    /// A predicate (or operand of `&&`, `||`, `!`) that is not a Boolean.
    public static let notABoolean: DiagnosticCode = "check.notABoolean"
    /// A string that is not an ISO 8601 date, or not a UUID, where one is needed.
    public static let invalidLiteral: DiagnosticCode = "check.invalidLiteral"
    /// A list or range outside `in`, or `in` with something else on its right.
    public static let invalidMembership: DiagnosticCode = "check.invalidMembership"
    /// A member of something that is not an object: `name.first`, `(a).b`.
    public static let invalidMemberAccess: DiagnosticCode = "check.invalidMemberAccess"
    /// Arithmetic on operands it is not defined for.
    public static let invalidArithmetic: DiagnosticCode = "check.invalidArithmetic"
    /// Ordering or a string test against nil.
    public static let invalidNilComparison: DiagnosticCode = "check.invalidNilComparison"
    /// A relationship compared with something other than nil.
    public static let relationshipComparison: DiagnosticCode = "check.relationshipComparison"
    /// `.count`, `@sum`, `.isEmpty`, `contains(where:)` on something that is not a to-many relationship.
    public static let notACollection: DiagnosticCode = "check.notACollection"
    /// `@sum`/`@avg`/`@min`/`@max` of a property it is not defined for.
    public static let invalidAggregate: DiagnosticCode = "check.invalidAggregate"
    /// A filtered collection (`filter`, `SUBQUERY`) used as a condition.
    public static let filterNotACondition: DiagnosticCode = "check.filterNotACondition"
    /// A closure variable that no enclosing closure binds (from code-built trees).
    public static let unknownVariable: DiagnosticCode = "check.unknownVariable"
    /// Warning: `?.` after a relationship that is never nil.
    public static let unnecessaryOptionalChaining: DiagnosticCode = "check.unnecessaryOptionalChaining"
    /// Warning: `== nil` on a value that is never nil.
    public static let neverNil: DiagnosticCode = "check.neverNil"
    /// Warning: a `like` pattern with SQL's wildcards (`%`, `_`) and none of pq's (`*`, `?`).
    public static let sqlLikePattern: DiagnosticCode = "check.sqlLikePattern"
}
