// Number, duration and string literals.
//
// Numbers follow Swift: `1_000`, `0x1F`, `0o17`, `0b101`, `3.5`, `1e3`. A number
// directly followed by one of the units s, m, h, d, w is a duration (`7d`). Strings
// take single or double quotes and Swift's escapes, `\u{…}` included; a `\u{…}`
// that is not a Unicode scalar value (a surrogate, say) is an error, so every
// decoded string is valid Unicode.

extension Lexer {
    private static func isDigit(_ byte: UInt8?, radix: Int) -> Bool {
        guard let byte else { return false }
        switch radix {
        case 2: return byte == UInt8(ascii: "0") || byte == UInt8(ascii: "1")
        case 8: return (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(byte)
        case 16:
            return (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
        default: return (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
    }

    private static func digitValue(_ byte: UInt8) -> UInt64 {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt64(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt64(byte - UInt8(ascii: "A") + 10)
        default: UInt64(byte - UInt8(ascii: "0"))
        }
    }

    /// Consumes digits of `radix` and underscores; returns the digits without underscores.
    private mutating func consumeDigits(radix: Int) -> [UInt8] {
        var digits: [UInt8] = []
        while let byte = peek(), Self.isDigit(byte, radix: radix) || byte == UInt8(ascii: "_") {
            if byte != UInt8(ascii: "_") { digits.append(byte) }
            position += 1
        }
        return digits
    }

    mutating func lexNumber() -> Token? {
        let start = position
        if peek() == UInt8(ascii: "0"), let marker = peek(1),
            let radix = [UInt8(ascii: "x"): 16, UInt8(ascii: "o"): 8, UInt8(ascii: "b"): 2][marker]
        {
            position += 2
            guard Self.isDigit(peek(), radix: radix) else {
                return invalidNumber(from: start, "expected a digit after '0\(Character(Unicode.Scalar(marker)))'")
            }
            return integerToken(consumeDigits(radix: radix), radix: radix, from: start)
        }
        let integerDigits = consumeDigits(radix: 10)
        var isDecimal = false
        var text = String(decoding: integerDigits, as: UTF8.self)
        if peek() == UInt8(ascii: "."), Self.isDigit(peek(1), radix: 10) {
            position += 1
            text += "." + String(decoding: consumeDigits(radix: 10), as: UTF8.self)
            isDecimal = true
        }
        if let e = peek(), e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            let signLength = (peek(1) == UInt8(ascii: "+") || peek(1) == UInt8(ascii: "-")) ? 1 : 0
            if Self.isDigit(peek(1 + signLength), radix: 10) {
                let sign = signLength == 1 ? String(Character(Unicode.Scalar(bytes[position + 1]))) : ""
                position += 1 + signLength
                text += "e" + sign + String(decoding: consumeDigits(radix: 10), as: UTF8.self)
                isDecimal = true
            }
        }
        if let unit = durationUnit() {
            position += 1
            guard let value = Double(text), value.isFinite else {
                return invalidNumber(from: start, "duration is out of range")
            }
            return Token(
                kind: .duration, span: SourceSpan(start: start, end: position),
                value: .duration(value, unit))
        }
        if let (next, _) = scalar(at: position), Lexer.isNameContinue(next) {
            return invalidNumber(
                from: start, "'\(next.escaped(asASCII: true))' is not a valid digit in a number literal")
        }
        guard isDecimal else { return integerToken(integerDigits, radix: 10, from: start) }
        guard let value = Double(text), value.isFinite else {
            report(
                .error(
                    .numberOutOfRange, "decimal literal is too large to be represented",
                    at: SourceSpan(start: start, end: position)))
            return nil
        }
        return Token(kind: .decimal, span: SourceSpan(start: start, end: position), value: .decimal(value))
    }

    /// A unit letter right after a number and not followed by more of a name.
    private func durationUnit() -> Character? {
        guard let byte = peek(), "smhdw".utf8.contains(byte) else { return nil }
        if let (next, _) = scalar(at: position + 1), Lexer.isNameContinue(next) { return nil }
        return Character(Unicode.Scalar(byte))
    }

    private mutating func integerToken(_ digits: [UInt8], radix: Int, from start: Int) -> Token? {
        if let (next, _) = scalar(at: position), Lexer.isNameContinue(next) {
            return invalidNumber(
                from: start, "'\(next.escaped(asASCII: true))' is not a valid digit in a number literal")
        }
        var value: UInt64 = 0
        for digit in digits {
            let (shifted, overflow1) = value.multipliedReportingOverflow(by: UInt64(radix))
            let (sum, overflow2) = shifted.addingReportingOverflow(Self.digitValue(digit))
            if overflow1 || overflow2 {
                report(
                    .error(
                        .integerOverflow, "integer literal overflows a 64-bit integer",
                        at: SourceSpan(start: start, end: position)))
                return nil
            }
            value = sum
        }
        return Token(kind: .integer, span: SourceSpan(start: start, end: position), value: .integer(value))
    }

    /// Reports a malformed number and skips the rest of the word it is part of.
    private mutating func invalidNumber(from start: Int, _ message: String) -> Token? {
        while let (next, length) = scalar(at: position), Lexer.isNameContinue(next) {
            position += length
        }
        report(.error(.invalidNumber, message, at: SourceSpan(start: start, end: position)))
        return nil
    }

    // MARK: - Strings

    mutating func lexString() -> Token? {
        let start = position
        let quote = bytes[position]
        position += 1
        var decoded: [UInt8] = []
        var valid = true
        while position < bytes.count, bytes[position] != quote {
            if bytes[position] == UInt8(ascii: "\\") {
                if !lexEscape(into: &decoded) { valid = false }
            } else {
                // A run up to the next quote or backslash, appended at once.
                let run = position
                repeat { position += 1 } while position < bytes.count && bytes[position] != quote
                    && bytes[position] != UInt8(ascii: "\\")
                decoded.append(contentsOf: bytes[run..<position])
            }
        }
        guard position < bytes.count else {
            report(
                .error(
                    .unterminatedString, "unterminated string literal",
                    at: SourceSpan(start: start, end: start + 1)))
            return nil
        }
        position += 1
        guard valid else { return nil }
        return Token(
            kind: .string, span: SourceSpan(start: start, end: position),
            value: .string(String(decoding: decoded, as: UTF8.self)))
    }

    /// Decodes one escape sequence starting at a backslash into `decoded`; false
    /// (after reporting) if it is invalid.
    private mutating func lexEscape(into decoded: inout [UInt8]) -> Bool {
        let start = position
        position += 1
        guard let byte = peek() else { return false }
        position += 1
        switch byte {
        case UInt8(ascii: "\\"), UInt8(ascii: "'"), UInt8(ascii: "\""): decoded.append(byte)
        case UInt8(ascii: "n"): decoded.append(0x0A)
        case UInt8(ascii: "r"): decoded.append(0x0D)
        case UInt8(ascii: "t"): decoded.append(0x09)
        case UInt8(ascii: "0"): decoded.append(0x00)
        case UInt8(ascii: "u"):
            guard let scalar = lexUnicodeEscape(from: start) else { return false }
            Unicode.UTF8.encode(scalar) { decoded.append($0) }
        default:
            position = start + 1 + (start + 1 < bytes.count ? Lexer.scalarLength(at: start + 1, in: bytes) : 0)
            let shown = String(decoding: bytes[(start + 1)..<position], as: UTF8.self)
            report(
                .error(
                    .invalidEscape, "invalid escape sequence '\\\(shown)' in string literal",
                    at: SourceSpan(start: start, end: position),
                    notes: [DiagnosticNote("valid escapes are \\\\ \\' \\\" \\n \\r \\t \\0 and \\u{…}")]))
            return false
        }
        return true
    }

    /// The scalar of a `\u{…}` escape; nil (after reporting) if it is invalid.
    private mutating func lexUnicodeEscape(from start: Int) -> Unicode.Scalar? {
        guard peek() == UInt8(ascii: "{") else {
            report(
                .error(
                    .invalidEscape, "expected '{' after '\\u'; write \\u{1F600}",
                    at: SourceSpan(start: start, end: position)))
            return nil
        }
        position += 1
        var value: UInt32 = 0
        var count = 0
        while Self.isDigit(peek(), radix: 16), count < 9 {
            value = value &* 16 &+ UInt32(Self.digitValue(bytes[position]))
            count += 1
            position += 1
        }
        guard peek() == UInt8(ascii: "}"), (1...8).contains(count) else {
            while let byte = peek(), byte != UInt8(ascii: "}"), byte != UInt8(ascii: "'"),
                byte != UInt8(ascii: "\"")
            {
                position += 1
            }
            if peek() == UInt8(ascii: "}") { position += 1 }
            report(
                .error(
                    .invalidEscape, "\\u{…} takes one to eight hexadecimal digits",
                    at: SourceSpan(start: start, end: position)))
            return nil
        }
        position += 1
        guard let scalar = Unicode.Scalar(value) else {
            report(
                .error(
                    .invalidUnicodeScalar,
                    "'\(String(decoding: bytes[start..<position], as: UTF8.self))' is not a valid Unicode scalar",
                    at: SourceSpan(start: start, end: position),
                    notes: [
                        DiagnosticNote(
                            "surrogate code points (U+D800 to U+DFFF) and values above U+10FFFF cannot appear in strings")
                    ]))
            return nil
        }
        return scalar
    }
}
