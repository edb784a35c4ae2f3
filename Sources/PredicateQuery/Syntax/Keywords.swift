// The words of pq's text that are keywords, in one place.
//
// The lexer leaves words unclassified (see `Token`): whether `limit` or `contains`
// is a keyword depends on where it stands, so the parser decides. What it decides
// with is here, and so is every list made from these words: the reserved words,
// the words that start a comparison's tail, the did-you-mean list for a misspelled
// operator or clause, and the REPL's completions. The string operators' keywords
// come from their own table (`StringOperator`), so a new operator joins every list
// at once.

/// The keywords of pq's text and the lists made from them (all in lower case; a
/// keyword matches in any case).
package enum Keywords {
    /// `and`, `or`, `not` (also written `&&`, `||`, `!`).
    static let logical = ["and", "or", "not"]

    /// `x in collection`, `x between a and b`.
    static let membership = ["in", "between"]

    /// The words of the quantifiers, with the quantifier each is: `some` is `any`.
    static let quantifiers: [(word: String, quantifier: Quantifier)] = [
        ("any", .any), ("some", .any), ("all", .all), ("none", .none),
    ]

    /// The words that are literals, NSPredicate's spellings among them.
    static let literals: [(word: String, literal: Literal)] = [
        ("true", .bool(true)), ("yes", .bool(true)), ("truepredicate", .bool(true)),
        ("false", .bool(false)), ("no", .bool(false)), ("falsepredicate", .bool(false)),
        ("nil", .null), ("null", .null),
    ]

    /// `SELF` (the object) and `SUBQUERY(…)`.
    static let forms = ["self", "subquery"]

    /// The word between the entity and the predicate.
    static let `where` = "where"

    /// The clauses after the predicate, in the order they go; keywords only where a
    /// clause can start, so that an attribute may be called `limit`.
    static let clauses = ["sort", "limit", "offset"]

    /// The words after a sort key, and whether each means ascending.
    static let sortDirections: [(word: String, isAscending: Bool)] = [
        ("asc", true), ("ascending", true), ("desc", false), ("descending", false),
    ]

    /// Words that cannot be names unless escaped in backticks.
    static let reserved: Set<String> = Set(
        logical + membership + StringOperator.keywords + quantifiers.map(\.word) + literals.map(\.word) + forms + [`where`])

    /// The words that start the tail of a comparison: the string operators, `in` and `between`.
    static let comparisonWords = StringOperator.keywords + membership

    /// Words that may follow an operand, for "did you mean …?": the string
    /// operators, `between`, `where` and the clauses.
    static let operatorWords = StringOperator.keywords + ["between", `where`] + clauses

    /// The literal a word, lowercased (a name token's `folded`), stands for: `true`, `yes`, `nil`,
    /// `null`; nil for any other word.
    static func literal(lowercased word: String) -> Literal? {
        literals.first { $0.word == word }?.literal
    }

    /// The keywords the REPL completes, in their canonical spellings, with the
    /// functions that take no argument.
    package static let completions: [String] =
        [`where`, "sort", "by", "limit", "offset", "asc", "desc"] + logical + membership + StringOperator.keywords
        + Quantifier.allCases.map(\.rawValue) + ["nil", "true", "false"]
        + BuiltinFunction.allCases.filter { $0 == .now || $0 == .today }.map { $0.rawValue + "()" }
}
