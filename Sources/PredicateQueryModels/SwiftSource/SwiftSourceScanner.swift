// The scanner: Swift source text to tokens, as far as reading model
// declarations needs them.
//
// It turns a file into identifiers, numbers, string literals, attributes
// (`@Model`), `#` words (`#if`, `#Preview`) and single punctuation characters,
// dropping whitespace and comments. It knows Swift's lexical structure well
// enough never to mistake the inside of a comment or a string for code: nested
// `/* */` comments, multi-line `"""` strings, raw `#"…"#` strings and
// interpolations holding strings of their own (see `+Strings`). It works on
// UTF-8 bytes in one forward pass, never fails, and reports what it could not
// close (an unterminated string or comment) as a problem with its line.

import PredicateQuery

/// One token of Swift source.
struct SwiftToken: Sendable {
    enum Kind: Sendable, Equatable {
        /// A name or keyword; `text` is the name without backquotes.
        case identifier
        /// `@name`; `text` is the name.
        case attribute
        /// `#if`, `#elseif`, `#else`, `#endif`; `text` is the word without `#`.
        case directive
        /// Any other `#name` (`#Preview`, `#Unique`); `text` is the name.
        case pound
        /// A number literal, as written.
        case number
        /// A string literal; `text` is its value (empty when it is interpolated).
        case string
        /// One punctuation or operator character.
        case punctuation
    }

    var kind: Kind
    var text: String
    /// UTF-8 offsets of the token in its file.
    var start: Int
    var end: Int
    /// The 1-based line the token starts on.
    var line: Int
    /// No other token precedes it on its line.
    var startsLine: Bool
    /// A backquoted identifier (so never a keyword), or an interpolated string.
    var isEscaped = false
    /// For an interpolated string: the names its interpolations use, in order (not
    /// members of other values, not argument labels).
    var interpolatedNames: [String] = []

    /// An identifier spelled `word` that is not backquoted: a keyword use.
    func isWord(_ word: String) -> Bool { kind == .identifier && !isEscaped && text == word }

    /// The punctuation character `character`.
    func isPunctuation(_ character: String) -> Bool { kind == .punctuation && text == character }
}

/// Splits Swift source into `SwiftToken`s.
struct SwiftSourceScanner {
    /// Something the scanner could not make sense of.
    struct Problem: Sendable {
        var line: Int
        var message: String
    }

    let bytes: [UInt8]
    var position = 0
    var line = 1
    /// No token has been emitted on the current line yet.
    var atLineStart = true
    var tokens: [SwiftToken] = []
    var problems: [Problem] = []
    private var reportedStrayByte = false

    /// The tokens of UTF-8 source and the problems met on the way.
    static func scan(_ bytes: [UInt8]) -> (tokens: [SwiftToken], problems: [Problem]) {
        var scanner = SwiftSourceScanner(bytes: bytes)
        scanner.run()
        return (scanner.tokens, scanner.problems)
    }

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    func byte(at offset: Int) -> UInt8? {
        offset >= 0 && offset < bytes.count ? bytes[offset] : nil
    }

    mutating func report(_ message: String, line: Int) {
        problems.append(Problem(line: line, message: message))
    }

    mutating func newline() {
        line += 1
        atLineStart = true
    }

    /// Appends a token spanning `start..<position`.
    mutating func add(
        _ kind: SwiftToken.Kind, _ text: String, from start: Int, line startLine: Int, startsLine: Bool,
        escaped: Bool = false, names: [String] = []
    ) {
        tokens.append(
            SwiftToken(
                kind: kind, text: text, start: start, end: position, line: startLine, startsLine: startsLine,
                isEscaped: escaped, interpolatedNames: names))
        atLineStart = false
    }

    // MARK: - Dispatch

    private mutating func run() {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
        if byte(at: position) == UInt8(ascii: "#"), byte(at: position + 1) == UInt8(ascii: "!") {
            skipLineComment()
        }
        while position < bytes.count {
            let current = bytes[position]
            switch current {
            case 0x0A:
                position += 1
                newline()
            case 0x0D:
                position += 1
                if byte(at: position) != 0x0A { newline() }
            case 0x20, 0x09, 0x0B, 0x0C, 0x00:
                position += 1
            case UInt8(ascii: "/") where byte(at: position + 1) == UInt8(ascii: "/"):
                skipLineComment()
            case UInt8(ascii: "/") where byte(at: position + 1) == UInt8(ascii: "*"):
                skipBlockComment()
            case UInt8(ascii: "\""):
                scanString()
            case UInt8(ascii: "#"):
                scanPound()
            case UInt8(ascii: "@"):
                scanAttribute()
            case UInt8(ascii: "`"):
                scanEscapedIdentifier()
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                scanNumber()
            case UInt8(ascii: "$"):
                scanIdentifier()
            default:
                if Self.isIdentifierStart(current) {
                    scanIdentifier()
                } else if current > 0x20 && current < 0x7F {
                    position += 1
                    add(.punctuation, String(UnicodeScalar(current)), from: position - 1, line: line, startsLine: atLineStart)
                } else {
                    if !reportedStrayByte {
                        report("unexpected byte 0x\(String(current, radix: 16)); skipped", line: line)
                        reportedStrayByte = true
                    }
                    position += 1
                }
            }
        }
    }

    static func isIdentifierStart(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || byte == UInt8(ascii: "_") || byte >= 0x80
    }

