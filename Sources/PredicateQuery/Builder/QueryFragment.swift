// The typed builder's building block: a piece of syntax tree, the values it
// binds, and any mistake found while building it.
//
// The builder writes the same syntax tree the parser would for the same
// predicate. A value that has no exact literal form (a `Date` with sub-millisecond
// precision, `Data`) is bound instead: its node is a parameter with a reserved
// name, and the value travels with the fragment until the query is run.

import Foundation

/// Part of a query under construction.
public struct QueryFragment: Sendable {
    /// The syntax tree.
    public var expr: Expr
    /// Values for the parameters the builder introduced, by parameter name.
    public var boundValues: [String: Value]
    /// What could not be expressed (a key path pq cannot name, …), as messages.
    public var problems: [String]

    /// A fragment of `expr`, with the values its reserved parameters bind and what could not be expressed.
    public init(_ expr: Expr, boundValues: [String: Value] = [:], problems: [String] = []) {
        self.expr = expr
        self.boundValues = boundValues
        self.problems = problems
    }

    /// A fragment whose tree is built from `parts`, keeping their values and problems.
    static func combining(_ parts: [QueryFragment], _ make: ([Expr]) -> ExprKind) -> QueryFragment {
        var values: [String: Value] = [:]
        var problems: [String] = []
        for part in parts {
            values.merge(part.boundValues) { first, _ in first }
            problems += part.problems
        }
        return QueryFragment(Expr(make(parts.map(\.expr))), boundValues: values, problems: problems)
    }

    /// A fragment that could not be built, with the reason.
    static func problem(_ message: String) -> QueryFragment {
        QueryFragment(Expr(.invalid), problems: [message])
    }
}

extension DiagnosticCode {
    /// The typed builder or the Foundation bridge met something pq cannot express.
    public static let unsupportedConstruct: DiagnosticCode = "build.unsupported"
}
