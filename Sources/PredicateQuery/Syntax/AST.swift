// The syntax tree: what the user wrote, with every spelling of a construct
// mapped to one node.
//
// Every front end produces this tree: the text parser, the typed builder and the
// Foundation `#Predicate` bridge. `AND`, `and` and `&&` are one node; so are `=`
// and `==`, `CONTAINS` and `.contains(_:)`, `BEGINSWITH`, `hasPrefix` and
// `starts(with:)`, `{1, 2}` and `[1, 2]`, `x between 1 and 2` and `x in 1...2`,
// `SUBQUERY(xs, $x, …)` and `xs.filter { x in … }`. Names are not resolved here:
// that is the checker's job. Every node carries the span of the text it came from.

/// A whole query: the entity, the filter, the order and the page.
public struct Query: Sendable {
    /// The entity named before `where`, if any; otherwise the checker infers it.
    public var entity: Name?
    /// The filter; nil means every object.
    public var predicate: Expr?
    /// `sort by …` keys, most significant first.
    public var sortKeys: [SortKey]
    /// `limit n`.
    public var limit: QueryCount?
    /// `offset n`.
    public var offset: QueryCount?

    /// A query of `entity` (inferred when nil) with a filter, an order and a page.
    public init(
        entity: Name? = nil, predicate: Expr? = nil, sortKeys: [SortKey] = [],
        limit: QueryCount? = nil, offset: QueryCount? = nil
    ) {
        self.entity = entity
        self.predicate = predicate
        self.sortKeys = sortKeys
        self.limit = limit
        self.offset = offset
    }
}

/// A name as written, with its span.
public struct Name: Sendable, Hashable {
    /// The name as written, without backticks.
    public var text: String
    /// Where it is written.
    public var span: SourceSpan

    /// A name `text`, written at `span`.
    public init(_ text: String, span: SourceSpan = .synthesized) {
        self.text = text
        self.span = span
    }
}

/// The argument of `limit` or `offset`.
public struct QueryCount: Sendable, Hashable {
    /// A count written as a number, or a parameter.
    public enum Value: Sendable, Hashable {
        /// `limit 10`.
        case literal(Int64)
        /// `limit $n`: the parameter's name, without `$`.
        case parameter(String)
    }
    /// The count.
    public var value: Value
    /// Where it is written.
    public var span: SourceSpan

    /// A count `value`, written at `span`.
    public init(_ value: Value, span: SourceSpan = .synthesized) {
        self.value = value
        self.span = span
    }
}

/// One `sort by` key.
public struct SortKey: Sendable {
    /// The key path sorted on.
    public var path: PropertyPath
    /// Whether the order is ascending (`asc`, the default) rather than descending (`desc`).
    public var isAscending: Bool
    /// `[c]` or `[d]` after the key: compare folded values.
    public var options: StringOptions
    /// Where the key is written.
    public var span: SourceSpan

    /// A sort key on `path`.
    public init(_ path: PropertyPath, ascending: Bool = true, options: StringOptions = [], span: SourceSpan = .synthesized) {
        self.path = path
        self.isAscending = ascending
        self.options = options
        self.span = span
    }
}

/// A path of names from the query's object or from a closure variable.
public struct PropertyPath: Sendable {
    /// Where a key path starts.
    public enum Root: Sendable, Hashable {
        /// The object being filtered: a bare name, or `SELF`.
        case object
        /// The element bound by an enclosing closure or SUBQUERY (`$0`, `t`, `$t`): its name without `$`.
        case variable(String)
    }
    /// Where the path starts.
    public var root: Root
    /// The names followed, in order.
    public var components: [PathComponent]
    /// Where the path is written.
    public var span: SourceSpan

    /// A path through `components` from `root`.
    public init(root: Root = .object, _ components: [PathComponent], span: SourceSpan = .synthesized) {
        self.root = root
        self.components = components
        self.span = span
    }

    /// A key path from the object through the given names, as in code-built queries.
    public init(_ names: String...) {
        self.init(root: .object, names.map { PathComponent($0) })
    }
}

