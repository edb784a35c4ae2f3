// NSPredicate-style format strings, for code moving off Core Data:
//
//     PredicateFormat.expand("%K == %@ AND limit > %d", ["name", "Rent", 100])
//
// gives the query text "`name` == $pq_arg2 AND limit > $pq_arg3", with $pq_arg2
// and $pq_arg3 bound to "Rent" and 100. Arguments are never pasted into the text:
// `%@` and the number specifiers become parameters, and `%K` becomes a key path
// whose names are then checked against the schema like any other. Inside a quoted
// string a specifier is left as it is, as NSPredicate does. The expansion keeps a
// map back to the format string, for diagnostics (see `FormatExpansion`).
//
//   %@                      any value: string, number, Bool, date, UUID, an object,
//                           a list (for IN), or nil (then the text holds `nil`);
//                           after BETWEEN, a list of two values, the bounds
//   %d %i %u %x %X %o       an integer, with any of the length modifiers
//   %f %e %g %a %A …        a number      (l ll h hh q z t j L)
//   %K                      a key path: names separated by dots; alone, a Boolean key
//   %%                      a literal %
//   min max sum count average (…)   over %@, a list literal or a to-many key path

import Foundation

extension DiagnosticCode {
    /// A format string's specifiers and arguments do not match.
    public static let formatArguments: DiagnosticCode = "format.arguments"
}

/// NSPredicate-style format strings.
public enum PredicateFormat {
    /// The prefix of the parameters arguments become: `$pq_arg1`, `$pq_arg2`, …
    public static let parameterPrefix = "pq_arg"

    /// Expands `format` with `arguments`.
    public static func expand(_ format: String, _ arguments: [FormatArgument] = []) -> FormatExpansion {
        var expander = FormatExpander(format: Array(format.utf8), arguments: arguments)
        expander.run()
        var expansion = FormatExpansion(
            text: String(decoding: expander.output, as: UTF8.self), arguments: expander.bound,
            diagnostics: expander.diagnostics)
        expansion.format = format
        expansion.functions = expander.functions
        expansion.substitutions = expander.substitutions
        expansion.madeParameters = expander.madeParameters
        return expansion
    }

    /// `budget.name` as `` `budget`.`name` ``: each name in backticks, so that a
    /// reserved word is a name too; nil if it is not a key path. A collection
    /// operator after the first name stays as it is (`transactions.@sum.amount`).
    static func escapedKeyPath(_ text: String) -> String? {
        let names = text.split(separator: ".", omittingEmptySubsequences: false)
        guard !names.isEmpty else { return nil }
        var escaped: [String] = []
        for (index, name) in names.enumerated() {
            if index > 0, collectionOperators.contains(name.lowercased()) {
                escaped.append(String(name))
                continue
            }
            guard let first = name.unicodeScalars.first, first == "_" || first.properties.isXIDStart,
                name.unicodeScalars.allSatisfy({ $0 == "_" || $0.properties.isXIDContinue })
            else { return nil }
            escaped.append("`\(name)`")
        }
        return escaped.joined(separator: ".")
    }

    /// The collection operators a `%K` key path may hold.
    static let collectionOperators: Set<String> = ["@count", "@sum", "@avg", "@min", "@max"]

    /// `1st`, `2nd`, `3rd`, `4th`, …, `11th`, `21st`.
    static func ordinal(_ number: Int) -> String {
        let suffix: String
        switch (number % 10, number % 100) {
        case (_, 11...13): suffix = "th"
        case (1, _): suffix = "st"
        case (2, _): suffix = "nd"
        case (3, _): suffix = "rd"
        default: suffix = "th"
        }
        return "\(number)\(suffix)"
    }
}
