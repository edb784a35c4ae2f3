// What PostgreSQL cannot answer with pq's exact meaning, refused before anything runs.
//
// pq's meaning is SQLite's, written down (README, "Meaning"). PostgreSQL differs
// where pq's strings and numbers need Swift code or SQLite's dynamic typing:
//
// - Strings (`PostgreSQLSupport+Strings`): `like`, `matches` and the `[c]`/`[d]`
//   tests against a literal or a parameter are lowered exactly, through patterns
//   made in Swift (`PostgreSQLPattern`), and ordering with `[c]`/`[d]` through
//   folded values; refused are a needle or pattern read from the store,
//   `matches[c]` and `[cd]`, and regular-expression constructs ARE does not share with ICU.
// - Date arithmetic (`d + 7d`, `now() - 30d`, `$start + 1h`) is lowered exactly:
//   the dates taking part become pq's Double seconds since 2001 and the duration is
//   added in `double precision` (`SQLLowering+DatesAsSeconds`); refused is only a
//   computed date tested against a parameter list (`d + 1d in $dates`), whose dates
//   are bound as `timestamptz`. (Other arithmetic, `@sum` and `@avg` give pq's
//   answer or raise an error where PostgreSQL cannot hold it: see
//   `PostgreSQLDialect+Numbers`.)
// - Text cannot hold U+0000, and `timestamptz` holds microseconds (a date constant
//   or stored date; a computed date is a Double and may be finer).
//
// Everything else (comparisons by code point, plain contains/prefix/suffix tests,
// presence, membership, quantifiers, arithmetic, aggregates, sorting) has the
// same meaning and is lowered by `PostgreSQLDialect`.

import Foundation

extension DiagnosticCode {
    /// The query has a form the store's database cannot answer with pq's meaning.
    public static let unsupportedByDatabase: DiagnosticCode = "lower.unsupportedByDatabase"
}

/// The check that a checked query keeps its meaning on PostgreSQL.
package enum PostgreSQLSupport {
    /// Throws, naming the first form PostgreSQL cannot answer as pq does.
    public static func check(_ query: CheckedQuery) throws(LoweringError) {
        if let predicate = query.predicate, let (form, why) = problem(in: predicate) {
            var error = refusal(form, why: why)
            error.literal = refusedLiteral(form, in: predicate)
            throw error
        }
    }

    /// The reason of the first refused form, for reports (nil when the query is supported).
    public static func reason(_ query: CheckedQuery) -> String? {
        do throws(LoweringError) {
            try check(query)
            return nil
        } catch {
            return error.message
        }
    }

    private static func refusal(_ form: String, why: String) -> LoweringError {
        LoweringError(message: "PostgreSQL cannot answer \(form) as pq does: \(why)", code: .unsupportedByDatabase)
    }

    /// The first refused form in `expr` and why, or nil.
    private static func problem(in expr: TypedExpr) -> (String, String)? {
        switch expr {
        case .compare(let op, let lhs, let rhs, let options):
            if !options.isEmpty, let found = foldedComparisonProblem(op, lhs, rhs, options) { return found }
        case .stringTest(let op, let lhs, let rhs, let options):
            if let found = stringTestProblem(op, lhs, rhs, options) { return found }
        case .inParameterList(_, _, _, let options) where !options.isEmpty:
            return (
                "'in\(options.modifier)' with a list parameter",
                "its values would need folding as PostgreSQL's '==\(options.modifier)' folds them; list the values instead, as in 'name in\(options.modifier) {$a, $b}'"
            )
        case .inParameterList(let element, _, _, _) where element.isComputedDate:
            return (
                "a computed date in a parameter list",
                "pq compares it as Double seconds since 2001, and the list's dates are bound as timestamptz"
            )
        case .aggregate(let function, _, _, let value, _):
            switch function {
            case .min, .max:
                if let value, ![.int, .double, .string, .url, .date].contains(value.type) {
                    return ("'@\(function.rawValue)' of \(value.type)", "PostgreSQL orders only numbers, strings and dates")
                }
            case .count, .sum, .avg:
                break
            }
        case .constant(.string(let text), _) where text.unicodeScalars.contains("\u{0}"):
            return ("a string holding U+0000", "PostgreSQL's text cannot hold it")
        case .constant(.date(let date), _) where !isWholeMicroseconds(date):
            return ("a date finer than a microsecond", "PostgreSQL's timestamptz holds microseconds")
        default:
            break
        }
        for child in expr.children {
            if let found = problem(in: child) { return found }
        }
        return nil
    }

    /// Whether a date is a whole number of microseconds, so `timestamptz` holds it exactly:
    /// since 1970, and as pq's own Double of seconds since 2001, which date arithmetic
    /// reads back from the microseconds rounding once (`SQLLowering+DatesAsSeconds`).
    public static func isWholeMicroseconds(_ date: Date) -> Bool {
        let seconds = date.timeIntervalSince1970
        let micros = (seconds * 1_000_000).rounded()
        guard micros.magnitude < 9e15, micros / 1_000_000 == seconds else { return false }
        // Both are whole numbers below 2^53, so the difference is exact and the division rounds once.
        let microsSince2001 = micros - 978_307_200_000_000
        return microsSince2001.magnitude < 9_007_199_254_740_992
            && microsSince2001 / 1_000_000 == date.timeIntervalSinceReferenceDate
    }
}