/// One step of a key path.
public struct PathComponent: Sendable, Hashable {
    /// The property's name.
    public var name: String
    /// Written with `?.` rather than `.`; both mean nil-safe navigation.
    public var isOptionalChained: Bool
    /// Where the step is written.
    public var span: SourceSpan

    /// A step to the property `name`.
    public init(_ name: String, optionalChained: Bool = false, span: SourceSpan = .synthesized) {
        self.name = name
        self.isOptionalChained = optionalChained
        self.span = span
    }
}

/// An expression node and the span of its text.
public struct Expr: Sendable {
    /// What the expression is.
    public var kind: ExprKind
    /// Where it is written; synthesized for trees built in code.
    public var span: SourceSpan

    /// An expression of `kind`, written at `span`.
    public init(_ kind: ExprKind, span: SourceSpan = .synthesized) {
        self.kind = kind
        self.span = span
    }
}

/// The kinds of expression.
public indirect enum ExprKind: Sendable {
    /// A number, string, Boolean, nil or duration.
    case literal(Literal)
    /// `.action`: a case of the enum the context expects.
    case enumCase(String)
    /// `name`, `budget?.name`, `$0.amount`, `SELF`.
    case keyPath(PropertyPath)
    /// `$name`, bound at run time.
    case parameter(String)
    /// `date('…')`, `uuid('…')`, `now()`, `today()`.
    case call(BuiltinFunction, [Expr])
    /// `[a, b]` or `{a, b}`.
    case list([Expr])
    /// `a...b` or `a..<b`.
    case range(Expr, Expr, RangeKind)
    /// A member of something that is not a key path, such as `(x).name`; the checker rejects it.
    case member(Expr, PathComponent)
    /// `!p`, `NOT p`.
    case not(Expr)
    /// `-x`, when `x` is not a number literal (those fold into the literal).
    case negate(Expr)
    /// `a && b && …` as written, without flattening parenthesised groups.
    case and([Expr])
    /// `a || b || …`.
    case or([Expr])
    /// `a + b`, `a - b`, `a * b`, `a / b`, `a % b`.
    case arithmetic(ArithmeticOperator, Expr, Expr)
    /// `a == b`, `a <[c] b`, …
    case comparison(ComparisonOperator, Expr, Expr, StringOptions)
    /// `a contains b`, `a.hasPrefix(b)`, `a like b`, …
    case stringTest(StringOperator, Expr, Expr, StringOptions)
    /// `x in collection`, `x between a and b`, `[a, b].contains(x)`; `x in[c] $list`
    /// with a modifier (a list of values with one is written out as `==[c]` tests).
    case membership(Expr, Expr, StringOptions = [])
    /// `any tags.name == 'x'`: a quantifier on the comparison that follows.
    case quantified(Quantifier, Expr)
    /// `xs.contains(where: { … })` (`.any`) and `xs.allSatisfy { … }` (`.all`).
    case elementTest(Quantifier, Expr, Closure)
    /// `xs.filter { … }` and `SUBQUERY(xs, $x, …)`: the elements for which the closure holds.
    case filter(Expr, Closure)
    /// `xs.count`, `xs.@count`, `xs.@sum.amount`, …
    case aggregate(AggregateFunction, Expr, [PathComponent])
    /// `xs.isEmpty`, `name.isEmpty`.
    case isEmpty(Expr)
    /// `a ?? b`: `a` unless it is nil, then `b`.
    case coalesce(Expr, Expr)
    /// A part of the input that did not parse; its diagnostic has been reported.
    case invalid
}

/// A closure or SUBQUERY body and the name it binds.
public struct Closure: Sendable {
    /// The bound name without `$`: "0" for `$0`, "t" for `t in` or `$t`.
    public var variable: String
    /// The condition or value the closure computes for each element.
    public var body: Expr

    /// A closure binding `variable` (without `$`) to each element, computing `body`.
    public init(variable: String, body: Expr) {
        self.variable = variable
        self.body = body
    }
}

