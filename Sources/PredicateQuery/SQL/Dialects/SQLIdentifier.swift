// How SQLite and PostgreSQL both write a name: in double quotes, a double quote
// inside doubled. The one place pq quotes an identifier: the dialects' `quote`,
// table creation, inserts and introspection all call it.

/// A table, column or index name written for SQL.
package enum SQLIdentifier {
    /// `name` in double quotes, a double quote inside it doubled (`a"b` → `"a""b"`).
    package static func quoted(_ name: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(name.utf8.count + 2)
        appendQuoted(name, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `quoted(name)`'s UTF-8 to `bytes`, without making it a `String`: the
    /// renderer writes every column it names this way.
    package static func appendQuoted(_ name: String, to bytes: inout [UInt8]) {
        let quote = UInt8(ascii: "\"")
        bytes.append(quote)
        // The usual name, native and with no quote in it, is copied at once.
        let copied =
            name.utf8.withContiguousStorageIfAvailable { utf8 in
                guard !utf8.contains(quote) else { return false }
                bytes.append(contentsOf: utf8)
                return true
            } ?? false
        if !copied {
            for byte in name.utf8 {
                bytes.append(byte)
                if byte == quote { bytes.append(quote) }
            }
        }
        bytes.append(quote)
    }
}
