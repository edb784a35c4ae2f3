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
// - Date arithmetic: pq adds a duration to a date in Double seconds since 2001,
//   PostgreSQL in whole microseconds. (Other arithmetic, `@sum` and `@avg` give
//   pq's answer or raise an error where PostgreSQL cannot hold it: see
//   `PostgreSQLDialect+Numbers`.)
// - Text cannot hold U+0000, and `timestamptz` holds microseconds.
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
public enum PostgreSQLSupport {
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
        case .arithmetic(let op, _, _, .date):
            return (
                "date arithmetic ('\(op.rawValue)')",
                "pq adds durations to dates in Double seconds since 2001, PostgreSQL in whole microseconds, and the two round differently"
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

    /// Whether a date is a whole number of microseconds, so `timestamptz` holds it exactly.
    public static func isWholeMicroseconds(_ date: Date) -> Bool {
        let seconds = date.timeIntervalSince1970
        let micros = (seconds * 1_000_000).rounded()
        return micros.magnitude < 9e15 && micros / 1_000_000 == seconds
    }
}
