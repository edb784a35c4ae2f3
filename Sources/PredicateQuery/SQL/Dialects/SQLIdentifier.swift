// How SQLite and PostgreSQL both write a name: in double quotes, a double quote
// inside doubled. The one place pq quotes an identifier: the dialects' `quote`,
// table creation, inserts and introspection all call it.

/// A table, column or index name written for SQL.
package enum SQLIdentifier {
    /// `name` in double quotes, a double quote inside it doubled (`a"b` → `"a""b"`).
    package static func quoted(_ name: String) -> String {
        // This runs for every column named, so the usual name (no quote in it)
        // takes no detour through splitting.
        guard name.utf8.contains(UInt8(ascii: "\"")) else { return "\"" + name + "\"" }
        var quoted = "\""
        quoted.reserveCapacity(name.utf8.count + 4)
        for (index, part) in name.split(separator: "\"", omittingEmptySubsequences: false).enumerated() {
            if index > 0 { quoted += "\"\"" }
            quoted += part
        }
        quoted += "\""
        return quoted
    }
}
