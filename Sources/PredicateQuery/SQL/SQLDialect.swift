// What differs between SQL databases, in one place.
//
// The lowering produces a dialect-neutral `SQLExpr`; a dialect renders it. A
// second database (PostgreSQL) is a new conforming type in a new file.

/// The spelling of SQL for one database.
protocol SQLDialect: Sendable {
    /// A quoted identifier.
    func quote(_ identifier: String) -> String
    /// The placeholder for the binding at `index` (0-based).
    func placeholder(_ index: Int) -> String
    /// The spelling of a function pq uses, by pq's name for it.
    func function(_ name: String) -> String
    /// The text that stands for "no limit" before an OFFSET, if the dialect needs one.
    var unlimited: String? { get }
}

/// SQLite: identifiers in double quotes, numbered `?NNN` placeholders (so one value
/// can be used twice), and pq's string functions registered on the connection.
struct SQLiteDialect: SQLDialect {
    func quote(_ identifier: String) -> String {
        // This runs for every column named, so the usual name (no quote in it)
        // takes no detour through splitting.
        guard identifier.utf8.contains(UInt8(ascii: "\"")) else { return "\"" + identifier + "\"" }
        var quoted = "\""
        quoted.reserveCapacity(identifier.utf8.count + 4)
        for (index, part) in identifier.split(separator: "\"", omittingEmptySubsequences: false).enumerated() {
            if index > 0 { quoted += "\"\"" }
            quoted += part
        }
        quoted += "\""
        return quoted
    }

    func placeholder(_ index: Int) -> String { "?\(index + 1)" }

    func function(_ name: String) -> String { name }

    var unlimited: String? { "-1" }
}
