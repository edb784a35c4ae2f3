// The position of a piece of the user's input.
//
// Every stage of the pipeline points back at the text it came from with a span of
// UTF-8 byte offsets. Lines and columns are computed only when a diagnostic is
// rendered (see `SourceText`), so spans stay cheap to make and to compare.

/// A half-open range of UTF-8 byte offsets into the query text.
public struct SourceSpan: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Offset of the first byte.
    public var start: Int
    /// Offset one past the last byte.
    public var end: Int

    /// Creates a span; `end` is clamped so it is never before `start`.
    public init(start: Int, end: Int) {
        self.start = start
        self.end = max(start, end)
    }

    /// An empty span at `offset`, used for "expected …" diagnostics at the end of input.
    public static func point(_ offset: Int) -> SourceSpan {
        SourceSpan(start: offset, end: offset)
    }

    /// The span for values made in code rather than parsed from text.
    public static let synthesized = SourceSpan(start: 0, end: 0)

    /// Number of bytes covered.
    public var length: Int { end - start }

    /// The smallest span covering both.
    public func merged(with other: SourceSpan) -> SourceSpan {
        SourceSpan(start: min(start, other.start), end: max(end, other.end))
    }

    public var description: String { "\(start)..<\(end)" }
}
