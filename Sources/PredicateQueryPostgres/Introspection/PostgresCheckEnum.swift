// Simple CHECK constraints read as enums: `CHECK (status IN ('open', 'closed'))`
// on a text column, which PostgreSQL keeps as
// `CHECK ((status = ANY (ARRAY['open'::text, 'closed'::text])))` (with casts for
// varchar), or the same as `status = 'open' OR status = 'closed'`. Anything else
// in the expression (another column, `<`, `AND`, `NOT`, a function) and the column
// stays a String: a guessed enum would refuse values the table accepts.

enum PostgresCheckEnum {
    /// The allowed values of a column, if one of its table's CHECK constraints is a
    /// simple list of them on that column alone.
    static func labels(of column: PostgresCatalog.Column, in table: PostgresCatalog.Table) -> [String]? {
        for constraint in table.constraints where constraint.kind == "c" && constraint.columns == [column.number] {
            if let labels = labels(in: constraint.definition, column: column.name) { return labels }
        }
        return nil
    }

    /// The words a simple list's definition may hold besides the column and the values.
    private static let allowedWords: Set<String> = [
        "CHECK", "ANY", "ARRAY", "OR", "text", "character", "varying", "bpchar", "varchar", "citext",
    ]

    /// The quoted values of a definition that is only `column = value` tests, or nil.
    static func labels(in definition: String, column: String) -> [String]? {
        var labels: [String] = []
        var rest = ""
        var characters = definition.makeIterator()
        var pending: Character? = characters.next()
        while let character = pending {
            pending = characters.next()
            guard character == "'" else {
                rest.append(character)
                continue
            }
            var label = ""
            var closed = false
            while let next = pending {
                pending = characters.next()
                if next == "'" {
                    if pending == "'" {
                        label.append("'")
                        pending = characters.next()
                        continue
                    }
                    closed = true
                    break
                }
                label.append(next)
            }
            guard closed else { return nil }
            labels.append(label)
            rest.append(" ")
        }
        let unquotedColumn = column.replacingOccurrences(of: "\"", with: "")
        var word = ""
        var sawEquals = false
        for character in rest + " " {
            if character.isLetter || character.isNumber || character == "_" {
                word.append(character)
                continue
            }
            if !word.isEmpty {
                guard allowedWords.contains(word) || word == unquotedColumn else { return nil }
                word = ""
            }
            if character == "=" { sawEquals = true }
            guard "()[]=:, \"".contains(character) else { return nil }
        }
        guard sawEquals, !labels.isEmpty, Set(labels).count == labels.count else { return nil }
        return labels
    }
}
