// The lexer: query text to tokens.
//
// It works on UTF-8 bytes with byte-offset spans, in one forward pass with no
// backtracking, so its time is linear in the input. It never stops at an error:
// it reports the error, skips the offending bytes and goes on, so one run shows
// every lexical problem. Keywords are not recognised here (see `Token`).

/// Splits query text into tokens.
struct Lexer {
    let bytes: [UInt8]
    let limits: Limits
    var position = 0
    private(set) var diagnostics: [Diagnostic] = []
    /// Whether `Limits.deadline` passed while lexing (the clock is read every 1,024 tokens).
    private(set) var deadlinePassed = false

    init(_ source: String, limits: Limits = .standard) {
        self.bytes = Array(source.utf8)
        self.limits = limits
    }

    /// All tokens, ending with one `.end` token.
    mutating func tokenize() -> [Token] {
        var tokens: [Token] = []
        // About one token per four bytes in typical queries; growing the array from
        // empty copied every token several times.
        tokens.reserveCapacity(min(bytes.count / 4 + 2, 4096))
        while true {
            skipWhitespace()
            guard position < bytes.count else { break }
            if let token = lexToken() {
                tokens.append(token)
                if tokens.count % 1024 == 0, let deadline = limits.deadline, ContinuousClock.now >= deadline {
                    deadlinePassed = true
                    break
                }
            }
        }
        tokens.append(Token(kind: .end, span: .point(bytes.count)))
        return tokens
    }

    // MARK: - Dispatch

