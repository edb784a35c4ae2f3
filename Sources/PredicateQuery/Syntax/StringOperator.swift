// The string operators, and every name each goes by: one row per operator.
//
// An operator's raw value is its keyword in pq's text (any case, as in
// NSPredicate's format strings: `CONTAINS`, `contains`). Its row (`definition`)
// says what else it is called and how the rest of pq treats it: the Swift methods
// that mean it in `#Predicate` and in pq's text (`hasPrefix(_:)`, `starts(with:)`)
// or pq's own where Swift has none (`like(_:options:)`, in Swift source only),
// what its right operand is (a plain string, a LIKE pattern, a regular
// expression), the node Foundation's `#Predicate` has for it, and the SQL function
// the SQLite store registers for it. The parser's keyword lists, the did-you-mean
// list, both Swift method tables, the REPL's completion and the SQLite functions
// are read from here; the checker, the evaluator (`StringFunctions.test`) and the
// lowerings switch over the operator with no `default`, so a new case does not
// compile until each has said what it does. `OperatorTableTests` then walks every
// operator through every stage.

/// The string tests.
public enum StringOperator: String, Sendable, Hashable, CaseIterable {
    /// `contains`, `beginswith`, `endswith`, `like` (a pattern with `*` and `?`) and
    /// `matches` (a regular expression over the whole string).
    case contains, beginsWith = "beginswith", endsWith = "endswith", like, matches
}

extension StringOperator {
    /// Everything pq needs to know about one string operator besides its keyword.
    package struct Definition: Sendable {
        /// The Swift methods that mean the operator, as `#Predicate` and pq's text write them.
        package var swiftMethods: [SwiftMethod]
        /// pq's own method for the operator in Swift source, where Swift has none
        /// (`title.like("How*", options: .caseInsensitive)`); `#Predicate` rejects it.
        package var pqSwiftMethod: PQSwiftMethod? = nil
        /// What the right operand is, which decides how the checker looks at a literal one.
        package var operand: Operand
        /// The node Foundation's `#Predicate` has for the operator; nil if it has none
        /// (then exporting a query that uses it is refused, by name).
        package var foundationNode: FoundationNode?
        /// The SQL function the SQLite store registers for the operator (it calls
        /// `StringFunctions.test`), as lowering writes it.
        package var sqliteFunction: String
    }

    /// A Swift method that is a string operator: `name.hasPrefix(x)` is `name beginswith x`.
    package struct SwiftMethod: Sendable {
        /// The method's name: `hasPrefix`.
        package var name: String
        /// The argument's label: `with` for `starts(with:)`; nil for an unlabelled argument.
        package var label: String? = nil
        /// The operator the call is.
        package var op: StringOperator
        /// The options the method implies: `[c]` for `localizedCaseInsensitiveContains`.
        package var options: StringOptions = []
    }

    /// pq's own Swift spelling of an operator Swift has no method for: `name(_:options:)`.
    package struct PQSwiftMethod: Sendable {
        /// The method's name: `like`.
        package var name: String
        /// What to write instead in an app, whose `#Predicate` rejects the method (for `pq lint`).
        package var advice: String
    }

    /// What an operator's right operand is.
    package enum Operand: Sendable, Hashable {
        /// A string matched as it is: a needle, a prefix, a suffix.
        case text
        /// A LIKE pattern with pq's wildcards `*` and `?` (a literal one written with
        /// SQL's `%` and `_` gets a warning).
        case likePattern
        /// An ICU regular expression (a literal one must be valid).
        case regex
    }

    /// The string tests Foundation's `#Predicate` has a node for.
    package enum FoundationNode: Sendable, Hashable {
        /// `PredicateExpressions.StringContains`.
        case contains
        /// `PredicateExpressions.SequenceStartsWith`.
        case starts
    }

    /// The operator's row of the table.
    package var definition: Definition {
        switch self {
        case .contains:
            Definition(
                swiftMethods: [
                    SwiftMethod(name: "localizedStandardContains", op: self, options: [.caseInsensitive, .diacriticInsensitive]),
                    SwiftMethod(name: "localizedCaseInsensitiveContains", op: self, options: [.caseInsensitive]),
                ],
                operand: .text, foundationNode: .contains, sqliteFunction: "pq_contains")
        case .beginsWith:
            Definition(
                swiftMethods: [SwiftMethod(name: "starts", label: "with", op: self), SwiftMethod(name: "hasPrefix", op: self)],
                operand: .text, foundationNode: .starts, sqliteFunction: "pq_hasprefix")
        case .endsWith:
            Definition(
                swiftMethods: [SwiftMethod(name: "hasSuffix", op: self)], operand: .text, foundationNode: nil,
                sqliteFunction: "pq_hassuffix")
        case .like:
            Definition(
                swiftMethods: [],
                pqSwiftMethod: PQSwiftMethod(
                    name: "like", advice: "use starts(with:), hasSuffix(_:) or contains(_:) for the parts of the pattern"),
                operand: .likePattern, foundationNode: nil, sqliteFunction: "pq_like")
        case .matches:
            Definition(
                swiftMethods: [],
                pqSwiftMethod: PQSwiftMethod(
                    name: "matches", advice: "match a Regex: a captured Regex with contains(_:) (iOS 18 / macOS 15)"),
                operand: .regex, foundationNode: nil, sqliteFunction: "pq_matches")
        }
    }

    /// The operator's keyword in pq's text, in lower case: `beginswith`.
    package var keyword: String { rawValue }

    /// Every operator's keyword, in declaration order.
    package static let keywords: [String] = allCases.map(\.keyword)

    /// The Swift methods of every operator, by name. `contains(_:)` is not among them:
    /// on a list it is membership and with a closure an element test, so each parser
    /// reads it on its own.
    package static let swiftMethods: [String: SwiftMethod] = Dictionary(
        allCases.flatMap(\.definition.swiftMethods).map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })

    /// The operators pq spells with a method of its own in Swift source, by the method's name.
    package static let pqSwiftMethods: [String: StringOperator] = Dictionary(
        allCases.compactMap { op in op.definition.pqSwiftMethod.map { ($0.name, op) } }, uniquingKeysWith: { first, _ in first })
}
