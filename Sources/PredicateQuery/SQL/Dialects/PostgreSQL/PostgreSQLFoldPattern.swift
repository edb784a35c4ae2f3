// A folded needle as a PostgreSQL regular expression (ARE) over the stored text,
// with the scalars the modifier folds to nothing already removed from it.
//
// Each folded needle scalar `x` becomes a bracket of every scalar whose fold is
// exactly `x`; where a run of needle scalars is the fold of one scalar (`ss` of
// `ß`, `ffi` of `ﬃ`, a syllable's jamo under `[d]`), that scalar is an alternative
// for the whole run. So every part of the expression takes whole scalars of the
// text, and the text's scalars whose folds concatenate to the needle are exactly
// the matches pq's folded test finds (it requires a match to begin and end where
// the text's scalars do). `?` is one scalar (none folds to nothing any more) and
// `*` any run.

/// Builds ARE patterns for one modifier.
struct PostgreSQLFoldPattern {
    enum Token: Hashable {
        /// One folded scalar.
        case scalar(UInt32)
        /// `?`: one scalar of the text.
        case one
        /// `*`: any run of scalars.
        case any
    }

    let inverse: FoldInverse

    init(_ options: StringOptions) { inverse = FoldInverse.of(options) }

    /// A pattern that matches nothing (PostgreSQL's text never holds U+0000).
    static let nothing = "[\\u0000]"

    /// The longest needle or pattern, in folded scalars, a pattern is made for.
    static let maxTokens = 1_000

    /// The expression for `tokens`, anchored as asked. Built from the end, each part
    /// holding the parts after it (an expanding fold starts a branch of its own), so
    /// the first part is the whole expression and the longest.
    func expression(_ tokens: [Token], anchoredAtStart: Bool, anchoredAtEnd: Bool) throws(PostgreSQLPatternError) -> String {
        guard tokens.count <= Self.maxTokens else {
            throw PostgreSQLPatternError(
                message:
                    "the needle is longer than \(Self.maxTokens) characters, folded; PostgreSQL's [c]/[d] tests take shorter ones"
            )
        }
        // The expressions for tokens[index...] still needed (nil: nothing can match them).
        var parts: [Int: String?] = [tokens.count: anchoredAtEnd ? "$" : ""]
        for index in stride(from: tokens.count - 1, through: 0, by: -1) {
            let built: String?
            switch tokens[index] {
            case .any: built = (parts[index + 1] ?? nil).map { ".*" + $0 }
            case .one: built = (parts[index + 1] ?? nil).map { "." + $0 }
            case .scalar(let x):
                var branches: [String] = []
                let members = inverse.scalars(foldingTo: x)
                if !members.isEmpty, let tail = parts[index + 1] ?? nil { branches.append(Self.bracket(members) + tail) }
                for (fold, scalars) in inverse.expansions[x] ?? [] where covers(fold, tokens, at: index) {
                    if let tail = parts[index + fold.count] ?? nil { branches.append(Self.bracket(scalars) + tail) }
                }
                switch branches.count {
                case 0: built = nil
                case 1: built = branches[0]
                default: built = "(?:" + branches.joined(separator: "|") + ")"
                }
            }
            if let built, built.utf8.count > PostgreSQLPattern.maxLength {
                throw PostgreSQLPatternError(
                    message:
                        "the folded pattern PostgreSQL would need is longer than \(PostgreSQLPattern.maxLength) characters (folds that expand, such as 'ss' for 'ß', each add alternatives)"
                )
            }
            parts[index] = .some(built)
            // No fold is longer than `longestFold`: parts further on are no longer needed.
            parts[index + inverse.longestFold + 1] = nil
        }
        guard let body = parts[0] ?? nil else { return Self.nothing }
        return (anchoredAtStart ? "^" : "") + body
    }

    /// Whether the tokens at `index` are the scalars of `fold`.
    private func covers(_ fold: [UInt32], _ tokens: [Token], at index: Int) -> Bool {
        guard index + fold.count <= tokens.count else { return false }
        for (offset, scalar) in fold.enumerated() where tokens[index + offset] != .scalar(scalar) { return false }
        return true
    }

    /// One scalar as an ARE literal: ASCII letters and digits as they are, anything
    /// else as a `\u`/`\U` escape, so no character can mean something to ARE.
    static func literal(_ value: UInt32) -> String {
        switch value {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return String(UnicodeScalar(UInt8(value)))
        case ...0xFFFF: return "\\u" + hex(value, digits: 4)
        default: return "\\U" + hex(value, digits: 8)
        }
    }

    /// A bracket of the scalars (in order), runs written as ranges; one scalar as a literal.
    static func bracket(_ values: [UInt32]) -> String {
        bracket(ranges(values), negated: false)
    }

    /// A bracket of ranges (`[a-z…]`, or `[^…]` when negated).
    static func bracket(_ ranges: [ClosedRange<UInt32>], negated: Bool) -> String {
        if !negated, ranges.count == 1, let only = ranges.first, only.lowerBound == only.upperBound {
            return literal(only.lowerBound)
        }
        var out = negated ? "[^" : "["
        for range in ranges {
            out += literal(range.lowerBound)
            if range.upperBound > range.lowerBound {
                if range.upperBound > range.lowerBound + 1 { out += "-" }
                out += literal(range.upperBound)
            }
        }
        return out + "]"
    }

    /// Sorted values as runs of consecutive values.
    static func ranges(_ values: [UInt32]) -> [ClosedRange<UInt32>] {
        var ranges: [ClosedRange<UInt32>] = []
        for value in values.sorted() {
            if let last = ranges.last, value <= last.upperBound + 1 {
                if value > last.upperBound { ranges[ranges.count - 1] = last.lowerBound...value }
            } else {
                ranges.append(value...value)
            }
        }
        return ranges
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