    private mutating func lexToken() -> Token? {
        let start = position
        let byte = bytes[position]
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            return lexNumber()
        case UInt8(ascii: "'"), UInt8(ascii: "\""):
            return lexString()
        case UInt8(ascii: "`"):
            return lexEscapedName()
        case UInt8(ascii: "$"), UInt8(ascii: "@"):
            return lexPrefixedName()
        default:
            if let kind = lexPunctuation() {
                return Token(kind: kind, span: SourceSpan(start: start, end: position))
            }
            if let name = lexName() {
                return Token(name: name, folded: lowercased(name, at: start), span: SourceSpan(start: start, end: position))
            }
            skipUnexpectedCharacter()
            return nil
        }
    }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                position += 1
            default:
                return
            }
        }
    }

    func peek(_ offset: Int = 0) -> UInt8? {
        position + offset < bytes.count ? bytes[position + offset] : nil
    }

    /// Records a diagnostic; after `Parser.maxDiagnostics` of them the rest are
    /// dropped, and the last one kept says so.
    mutating func report(_ diagnostic: Diagnostic) {
        Parser.append(diagnostic, to: &diagnostics)
    }

    // MARK: - Punctuation

    /// The punctuation tokens, longest spelling first so that `..<` wins over `..`.
    /// Punctuation, longest spelling first: `..<` `...` `==` `!=` `<>` `<=` `=<` `>=`
    /// `=>` `&&` `||` `?.` `??`, then `=` `<` `>` `!` `+` `-` `*` `/` `%` `&` `|` `^`
    /// `~` `(` `)` `[` `]` `{` `}` `,` `:` `.`. A switch on the bytes, not a scan of a
    /// table of spellings (which was a twentieth of all compile time).
    private mutating func lexPunctuation() -> TokenKind? {
        guard let first = peek() else { return nil }
        let second = peek(1)
        func take(_ length: Int, _ kind: TokenKind) -> TokenKind {
            position += length
            return kind
        }
        func ascii(_ character: Unicode.Scalar) -> UInt8 { UInt8(ascii: character) }
        switch first {
        case ascii("."):
            if second == ascii("."), peek(2) == ascii("<") { return take(3, .halfOpenRange) }
            if second == ascii("."), peek(2) == ascii(".") { return take(3, .closedRange) }
            return take(1, .dot)
        case ascii("="):
            if second == ascii("=") { return take(2, .equal) }
            if second == ascii("<") { return take(2, .lessEqual) }
            if second == ascii(">") { return take(2, .greaterEqual) }
            return take(1, .equal)
        case ascii("!"): return second == ascii("=") ? take(2, .notEqual) : take(1, .bang)
        case ascii("<"):
            if second == ascii(">") { return take(2, .notEqual) }
            return second == ascii("=") ? take(2, .lessEqual) : take(1, .less)
        case ascii(">"): return second == ascii("=") ? take(2, .greaterEqual) : take(1, .greater)
        case ascii("&"): return second == ascii("&") ? take(2, .and) : take(1, .ampersand)
        case ascii("|"): return second == ascii("|") ? take(2, .or) : take(1, .pipe)
        case ascii("?"):
            if second == ascii(".") { return take(2, .questionDot) }
            return second == ascii("?") ? take(2, .questionQuestion) : nil
        case ascii("+"): return take(1, .plus)
        case ascii("-"): return take(1, .minus)
        case ascii("*"): return take(1, .star)
        case ascii("/"): return take(1, .slash)
        case ascii("%"): return take(1, .percent)
        case ascii("^"): return take(1, .caret)
        case ascii("~"): return take(1, .tilde)
        case ascii("("): return take(1, .leftParen)
        case ascii(")"): return take(1, .rightParen)
        case ascii("["): return take(1, .leftBracket)
        case ascii("]"): return take(1, .rightBracket)
        case ascii("{"): return take(1, .leftBrace)
        case ascii("}"): return take(1, .rightBrace)
        case ascii(","): return take(1, .comma)
        case ascii(":"): return take(1, .colon)
        default: return nil
        }
    }

    private mutating func skipUnexpectedCharacter() {
        let start = position
        let scalarLength = Self.scalarLength(at: position, in: bytes)
        position += scalarLength
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        let shown = text.unicodeScalars.first.map { $0.escaped(asASCII: true) } ?? text
        var notes: [DiagnosticNote] = []
        switch text {
        case "#": notes.append(DiagnosticNote("to use a reserved word as a name, put it in backticks: `in`"))
        default: break
        }
        report(
            .error(
                .unexpectedCharacter, "unexpected character '\(shown)' in query",
                at: SourceSpan(start: start, end: position), notes: notes))
    }

    // MARK: - Names

    /// Lexes a name if one starts here; returns nil without moving otherwise.
    private mutating func lexName() -> String? {
        let start = position
        guard let (first, firstLength) = scalar(at: position), Self.isNameStart(first) else { return nil }
        position += firstLength
        while position < bytes.count {
            let byte = bytes[position]
            if byte < 0x80 {
                // ASCII, most names: the byte is the scalar.
                guard Self.isNameContinue(Unicode.Scalar(byte)) else { break }
                position += 1
            } else {
                guard let (next, length) = scalar(at: position), Self.isNameContinue(next) else { break }
                position += length
            }
        }
        let length = position - start
        if length > limits.maxIdentifierLength {
            report(
                .error(
                    .identifierTooLong,
                    "name is \(length) bytes long; the limit is \(limits.maxIdentifierLength)",
                    at: SourceSpan(start: start, end: position)))
        }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    /// `name.lowercased()`, where `name` was lexed from the bytes at `start`: an ASCII
    /// name (most names) is lowercased byte by byte, and returned as it is when it has
    /// no capital letter.
    private func lowercased(_ name: String, at start: Int) -> String {
        let end = position
        var capitals = 0
        for offset in start..<end {
            let byte = bytes[offset]
            if byte >= 0x80 { return name.lowercased() }
            if byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") { capitals += 1 }
        }
        guard capitals > 0 else { return name }
        return String(unsafeUninitializedCapacity: end - start) { buffer in
            for offset in start..<end {
                let byte = bytes[offset]
                buffer[offset - start] = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
            }
            return end - start
        }
    }

    private mutating func lexEscapedName() -> Token? {
        let start = position
        position += 1
        guard let name = lexName() else {
            report(.error(.expectedName, "expected a name after '`'", at: .point(position)))
            return nil
        }
        guard peek() == UInt8(ascii: "`") else {
            report(
                .error(
                    .unterminatedEscapedName, "expected '`' to end the escaped name",
                    at: .point(position),
                    notes: [DiagnosticNote("the escaped name starts here", at: .point(start))]))
            return Token(kind: .escapedName, span: SourceSpan(start: start, end: position), value: .text(name))
        }
        position += 1
        return Token(kind: .escapedName, span: SourceSpan(start: start, end: position), value: .text(name))
    }

    /// `$name` parameters and variables, `@count` collection operators.
    private mutating func lexPrefixedName() -> Token? {
        let start = position
        let sigil = bytes[position]
        position += 1
        let nameStart = position
        while let (next, length) = scalar(at: position), Self.isNameContinue(next) {
            position += length
        }
        let name = String(decoding: bytes[nameStart..<position], as: UTF8.self)
        let span = SourceSpan(start: start, end: position)
        if sigil == UInt8(ascii: "$") {
            guard !name.isEmpty else {
                report(.error(.expectedName, "expected a parameter name after '$'", at: span))
                return nil
            }
            if name.utf8.count > limits.maxIdentifierLength {
                report(
                    .error(
                        .identifierTooLong,
                        "name is \(name.utf8.count) bytes long; the limit is \(limits.maxIdentifierLength)",
                        at: span))
            }
            return Token(kind: .parameter, span: span, value: .text(name))
        }
        guard !name.isEmpty else {
            report(.error(.expectedName, "expected a collection operator such as '@count' after '@'", at: span))
            return nil
        }
        return Token(kind: .collectionOperator, span: span, value: .text(name))
    }

    func scalar(at offset: Int) -> (Unicode.Scalar, Int)? {
        guard offset < bytes.count else { return nil }
        // ASCII, most of any query: the byte is the scalar.
        if bytes[offset] < 0x80 { return (Unicode.Scalar(bytes[offset]), 1) }
        let length = Self.scalarLength(at: offset, in: bytes)
        var iterator = bytes[offset..<offset + length].makeIterator()
        var decoder = UTF8()
        if case .scalarValue(let value) = decoder.decode(&iterator) { return (value, length) }
        return nil
    }

    /// The length in bytes of the UTF-8 sequence starting at `offset` (1 for a stray byte).
    static func scalarLength(at offset: Int, in bytes: [UInt8]) -> Int {
        let lead = bytes[offset]
        let length: Int
        switch lead {
        case 0xF0...0xF7: length = 4
        case 0xE0...0xEF: length = 3
        case 0xC0...0xDF: length = 2
        default: length = 1
        }
        return min(length, bytes.count - offset)
    }

    static func isNameStart(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII {
            return (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z") || scalar == "_"
        }
        return scalar.properties.isXIDStart
    }

    static func isNameContinue(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return isNameStart(scalar) || (scalar >= "0" && scalar <= "9") }
        return scalar.properties.isXIDContinue
    }
}