    static func isIdentifierPart(_ byte: UInt8) -> Bool {
        isIdentifierStart(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }

    // MARK: - Comments

    private mutating func skipLineComment() {
        while position < bytes.count, bytes[position] != 0x0A, bytes[position] != 0x0D {
            position += 1
        }
    }

    /// Skips a `/* */` comment, which may nest.
    private mutating func skipBlockComment() {
        let startLine = line
        var depth = 0
        while position < bytes.count {
            let current = bytes[position]
            if current == UInt8(ascii: "/"), byte(at: position + 1) == UInt8(ascii: "*") {
                depth += 1
                position += 2
            } else if current == UInt8(ascii: "*"), byte(at: position + 1) == UInt8(ascii: "/") {
                depth -= 1
                position += 2
                if depth == 0 { return }
            } else {
                if current == 0x0A || (current == 0x0D && byte(at: position + 1) != 0x0A) { newline() }
                position += 1
            }
        }
        report("unterminated /* comment", line: startLine)
    }

    // MARK: - Names and numbers

    private mutating func scanIdentifier() {
        let start = position
        position += 1
        while position < bytes.count, Self.isIdentifierPart(bytes[position]) {
            position += 1
        }
        add(.identifier, text(start, position), from: start, line: line, startsLine: atLineStart)
    }

    /// `` `default` ``: an identifier that may be spelled like a keyword.
    private mutating func scanEscapedIdentifier() {
        let start = position
        var end = position + 1
        while end < bytes.count, Self.isIdentifierPart(bytes[end]) {
            end += 1
        }
        if end > start + 1, byte(at: end) == UInt8(ascii: "`") {
            position = end + 1
            add(.identifier, text(start + 1, end), from: start, line: line, startsLine: atLineStart, escaped: true)
        } else {
            position += 1
            add(.punctuation, "`", from: start, line: line, startsLine: atLineStart)
        }
    }

    private mutating func scanNumber() {
        let start = position
        let isHex = byte(at: position + 1) == UInt8(ascii: "x") && bytes[position] == UInt8(ascii: "0")
        position += 1
        while position < bytes.count {
            let current = bytes[position]
            if Self.isIdentifierPart(current) && current < 0x80 {
                position += 1
            } else if current == UInt8(ascii: "."), let next = byte(at: position + 1),
                next >= UInt8(ascii: "0") && next <= UInt8(ascii: "9")
            {
                position += 1
            } else if current == UInt8(ascii: "+") || current == UInt8(ascii: "-"),
                let previous = byte(at: position - 1),
                isHex
                    ? (previous == UInt8(ascii: "p") || previous == UInt8(ascii: "P"))
                    : (previous == UInt8(ascii: "e") || previous == UInt8(ascii: "E"))
            {
                position += 1
            } else {
                break
            }
        }
        add(.number, text(start, position), from: start, line: line, startsLine: atLineStart)
    }

    /// `@name`, or a lone `@`.
    private mutating func scanAttribute() {
        let start = position
        position += 1
        guard let next = byte(at: position), Self.isIdentifierStart(next) else {
            add(.punctuation, "@", from: start, line: line, startsLine: atLineStart)
            return
        }
        while position < bytes.count, Self.isIdentifierPart(bytes[position]) {
            position += 1
        }
        add(.attribute, text(start + 1, position), from: start, line: line, startsLine: atLineStart)
    }

    /// A raw string (`#"…"#`), a directive (`#if`), another `#name`, or a lone `#`.
    private mutating func scanPound() {
        let start = position
        var end = position
        while byte(at: end) == UInt8(ascii: "#") { end += 1 }
        if byte(at: end) == UInt8(ascii: "\"") {
            scanString()
            return
        }
        if byte(at: end) == UInt8(ascii: "/") {
            scanRegex(hashes: end - start)
            return
        }
        position += 1
        guard let next = byte(at: position), Self.isIdentifierStart(next) else {
            add(.punctuation, "#", from: start, line: line, startsLine: atLineStart)
            return
        }
        while position < bytes.count, Self.isIdentifierPart(bytes[position]) {
            position += 1
        }
        let word = text(start + 1, position)
        let kind: SwiftToken.Kind = ["if", "elseif", "else", "endif"].contains(word) ? .directive : .pound
        add(kind, word, from: start, line: line, startsLine: atLineStart)
    }

    /// An extended regular expression literal `#/…/#`, which may hold any
    /// characters, braces and quotes included; kept as an opaque string token.
    private mutating func scanRegex(hashes: Int) {
        let start = position
        let startLine = line
        let startsLine = atLineStart
        position += hashes + 1
        while position < bytes.count {
            if bytes[position] == UInt8(ascii: "/"), (0..<hashes).allSatisfy({ byte(at: position + 1 + $0) == UInt8(ascii: "#") })
            {
                position += 1 + hashes
                add(.string, "", from: start, line: startLine, startsLine: startsLine, escaped: true)
                return
            }
            if bytes[position] == 0x0A || (bytes[position] == 0x0D && byte(at: position + 1) != 0x0A) { line += 1 }
            position += 1
        }
        report("unterminated regular expression literal", line: startLine)
        add(.string, "", from: start, line: startLine, startsLine: startsLine, escaped: true)
    }

    func text(_ start: Int, _ end: Int) -> String {
        let lower = min(max(0, start), bytes.count)
        return String(decoding: bytes[lower..<min(max(lower, end), bytes.count)], as: UTF8.self)
    }
}
