// The statement's text and its parser depth from one walk of the SQL tree: the
// renderer tells both outputs every piece in the same order, so each is exactly
// what rendering into it alone gives. One walk of the tree instead of two.

/// `SQLText` and `SQLParserDepth` written together.
struct SQLTextAndDepth: SQLOutput {
    var text: SQLText
    var depth: SQLParserDepth

    /// A part of a statement (see `SQLOutput.init()`).
    init() {
        text = SQLText()
        depth = SQLParserDepth()
    }

    /// A whole statement: its text, and the measure of a statement.
    static func ofStatement() -> SQLTextAndDepth {
        var output = SQLTextAndDepth()
        output.depth = .ofStatement()
        return output
    }

    mutating func reserveCapacity(_ count: Int) { text.reserveCapacity(count) }

    static func += (output: inout SQLTextAndDepth, text: String) {
        output.text += text
        output.depth += text
    }

    static func += (output: inout SQLTextAndDepth, other: SQLTextAndDepth) {
        output.text += other.text
        output.depth += other.depth
    }

    mutating func appendIdentifier(_ quoted: String) {
        text.appendIdentifier(quoted)
        depth.appendIdentifier(quoted)
    }

    mutating func append(_ slot: SQLText.Slot) {
        text.append(slot)
        depth.append(slot)
    }

    var markedByteCount: Int { text.markedByteCount }
}
