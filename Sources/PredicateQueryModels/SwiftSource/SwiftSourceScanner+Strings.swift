// String literals for the scanner: `"…"`, multi-line `"""…"""`, raw `#"…"#`
// with any number of `#`, escapes, and interpolations `\( … )` that may hold
// string literals of their own, to any depth.
//
// An explicit stack of open literals and interpolations keeps this a single
// forward pass without recursion, so hostile input cannot exhaust the stack. A
// single-line literal ends at the end of its line, closed or not, which bounds
// the damage an unbalanced quote can do. The token's text is the literal's value
// when it has no interpolation: raw values and `originalName:` need it.

import PredicateQuery

extension SwiftSourceScanner {
    private enum Frame {
        case string(hashes: Int, multiline: Bool)
        case interpolation(depth: Int)
    }

    private static let quote = UInt8(ascii: "\"")
    private static let backslash = UInt8(ascii: "\\")
    private static let pound = UInt8(ascii: "#")

    /// Scans a string literal starting at `position`, at its `#`s or its opening quote.
    mutating func scanString() {
        let start = position
        let startLine = line
        let startsLine = atLineStart
        let opening = openString()
        var frames: [Frame] = [.string(hashes: opening.hashes, multiline: opening.multiline)]
        var openSingleLine = opening.multiline ? 0 : 1
        var value: [UInt8] = []
        var interpolated = false
        var names: [String] = []
        var unterminated = false
        scanning: while position < bytes.count, let frame = frames.last {
            let current = bytes[position]
            switch frame {
            case .string(let hashes, let multiline):
                if current == Self.quote, let length = closingLength(hashes: hashes, multiline: multiline) {
                    position += length
                    frames.removeLast()
                    if !multiline { openSingleLine -= 1 }
                } else if current == Self.backslash, escapeFollows(hashes: hashes) {
                    position += 1 + hashes
                    if byte(at: position) == UInt8(ascii: "(") {
                        position += 1
                        frames.append(.interpolation(depth: 0))
                        if frames.count == 2 { interpolated = true }
                    } else {
                        let decoded = scanEscape(multiline: multiline)
                        if frames.count == 1 { value += decoded }
                    }
                } else if current == 0x0A || current == 0x0D {
                    if openSingleLine > 0 {
                        unterminated = true
                        break scanning
                    }
                    consumeLineBreak()
                    if frames.count == 1 { value.append(0x0A) }
                } else {
                    if frames.count == 1 { value.append(current) }
                    position += 1
                }
            case .interpolation(let depth):
                if current == UInt8(ascii: "(") {
                    frames[frames.count - 1] = .interpolation(depth: depth + 1)
                    position += 1
                } else if current == UInt8(ascii: ")") {
                    frames[frames.count - 1] = .interpolation(depth: depth - 1)
                    if depth == 0 { frames.removeLast() }
                    position += 1
                } else if current == Self.quote || (current == Self.pound && rawStringFollows()) {
                    let nested = openString()
                    frames.append(.string(hashes: nested.hashes, multiline: nested.multiline))
                    if !nested.multiline { openSingleLine += 1 }
                } else if current == 0x0A || current == 0x0D {
                    if openSingleLine > 0 {
                        unterminated = true
                        break scanning
                    }
                    consumeLineBreak()
                } else if Self.isIdentifierPart(current) {
                    scanInterpolatedName(into: &names)
                } else {
                    position += 1
                }
            }
        }
        if unterminated || !frames.isEmpty {
            report("unterminated string literal", line: startLine)
        }
        var text = String(decoding: value, as: UTF8.self)
        if opening.multiline { text = Self.multilineValue(text) }
        add(
            .string, interpolated ? "" : text, from: start, line: startLine, startsLine: startsLine, escaped: interpolated,
            names: names)
    }

