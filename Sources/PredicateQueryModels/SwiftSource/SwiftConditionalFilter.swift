// Conditional compilation for the model reader: `#if`, `#elseif`, `#else`,
// `#endif`.
//
// pq cannot know which conditions hold where the models are compiled, so it reads
// the first branch of every `#if` and drops the directives, their conditions and
// the other branches from the token stream. Each group whose other branches were
// dropped is remembered, so the reader can warn about it where it matters.

import PredicateQuery

/// Keeps the first branch of every `#if` group.
enum SwiftConditionalFilter {
    /// A `#elseif`/`#else` branch whose tokens were dropped.
    struct SkippedBranch: Sendable {
        /// The line of the first dropped `#elseif` or `#else`.
        var line: Int
        /// The line of its `#if`.
        var ifLine: Int
        /// `elseif` or `else`.
        var directive: String
    }

    private struct Group {
        var ifLine: Int
        /// The tokens around the group are kept.
        var outerKept: Bool
        /// Still in the first branch.
        var inFirstBranch: Bool
    }

    /// The tokens of the first branches, the groups with dropped branches, and problems.
    static func filter(
        _ tokens: [SwiftToken]
    ) -> (
        tokens: [SwiftToken], skipped: [SkippedBranch], problems: [SwiftSourceScanner.Problem]
    ) {
        var kept: [SwiftToken] = []
        kept.reserveCapacity(tokens.count)
        var skipped: [SkippedBranch] = []
        var problems: [SwiftSourceScanner.Problem] = []
        var groups: [Group] = []
        var keeping = true
        var index = 0
        while index < tokens.count {
            let token = tokens[index]
            index += 1
            guard token.kind == .directive else {
                if keeping { kept.append(token) }
                continue
            }
            switch token.text {
            case "if":
                groups.append(Group(ifLine: token.line, outerKept: keeping, inFirstBranch: true))
                index = endOfCondition(tokens, from: index)
            case "elseif", "else":
                guard let group = groups.last else {
                    problems.append(.init(line: token.line, message: "#\(token.text) without #if; ignored"))
                    if token.text == "elseif" { index = endOfCondition(tokens, from: index) }
                    continue
                }
                if group.inFirstBranch && group.outerKept {
                    skipped.append(SkippedBranch(line: token.line, ifLine: group.ifLine, directive: token.text))
                }
                groups[groups.count - 1].inFirstBranch = false
                if token.text == "elseif" { index = endOfCondition(tokens, from: index) }
            default:
                if groups.popLast() == nil {
                    problems.append(.init(line: token.line, message: "#endif without #if; ignored"))
                }
            }
            keeping = groups.last.map { $0.outerKept && $0.inFirstBranch } ?? true
        }
        for group in groups.reversed() {
            problems.append(.init(line: group.ifLine, message: "#if without #endif"))
        }
        return (kept, skipped, problems)
    }

    /// The index after a directive's condition: the rest of its line, and further
    /// lines while parentheses are open.
    private static func endOfCondition(_ tokens: [SwiftToken], from start: Int) -> Int {
        var index = start
        var depth = 0
        while index < tokens.count {
            let token = tokens[index]
            if token.kind == .directive || (token.startsLine && depth <= 0) { break }
            if token.isPunctuation("(") { depth += 1 }
            if token.isPunctuation(")") { depth -= 1 }
            index += 1
        }
        return index
    }
}
