// Looks for literals in generated SQL. Every value from a query must be bound,
// never pasted: a quote mark outside quoted identifiers, or a number of two or more
// digits that is not a placeholder or an alias, is a literal. (pq's own constants,
// such as folding flags and entity numbers, are single digits.)

public enum SQLLiteralCheck {
    /// A description of the first literal in `sql`, or nil if there is none.
    public static func literal(in sql: String) -> String? {
        var outside = ""
        var inIdentifier = false
        for character in sql {
            if character == "\"" { inIdentifier.toggle() } else if !inIdentifier { outside.append(character) }
        }
        if outside.contains("'") { return "a string literal" }
        var token = ""
        var previous: Character = " "
        for character in outside + " " {
            if character.isNumber {
                if token.isEmpty, previous == "?" || previous == "t" || previous == "j" || previous == "d" { token = "#" }
                token.append(character)
            } else {
                if token.count > 1, !token.hasPrefix("#") { return "the number \(token)" }
                token = ""
                previous = character
            }
        }
        return nil
    }
}
