// What the renderer writes a statement into.
//
// The renderer walks the SQL tree into an output: `SQLText` for the statement to
// run, or `SQLParserDepth` to measure how deep SQLite's parser must go to read it
// (lowering asks for the measure only when the text has more than a few
// parentheses). Each output is told what every node writes, piece by piece, so
// the depth is the depth of exactly the SQL that runs, without the SQL being read
// back.

/// An output of `SQLRenderer`.
protocol SQLOutput {
    /// An empty output, for a part the renderer writes more than once (`doubleArithmetic`).
    init()
    /// Makes room for about `count` bytes of text.
    mutating func reserveCapacity(_ count: Int)
    /// Appends pq's own text: keywords, punctuation, aliases, numbers, placeholders and
    /// the dialect's spellings; never a quoted identifier (`appendIdentifier`).
    static func += (output: inout Self, text: String)
    /// Appends another output, written by the renderer for a part of this one.
    static func += (output: inout Self, other: Self)
    /// Appends the identifier `name` as `dialect` quotes it.
    mutating func appendIdentifier(_ name: String, quotedBy dialect: any SQLDialect)
    /// Appends a slot, which the parameters' values fill in when the query runs.
    mutating func append(_ slot: SQLText.Slot)
    /// The length in bytes of the output as text, each slot as its marker.
    var markedByteCount: Int { get }
}
