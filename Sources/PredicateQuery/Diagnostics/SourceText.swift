// Line and column arithmetic over a query's text.
//
// Spans are byte offsets; people read lines and columns. `SourceText` converts one
// to the other, only when a diagnostic is rendered. Columns count characters
// (extended grapheme clusters), not bytes, so `é` is one column wherever it sits.
// `locations(of:)` resolves all the offsets of a rendering in one pass over the
// text, so many diagnostics on one megabyte-long line cost one reading, not one each.

/// A 1-based line and column, as shown to people.
public struct SourcePosition: Hashable, Sendable, Codable {
    /// The line, from 1.
    public var line: Int
    /// The column, from 1, in characters.
    public var column: Int
}

/// The text of an input, indexed by line for location lookups.
public struct SourceText: Sendable {
    /// The input's UTF-8 bytes.
    public let bytes: [UInt8]
    /// Byte offset at which each line starts; the first entry is 0.
    private let lineStarts: [Int]

    /// The text, indexed for turning offsets into lines and columns.
    public init(_ text: String) {
        bytes = Array(text.utf8)
        var starts = [0]
        for (offset, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
            starts.append(offset + 1)
        }
        lineStarts = starts
    }

    /// The 0-based index of the line holding `offset`.
    func lineIndex(of offset: Int) -> Int {
        let offset = min(max(0, offset), bytes.count)
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if lineStarts[mid] <= offset { low = mid } else { high = mid - 1 }
        }
        return low
    }

    /// Byte range of a line, without its line terminator.
    func lineRange(at index: Int) -> Range<Int> {
        let start = lineStarts[index]
        var end = index + 1 < lineStarts.count ? lineStarts[index + 1] - 1 : bytes.count
        if end > start, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        return start..<max(start, end)
    }

    /// The text between two byte offsets, decoded leniently.
    /// `range` shrunk so that it neither starts nor ends inside a UTF-8 sequence.
    func scalarAligned(_ range: Range<Int>) -> Range<Int> {
        func isContinuation(_ offset: Int) -> Bool { offset < bytes.count && bytes[offset] & 0xC0 == 0x80 }
        var lower = min(max(0, range.lowerBound), bytes.count)
        var upper = min(max(lower, range.upperBound), bytes.count)
        while lower < upper, isContinuation(lower) { lower += 1 }
        while upper > lower, isContinuation(upper) { upper -= 1 }
        return lower..<upper
    }

    func text(_ range: Range<Int>) -> String {
        let lower = min(max(0, range.lowerBound), bytes.count)
        let upper = min(max(lower, range.upperBound), bytes.count)
        return String(decoding: bytes[lower..<upper], as: UTF8.self)
    }

    /// The line and column of each offset, in one pass over the text up to the last
    /// of them: time linear in the text, whatever the number of offsets.
    public func locations(of offsets: some Sequence<Int>) -> [Int: SourcePosition] {
        let wanted = Set(offsets.map { min(max(0, $0), bytes.count) }).sorted()
        var result: [Int: SourcePosition] = [:]
        var next = 0
        var lineIndex = -1
        var lineStart = 0
        var column = 0
        var offset = 0
        var characters: String.Iterator?
        while next < wanted.count {
            let target = wanted[next]
            let targetLine = self.lineIndex(of: target)
            if targetLine != lineIndex {
                lineIndex = targetLine
                lineStart = lineStarts[targetLine]
                let lineEnd = targetLine + 1 < lineStarts.count ? lineStarts[targetLine + 1] : bytes.count
                characters = text(lineStart..<lineEnd).makeIterator()
                column = 0
                offset = lineStart
            }
            // Characters that start before the target, as `location(of:)` counts them.
            while offset < target, let character = characters?.next() {
                column += 1
                offset += character.utf8.count
            }
            result[target] = SourcePosition(line: targetLine + 1, column: column + 1)
            next += 1
        }
        return result
    }

    /// The line and column of a byte offset (a pass over its line; to resolve many
    /// offsets, use `locations(of:)`).
    public func location(of offset: Int) -> SourcePosition {
        let index = lineIndex(of: offset)
        let lineStart = lineStarts[index]
        let prefix = text(lineStart..<min(max(offset, lineStart), bytes.count))
        return SourcePosition(line: index + 1, column: prefix.count + 1)
    }
}
