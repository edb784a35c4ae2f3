// The plural of a table's name, for the to-many relationships introspection finds:
// one rule for SQLite's tables and PostgreSQL's.

/// A simple English plural, for naming the to-many side of a foreign key.
package enum EnglishPlural {
    /// `transaction` → `transactions`, `category` → `categories`, `box` → `boxes`,
    /// `address` → `addresses`, `status` → `statuses`; a name already ending in a
    /// single `s` (`transactions`) is taken as plural.
    public static func of(_ name: String) -> String {
        let lower = name.lowercased()
        if ["ss", "us", "is", "x", "z", "ch", "sh"].contains(where: { lower.hasSuffix($0) }) { return name + "es" }
        if lower.hasSuffix("s") { return name }
        if lower.hasSuffix("y"), let before = lower.dropLast().last, !"aeiou".contains(before) {
            return name.dropLast() + "ies"
        }
        return name + "s"
    }
}
