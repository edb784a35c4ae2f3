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
    let kind: TokenKind
    let span: SourceSpan
    let value: TokenValue
    /// A name's text lowercased, made once here for the parser's many keyword tests; "" for other tokens.
    let folded: String

    init(kind: TokenKind, span: SourceSpan, value: TokenValue = .none) {
        self.kind = kind
        self.span = span
        self.value = value
        if kind == .name, case .text(let text) = value { folded = text.lowercased() } else { folded = "" }
    }

    /// A name token whose lowercased text the lexer already made.
    init(name: String, folded: String, span: SourceSpan) {
        self.kind = .name
        self.span = span
        self.value = .text(name)
        self.folded = folded
    }

    /// The text of a name-like token, or "" for others.
    var text: String {
        if case .text(let text) = value { return text }
        return ""
    }

    /// Whether this is an unescaped name spelled `word` (a keyword, in lowercase), ignoring case.
    func isKeyword(_ word: String) -> Bool {
        kind == .name && folded == word
    }

    /// Whether this is an unescaped name that is a reserved word (`where`, `and`, `contains`, …), in any case.
    var isReservedWord: Bool {
        kind == .name && Keywords.reserved.contains(folded)
    }

    /// Whether this is an unescaped name spelled exactly `word`.
    func isName(_ word: String) -> Bool {
        kind == .name && text == word
    }
}
