// How deep SQLite's parser must go to read a statement, estimated from its text.
//
// SQLite parses with an LALR parser whose stack holds 100 entries (YYSTACKDEPTH);
// a statement that needs more fails to prepare with "parser stack overflow". Every
// open parenthesis keeps the symbols before it on that stack: `a + (` three, `x IN
// (1, y IN (` about six, `EXISTS (SELECT 1 FROM t WHERE` about seven. pq's own
// nesting limit (128 levels) allows queries whose SQL goes past that, so lowering
// measures its SQL and rejects what SQLite could not read, with a diagnostic,
// instead of letting the store fail at run time.
//
// The estimate is deliberately on the high side. Tests compare it against SQLite
// on deep queries of every construct: whatever it accepts must prepare.

enum SQLParserDepth {
    /// SQLite's parser stack, less room for the statement's own frame.
    static let budget = 90

    /// Whether `sql` surely fits the budget without estimating: each open parenthesis
    /// costs at most 8 entries (1, 5 pending symbols, 2 for a SELECT), so SQL with at
    /// most `budget / 8` of them cannot go past it. Counting them is a fraction of
    /// the estimate's cost, which most queries then skip.
    static func surelyFits(_ sql: String) -> Bool {
        var opens = 0
        for byte in sql.utf8 where byte == UInt8(ascii: "(") {
            opens += 1
            if opens * 8 > budget { return false }
        }
        return true
    }

    /// The estimated number of parser stack entries `sql` needs at its deepest point.
    static func estimate(_ sql: String) -> Int {
        /// One open parenthesis: what it costs, and the symbols pending inside it.
        struct Level {
            var cost: Int
            var pending = 0
            var hasSelect = false
        }
        let quote = UInt8(ascii: "\"")
        var levels = [Level(cost: 0)]
        var total = 0
        var deepest = 0
        var text = sql
        return text.withUTF8 { bytes in
            var index = 0
            var wordStart: Int?
            /// Ends the word running up to `end`, if any: one symbol, and SELECT marks its level.
            func endWord(at end: Int) {
                guard let start = wordStart else { return }
                wordStart = nil
                if end - start == 6, zip(bytes[start..<end], "SELECT".utf8).allSatisfy({ $0 & 0xDF == $1 }) {
                    levels[levels.count - 1].hasSelect = true
                }
                levels[levels.count - 1].pending += 1
            }
            while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case quote:
                    // A quoted identifier is one symbol; "" inside it is an escaped quote.
                    endWord(at: index)
                    index += 1
                    while index < bytes.count {
                        if bytes[index] == quote {
                            if index + 1 < bytes.count, bytes[index + 1] == quote {
                                index += 2
                                continue
                            }
                            break
                        }
                        index += 1
                    }
                    levels[levels.count - 1].pending += 1
                case UInt8(ascii: "("):
                    endWord(at: index)
                    let enclosing = levels[levels.count - 1]
                    let cost = 1 + min(enclosing.pending, 5) + (enclosing.hasSelect ? 2 : 0)
                    total += cost
                    deepest = max(deepest, total)
                    levels.append(Level(cost: cost))
                case UInt8(ascii: ")"):
                    endWord(at: index)
                    if levels.count > 1 {
                        total -= levels.removeLast().cost
                        // The closed group is one operand of its enclosing level.
                        levels[levels.count - 1].pending += 1
                    }
                case UInt8(ascii: " "), UInt8(ascii: ","):
                    endWord(at: index)
                    if byte == UInt8(ascii: ",") { levels[levels.count - 1].pending += 1 }
                default:
                    if wordStart == nil { wordStart = index }
                }
                index += 1
            }
            return deepest
        }
    }
}
