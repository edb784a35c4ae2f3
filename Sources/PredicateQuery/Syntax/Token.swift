// The tokens the lexer produces.
//
// Punctuation is normalised here: `=` and `==` are the same token, as are `!=` and
// `<>`, `<=` and `=<`, `>=` and `=>`. Words are not classified: whether `limit` or
// `contains` is a keyword depends on where it stands, so the parser decides.

/// The kind of a token.
enum TokenKind: Hashable, Sendable {
    /// A name; possibly a keyword, which the parser decides.
    case name
    /// A name in backticks, never a keyword.
    case escapedName
    /// `$name`: a parameter or a closure / SUBQUERY variable.
    case parameter
    /// `@count`, `@sum`, …
    case collectionOperator
    case integer, decimal, duration, string
    case leftParen, rightParen, leftBracket, rightBracket, leftBrace, rightBrace
    case comma, colon, dot, questionDot, questionQuestion
    case equal, notEqual, less, lessEqual, greater, greaterEqual
    case and, or, bang
    case plus, minus, star, slash, percent
    /// Bitwise `&`, `|`, `^` and prefix `~` on integers.
    case ampersand, pipe, caret, tilde
    case closedRange, halfOpenRange
    case end
}

/// The decoded value a literal or name token carries.
enum TokenValue: Hashable, Sendable {
    case none
    /// A name's text without backticks, a parameter's name without `$`, an operator's name without `@`.
    case text(String)
    /// An integer literal's magnitude; the sign is a separate token.
    case integer(UInt64)
    case decimal(Double)
    /// A duration as written: the number and its unit letter.
    case duration(Double, Character)
    /// A string literal with its escapes decoded.
    case string(String)
}

/// One token and where it came from.
struct Token: Hashable, Sendable {
    var kind: TokenKind
    var span: SourceSpan
    var value: TokenValue = .none

    /// The text of a name-like token, or "" for others.
    var text: String {
        if case .text(let text) = value { return text }
        return ""
    }

    /// Whether this is an unescaped name spelled `word` (a keyword, in lowercase), ignoring case.
    func isKeyword(_ word: String) -> Bool {
        guard kind == .name, case .text(let text) = value else { return false }
        return Self.lowercased(text, equals: word)
    }

    /// `text.lowercased() == word`, without making the lowercased string when `text` is ASCII
    /// (the parser asks it of most names several times).
    static func lowercased(_ text: String, equals word: String) -> Bool {
        guard let first = text.utf8.first else { return word.isEmpty }
        // Most names are not the keyword asked about, and most differ at once: an ASCII first scalar
        // lowercases to the first scalar of the result, whatever follows.
        if first < 0x80 {
            let lowered = first >= UInt8(ascii: "A") && first <= UInt8(ascii: "Z") ? first + 32 : first
            guard lowered == word.utf8.first else { return false }
        }
        var matches = text.utf8.count == word.utf8.count
        var wordBytes = word.utf8.makeIterator()
        for byte in text.utf8 {
            // Beyond ASCII, lowercasing can change the length (İ) or land in ASCII (K, the Kelvin sign).
            guard byte < 0x80 else { return text.lowercased() == word }
            let lowered = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
            if matches, lowered != wordBytes.next() { matches = false }
        }
        return matches
    }

    /// Whether this is an unescaped name spelled exactly `word`.
    func isName(_ word: String) -> Bool {
        kind == .name && text == word
    }
}
