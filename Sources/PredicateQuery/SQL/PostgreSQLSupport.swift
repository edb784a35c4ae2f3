// What PostgreSQL cannot answer with pq's exact meaning, refused before anything runs.
//
// pq's meaning is SQLite's, written down (README, "Meaning"). PostgreSQL differs
// where pq's strings and numbers need Swift code or SQLite's dynamic typing:
//
// - `[c]`/`[d]` fold scalar by scalar with Unicode's full case folding and
//   decomposition; PostgreSQL's `lower()`/ILIKE follow the database's locale and
//   have no diacritic folding, so no spelling of them gives the same answers.
// - `like` takes `?` as one whole character and `matches` is ICU's regular
//   expression; PostgreSQL's LIKE and its POSIX (ARE) regular expressions differ
//   (classes, `\b`, case folding, possessive and look-behind forms).
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
        for key in query.sortKeys where !key.options.isEmpty {
            throw refusal("sorting with \(key.options.modifier)", why: foldingReason)
        }
        if let predicate = query.predicate, let (form, why) = problem(in: predicate) {
            throw refusal(form, why: why)
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

    private static let foldingReason =
        "pq folds case and diacritics scalar by scalar with Unicode's full folding, which PostgreSQL's lower() and ILIKE do not"

    private static func refusal(_ form: String, why: String) -> LoweringError {
        LoweringError(message: "PostgreSQL cannot answer \(form) as pq does: \(why)", code: .unsupportedByDatabase)
    }

    /// The first refused form in `expr` and why, or nil.
    private static func problem(in expr: TypedExpr) -> (String, String)? {
        switch expr {
        case .compare(let op, let lhs, let rhs, let options):
            if !options.isEmpty { return ("'\(op.rawValue)\(options.modifier)'", foldingReason) }
        case .stringTest(let op, _, _, let options):
            if !options.isEmpty { return ("'\(op.rawValue)\(options.modifier)'", foldingReason) }
            if op == .like {
                return (
                    "'like'",
                    "pq's '?' takes one whole character and '*' any run of them; PostgreSQL's LIKE counts code points"
                )
            }
            if op == .matches {
                return (
                    "'matches'",
                    "pq's regular expressions are ICU's; PostgreSQL's are POSIX-style and differ in classes, word boundaries and case folding"
                )
            }
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