    /// Reads a name (or a number) inside an interpolation, keeping names that refer
    /// to something in scope: not `other.name` (but `self.name`), not a label `name:`.
    private mutating func scanInterpolatedName(into names: inout [String]) {
        let start = position
        while position < bytes.count, Self.isIdentifierPart(bytes[position]) { position += 1 }
        guard Self.isIdentifierStart(bytes[start]) else { return }
        let before = lastNonSpace(before: start)
        if before.byte == UInt8(ascii: ".") {
            let owner = before.offset - 4
            guard owner >= 0, text(owner, before.offset) == "self",
                !(byte(at: owner - 1).map(Self.isIdentifierPart) ?? false)
            else { return }
        }
        var after = position
        while byte(at: after) == 0x20 || byte(at: after) == 0x09 { after += 1 }
        if byte(at: after) == UInt8(ascii: ":"), before.byte == UInt8(ascii: "(") || before.byte == UInt8(ascii: ",") {
            return
        }
        names.append(text(start, position))
    }

    private func lastNonSpace(before offset: Int) -> (byte: UInt8?, offset: Int) {
        var index = offset - 1
        while let current = byte(at: index), current == 0x20 || current == 0x09 { index -= 1 }
        return (byte(at: index), index)
    }

    /// Reads an opening delimiter at `position`: `#`s, then `"` or `"""`.
    private mutating func openString() -> (hashes: Int, multiline: Bool) {
        var hashes = 0
        while byte(at: position) == Self.pound {
            hashes += 1
            position += 1
        }
        if byte(at: position + 1) == Self.quote, byte(at: position + 2) == Self.quote {
            position += 3
            return (hashes, true)
        }
        position += 1
        return (hashes, false)
    }

    /// `#`s followed by a quote, at `position`.
    private func rawStringFollows() -> Bool {
        var offset = position
        while byte(at: offset) == Self.pound { offset += 1 }
        return byte(at: offset) == Self.quote
    }

    /// The length of the closing delimiter at `position`, if there is one.
    private func closingLength(hashes: Int, multiline: Bool) -> Int? {
        let quotes = multiline ? 3 : 1
        for offset in 0..<quotes where byte(at: position + offset) != Self.quote { return nil }
        for offset in 0..<hashes where byte(at: position + quotes + offset) != Self.pound { return nil }
        return quotes + hashes
    }

    /// A backslash at `position` followed by the literal's number of `#`s: an escape.
    private func escapeFollows(hashes: Int) -> Bool {
        for offset in 0..<hashes where byte(at: position + 1 + offset) != Self.pound { return false }
        return true
    }

    private mutating func consumeLineBreak() {
        if byte(at: position) == 0x0D, byte(at: position + 1) == 0x0A { position += 1 }
        position += 1
        line += 1
    }

    /// Reads the escape after `\`: its UTF-8 bytes.
    private mutating func scanEscape(multiline: Bool) -> [UInt8] {
        guard let current = byte(at: position) else { return [] }
        switch current {
        case UInt8(ascii: "n"):
            position += 1
            return [0x0A]
        case UInt8(ascii: "t"):
            position += 1
            return [0x09]
        case UInt8(ascii: "r"):
            position += 1
            return [0x0D]
        case UInt8(ascii: "0"):
            position += 1
            return [0]
        case UInt8(ascii: "u") where byte(at: position + 1) == UInt8(ascii: "{"):
            var end = position + 2
            var scalar: UInt32 = 0
            while let digit = byte(at: end), let number = Self.hexValue(digit), end < position + 10 {
                scalar = scalar &* 16 &+ number
                end += 1
            }
            guard byte(at: end) == UInt8(ascii: "}") else {
                position += 1
                return [UInt8(ascii: "u")]
            }
            position = end + 1
            return Array(String(Unicode.Scalar(scalar).map(Character.init) ?? "\u{FFFD}").utf8)
        case 0x0A, 0x0D:
            // A line continuation in a multi-line literal; in a single-line one,
            // the end of the line ends the literal.
            if multiline { consumeLineBreak() }
            return []
        default:
            position += 1
            return [current]
        }
    }

    private static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// The value of a multi-line literal from the text between its delimiters: the
    /// opening line dropped, and the closing line's indentation removed from every line.
    static func multilineValue(_ text: String) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count > 1 else { return text }
        lines.removeFirst()
        var indentation = Substring("")
        if let last = lines.last, last.allSatisfy({ $0 == " " || $0 == "\t" }) {
            indentation = last
            lines.removeLast()
        }
        return lines.map { $0.hasPrefix(indentation) ? $0.dropFirst(indentation.count) : $0 }.joined(separator: "\n")
    }
}
