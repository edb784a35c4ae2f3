// The parser-depth estimate as pq made it before it measured the SQL tree: read
// from the rendered SQL text. Kept here as the oracle the tree's measure
// (`SQLParserDepth`) is held to, so that the same queries are accepted and refused.

/// The estimate of SQLite's parser depth, read from SQL text.
enum SQLTextDepthOracle {
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
