// How deep SQLite's parser must go to read a statement, measured as the renderer
// writes the statement's tree.
//
// SQLite parses with an LALR parser whose stack holds 100 entries (YYSTACKDEPTH);
// a statement that needs more fails to prepare with "parser stack overflow". Every
// open parenthesis keeps the symbols before it on that stack: `a + (` three, `x IN
// (1, y IN (` about six, `EXISTS (SELECT 1 FROM t WHERE` about seven. pq's own
// nesting limit (128 levels) allows queries whose SQL goes past that, so lowering
// measures its SQL and rejects what SQLite could not read, with a diagnostic,
// instead of letting the store fail at run time.
//
// The measure is an output of `SQLRenderer` (`SQLOutput`): the renderer walks the
// tree and tells it what each node writes, and it keeps, for each open
// parenthesis, what the parenthesis costs: 1, plus the symbols pending before it
// at its level (words, quoted identifiers, commas and closed groups, at most 5),
// plus 2 where that level is a SELECT's. The deepest sum of open parentheses is the
// estimate. It is deliberately on the high side: tests compare it against SQLite on
// deep queries of every construct, and whatever it accepts must prepare.
//
// A parenthesis costs at most 8, so a statement with at most 11 of them (most
// statements) fits whatever its shape: lowering counts them as it renders the text
// (`SQLText.openingParentheses`) and walks the tree into this measure only above that.

struct SQLParserDepth: SQLOutput {
    /// SQLite's parser stack, less room for the statement's own frame.
    static let budget = 90

    /// The most pending symbols of a level a parenthesis opened in it counts.
    private static let mostPendingSymbols = 5
    /// What a parenthesis opened at a SELECT's level costs besides.
    private static let selectLevelCost = 2

    /// The most stack entries one parenthesis can cost (8): a statement with at most
    /// `budget / mostEntriesPerParenthesis` opening parentheses fits unmeasured.
    static let mostEntriesPerParenthesis = 1 + mostPendingSymbols + selectLevelCost

    /// Whether a statement with this many opening parentheses fits whatever its shape.
    static func fitsUnmeasured(openingParentheses: Int) -> Bool {
        openingParentheses * mostEntriesPerParenthesis <= budget
    }

    /// One open parenthesis: what it costs, and the symbols pending inside it.
    private struct Level {
        var cost: Int
        var pending = 0
        var hasSelect = false
    }

    /// What was appended, kept where this output is a part the renderer appends to
    /// another (which then counts it where it stands).
    private enum Piece {
        case text(String)
        case identifier(String)
        case slot(SQLText.Slot)
    }

    private var levels = [Level(cost: 0)]
    private var total = 0
    /// The most stack entries the statement needs at once.
    private(set) var deepest = 0
    /// The length of the word being written, and whether it is so far "SELECT" (in any case).
    private var wordLength = 0
    private var wordIsSelect = true
    private var pieces: [Piece] = []
    private let keepsPieces: Bool
    private(set) var markedByteCount = 0

    /// A part of a statement, to be appended to another measure.
    init() { self.init(keepingPieces: true) }

    /// The measure of a whole statement.
    static func ofStatement() -> SQLParserDepth { SQLParserDepth(keepingPieces: false) }

    private init(keepingPieces: Bool) { keepsPieces = keepingPieces }

    mutating func reserveCapacity(_ count: Int) {}

    static func += (measure: inout SQLParserDepth, text: String) {
        if measure.keepsPieces { measure.pieces.append(.text(text)) }
        measure.markedByteCount += text.utf8.count
        for byte in text.utf8 { measure.read(byte) }
    }

    static func += (measure: inout SQLParserDepth, other: SQLParserDepth) {
        for piece in other.pieces {
            switch piece {
            case .text(let text): measure += text
            case .identifier(let quoted): measure.appendQuotedIdentifier(quoted)
            case .slot(let slot): measure.append(slot)
            }
        }
    }

    mutating func appendIdentifier(_ name: String, quotedBy dialect: any SQLDialect) {
        appendQuotedIdentifier(dialect.quote(name))
    }

    /// A quoted identifier is one symbol, whatever it holds.
    private mutating func appendQuotedIdentifier(_ quoted: String) {
        if keepsPieces { pieces.append(.identifier(quoted)) }
        markedByteCount += quoted.utf8.count
        endWord()
        levels[levels.count - 1].pending += 1
    }

    /// A slot reads as its marker (`?2[]`, `=?1=`), one word.
    mutating func append(_ slot: SQLText.Slot) {
        if keepsPieces { pieces.append(.slot(slot)) }
        let marker = slot.marker
        markedByteCount += marker.utf8.count
        for byte in marker.utf8 { read(byte) }
    }

    /// One byte of pq's own text: parentheses open and close levels; spaces and
    /// commas end words, and a comma is a symbol of its own.
    private mutating func read(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "("):
            endWord()
            let enclosing = levels[levels.count - 1]
            let cost = 1 + min(enclosing.pending, Self.mostPendingSymbols) + (enclosing.hasSelect ? Self.selectLevelCost : 0)
            total += cost
            deepest = max(deepest, total)
            levels.append(Level(cost: cost))
        case UInt8(ascii: ")"):
            endWord()
            if levels.count > 1 {
                total -= levels.removeLast().cost
                // The closed group is one operand of its enclosing level.
                levels[levels.count - 1].pending += 1
            }
        case UInt8(ascii: " "), UInt8(ascii: ","):
            endWord()
            if byte == UInt8(ascii: ",") { levels[levels.count - 1].pending += 1 }
        default:
            let select = Self.select
            wordIsSelect = wordIsSelect && wordLength < select.count && byte & 0xDF == select[wordLength]
            wordLength += 1
        }
    }

    private static let select = Array("SELECT".utf8)

    /// Ends the word being written, if any: one symbol, and SELECT marks its level.
    private mutating func endWord() {
        guard wordLength > 0 else { return }
        if wordIsSelect, wordLength == Self.select.count { levels[levels.count - 1].hasSelect = true }
        levels[levels.count - 1].pending += 1
        wordLength = 0
        wordIsSelect = true
    }
}