/// A literal value as written.
public enum Literal: Sendable, Hashable {
    /// An integer: `42`, `1_000`, `0x1F`.
    case integer(Int64)
    /// A number with a fraction or exponent: `3.5`, `1e3`.
    case decimal(Double)
    /// A string: `'text'` or `"text"`.
    case string(String)
    /// `true` or `false` (also `yes`, `no`).
    case bool(Bool)
    /// `nil` (also `null`).
    case null
    /// `7d`: an amount and its unit.
    case duration(Double, DurationUnit)
}

/// The units of a duration literal.
public enum DurationUnit: Character, Sendable, Hashable, CaseIterable {
    /// `s`, `m`, `h`, `d` and `w`: seconds, minutes, hours, days and weeks.
    case seconds = "s", minutes = "m", hours = "h", days = "d", weeks = "w"

    /// The length of one unit in seconds.
    public var seconds: Double {
        switch self {
        case .seconds: 1
        case .minutes: 60
        case .hours: 3_600
        case .days: 86_400
        case .weeks: 604_800
        }
    }
}

/// The built-in functions.
public enum BuiltinFunction: String, Sendable, Hashable, CaseIterable {
    /// `date('2024-05-01')`: an ISO 8601 date.
    case date
    /// `uuid('…')`: a UUID.
    case uuid
    /// `now()`: the moment the query runs.
    case now
    /// `today()`: midnight at the start of the day the query runs.
    case today
}

/// `...` or `..<`.
public enum RangeKind: Sendable, Hashable {
    /// `closed` for `a...b`, which includes `b`; `halfOpen` for `a..<b`, which does not.
    case closed, halfOpen
}

/// `+ - * / %`.
public enum ArithmeticOperator: String, Sendable, Hashable, CaseIterable {
    /// `+`, `-`, `*`, `/` and `%`: addition, subtraction, multiplication, division and remainder.
    case add = "+", subtract = "-", multiply = "*", divide = "/", remainder = "%"
    /// Bitwise, on integers: `&` with `*`'s precedence, `|` and `^` with `+`'s, as in Swift.
    case bitwiseAnd = "&", bitwiseOr = "|", bitwiseXor = "^"

    /// `+`, `-`, `|` and `^` bind like addition; the others like multiplication.
    public var isAdditive: Bool { self == .add || self == .subtract || self == .bitwiseOr || self == .bitwiseXor }

    /// `&`, `|` and `^`.
    public var isBitwise: Bool { self == .bitwiseAnd || self == .bitwiseOr || self == .bitwiseXor }
}

/// `== != < <= > >=`.
public enum ComparisonOperator: String, Sendable, Hashable, CaseIterable {
    /// `==`, `!=`, `<` and `<=`.
    case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<="
    /// `>` and `>=`.
    case greater = ">", greaterOrEqual = ">="

    /// Whether the operator needs an order on its operands (not just equality).
    public var isOrdering: Bool { self != .equal && self != .notEqual }
}

/// `any`, `all`, `none`.
public enum Quantifier: String, Sendable, Hashable, CaseIterable {
    /// `any`: some element matches; `all`: every element does; `none`: no element does.
    case any, all, none
}

/// The collection operators.
public enum AggregateFunction: String, Sendable, Hashable, CaseIterable {
    /// `@count`, `@sum`, `@avg`, `@min` and `@max` over a to-many relationship.
    case count, sum, avg, min, max
}

/// String comparison options: `[c]`, `[d]`, `[cd]`.
public struct StringOptions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// `[c]`: ignore case, Unicode-aware.
    public static let caseInsensitive = StringOptions(rawValue: 1)
    /// `[d]`: ignore diacritics.
    public static let diacriticInsensitive = StringOptions(rawValue: 2)

    /// The modifier as written in canonical form: "", "[c]", "[d]" or "[cd]".
    public var modifier: String {
        switch (contains(.caseInsensitive), contains(.diacriticInsensitive)) {
        case (false, false): ""
        case (true, false): "[c]"
        case (false, true): "[d]"
        case (true, true): "[cd]"
        }
    }
}
