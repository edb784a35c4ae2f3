// Whether a name can stand in a query as it is, without backquotes: the lexer's own
// rule for identifiers. The stores use it when they turn the names of tables and
// columns they find into entity and attribute names.

/// The names a query can spell without backquotes.
package enum PlainName {
    /// Whether `name` is a letter or `_` followed by letters, digits and `_`
    /// (Unicode's XID rules beyond ASCII), as the lexer reads an identifier.
    public static func isPlain(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, Lexer.isNameStart(first) else { return false }
        return name.unicodeScalars.dropFirst().allSatisfy(Lexer.isNameContinue)
    }
}
