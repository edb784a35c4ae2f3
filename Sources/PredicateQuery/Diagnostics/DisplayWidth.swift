// How many terminal cells a piece of text occupies.
//
// Used to line carets up under the right character and, later, to align table
// columns. Follows the usual wcwidth rules: combining marks take no cell, East Asian
// wide and fullwidth characters and emoji take two, everything else one.

extension Character {
    /// The number of terminal cells this character occupies.
    public var displayWidth: Int {
        guard let first = unicodeScalars.first else { return 0 }
        if first.properties.generalCategory == .nonspacingMark
            || first.properties.generalCategory == .enclosingMark
        {
            return 0
        }
        if first.value < 0x20 || (0x7F..<0xA0).contains(first.value) { return 0 }
        if unicodeScalars.contains(where: { $0.properties.isEmojiPresentation })
            || unicodeScalars.contains(where: { $0.value == 0xFE0F })
        {
            return 2
        }
        return Self.isWide(first.value) ? 2 : 1
    }

    private static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF,
            0x4E00...0x9FFF, 0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF,
            0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F,
            0x1F900...0x1F9FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return true
        default:
            return false
        }
    }
}

extension StringProtocol {
    /// The number of terminal cells this text occupies on one line. Printable
    /// ASCII, most text in most stores, takes one cell a byte, counted without
    /// breaking the text into characters.
    public var displayWidth: Int {
        if isPrintableASCII { return utf8.count }
        return reduce(0) { $0 + $1.displayWidth }
    }

    /// Whether every character is printable ASCII (space to `~`): one byte, one
    /// character, one cell each.
    public var isPrintableASCII: Bool {
        let bytes = utf8
        if let answer = bytes.withContiguousStorageIfAvailable({ buffer in
            !buffer.contains(where: { $0 < 0x20 || $0 > 0x7E })
        }) {
            return answer
        }
        return !bytes.contains(where: { $0 < 0x20 || $0 > 0x7E })
    }
}
