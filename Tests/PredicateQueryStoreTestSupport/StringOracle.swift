// The cases of the string oracle, shared by the store tests that hold pq's string
// tests to Foundation's string API: `StringOracleTests` (SQLite and the evaluator)
// and `PostgresStringOracleTests` (PostgreSQL). Rows of hard strings, each with a
// right-hand side per operator; what Foundation answers for each; and the
// documented reasons pq may answer otherwise, each with a check that it is the
// reason (see StringOracleTests.swift).

import Foundation
import PredicateQuery
import PredicateQueryTestSupport

/// The string oracle's rows, operators, modifiers and documented differences.
public enum StringOracle {
    /// Rows per seed; each is tested by 6 operators × 4 modifiers.
    public static let rowsPerSeed = 450
    /// The modifiers every operator is tested with: none, `[c]`, `[d]`, `[cd]`.
    public static let modifiers: [StringOptions] = [
        [], .caseInsensitive, .diacriticInsensitive, [.caseInsensitive, .diacriticInsensitive],
    ]

    /// The string tests held to the oracle.
    public enum Operator: String, CaseIterable {
        case equal = "==", contains, beginsWith = "beginswith", endsWith = "endswith", like, matches

        /// The column of `Pair` holding the right-hand side for this operator.
        public var column: String {
            switch self {
            case .equal: "other"
            case .contains, .beginsWith, .endsWith: "needle"
            case .like: "pattern"
            case .matches: "regex"
            }
        }
    }

    /// One case: a text and, for each operator, its right-hand side.
    public struct Row {
        /// The text tested (the left-hand side).
        public var text: String
        /// The right-hand side of `==`.
        public var other: String
        /// The right-hand side of `contains`, `beginswith` and `endswith`.
        public var needle: String
        /// The right-hand side of `like`.
        public var pattern: String
        /// The right-hand side of `matches`.
        public var regex: String

        /// A row of the given sides.
        public init(text: String, other: String, needle: String, pattern: String, regex: String) {
            self.text = text
            self.other = other
            self.needle = needle
            self.pattern = pattern
            self.regex = regex
        }
    }

    /// One entity, `Pair`, with a String attribute per side.
    public static let schema = Schema(entities: [
        Entity(
            "Pair",
            attributes: ["text", "other", "needle", "pattern", "regex"].map { Attribute($0, .string) })
    ])

    /// What Foundation answers for one case, and why pq may answer otherwise.
    public static func oracle(_ op: Operator, _ modifiers: StringOptions, _ row: Row) -> Bool {
        typealias F = FoundationStringOracle
        switch op {
        case .equal: return F.equal(row.text, row.other, modifiers)
        case .contains: return F.find(row.text, row.needle, modifiers, [])
        case .beginsWith: return F.find(row.text, row.needle, modifiers, [.anchored])
        case .endsWith: return F.find(row.text, row.needle, modifiers, [.anchored, .backwards])
        case .like: return F.like(row.text, row.pattern, modifiers)
        case .matches: return F.matches(row.text, row.regex, modifiers)
        }
    }

    /// The documented reasons pq may answer otherwise than Foundation, each with a
    /// check that it is the reason: the oracle, asked about inputs changed the way
    /// the reason says, must then give pq's answer.
    public enum Difference: String, CaseIterable {
        /// An empty string (or, under `[d]`, one of combining marks only) occurs in
        /// every string for pq, as in Swift's `"abc".contains("")`; Foundation finds it nowhere.
        case emptyNeedle = "the empty needle occurs everywhere"
        /// pq's `[d]` removes every nonspacing mark; Foundation's folding keeps one
        /// that has no base character before it.
        case loneMark = "[d] removes a combining mark with no base"
        /// Foundation's comparison and its own folding disagree (`ᾳ` against `ΑΙ`
        /// under `[c]`); pq follows the folding.
        case compareAgainstFolding = "Foundation's compare disagrees with its folding"
        /// In `like[d]`, `?` may take a combining mark that `[d]` folds away, so a
        /// pattern that matches without `[d]` matches with it.
        case wildcardTakesMark = "like[d] keeps the match without [d] (? takes a mark)"
        /// Foundation's anchored backwards search (`.anchored, .backwards`) with a
        /// case folding that expands (`ß`, `ẞ`, `ﬁ` → two letters) can report a suffix
        /// that is not one; its own folding, compared from the end, agrees with pq.
        case backwardsExpansion = "Foundation's backwards search with an expanding fold"
        /// Foundation's anchored search (`.anchored`) with a case folding that expands
        /// can report a prefix that is not one (`Sςß` begins with `ß` under `[c]`, as
        /// if `Sς` were `ss`); its own folding, compared from the start, agrees with pq.
        case anchoredExpansion = "Foundation's anchored search with an expanding fold"
        /// Foundation's search with a case folding that expands can report a match
        /// that is not one (`ssØé` contains `sß` under `[c]`, though `sß` folds to
        /// `sss`); its own folding, searched, agrees with pq.
        case searchExpansion = "Foundation's search with an expanding fold"
    }

    /// The documented reason pq answers `pq` where Foundation does not, if one explains it.
    public static func explanation(_ op: Operator, _ modifiers: StringOptions, _ row: Row, pq: Bool) -> Difference? {
        let rightSide: String
        switch op {
        case .equal: rightSide = row.other
        case .contains, .beginsWith, .endsWith: rightSide = row.needle
        case .like: rightSide = row.pattern
        case .matches: rightSide = row.regex
        }
        let diacritics = modifiers.contains(.diacriticInsensitive)
        if pq, [.contains, .beginsWith, .endsWith].contains(op) {
            let folded = rightSide.folding(options: FoundationStringOracle.options(modifiers), locale: nil)
            if (diacritics ? FoundationStringOracle.withoutMarks(folded) : folded).isEmpty { return .emptyNeedle }
        }
        if diacritics {
            var stripped = row
            stripped.text = FoundationStringOracle.withoutMarks(row.text)
            if op != .matches {
                stripped.other = FoundationStringOracle.withoutMarks(row.other)
                stripped.needle = FoundationStringOracle.withoutMarks(row.needle)
                stripped.pattern = FoundationStringOracle.withoutMarks(row.pattern)
            }
            if oracle(op, modifiers, stripped) == pq { return .loneMark }
        }
        if pq, op == .like, diacritics, oracle(op, modifiers.subtracting(.diacriticInsensitive), row) {
            return .wildcardTakesMark
        }
        if op == .endsWith, !modifiers.isEmpty,
            FoundationStringOracle.foldedSuffix(row.text, row.needle, modifiers) == pq
        {
            return .backwardsExpansion
        }
        if op == .beginsWith, !pq, modifiers.contains(.caseInsensitive),
            FoundationStringOracle.hasExpandingFold(row.text + row.needle),
            !FoundationStringOracle.foldedPrefix(row.text, row.needle, modifiers)
        {
            return .anchoredExpansion
        }
        if op == .contains, !pq, modifiers.contains(.caseInsensitive),
            FoundationStringOracle.hasExpandingFold(row.text + row.needle),
            !FoundationStringOracle.foldedContains(row.text, row.needle, modifiers)
        {
            return .searchExpansion
        }
        if op == .equal, FoundationStringOracle.foldedEqual(row.text, row.other, modifiers) == pq {
            return .compareAgainstFolding
        }
        return nil
    }

    /// The rows of one seed: a text and, for each operator, its right-hand side.
    public static func rows(seed: UInt64) -> [Row] {
        var hard = HardStrings(random: SplitMix64(seed: seed))
        return (0..<Self.rowsPerSeed).map { _ in
            let text = hard.string()
            return Row(
                text: text, other: hard.chance(70) ? hard.disguise(text) : hard.string(),
                needle: hard.needle(in: text), pattern: hard.likePattern(for: text), regex: hard.regex(for: text))
        }
    }

    /// A row for a failure message, with every scalar outside ASCII escaped.
    public static func describe(_ row: Row) -> String {
        func show(_ text: String) -> String {
            "'"
                + text.unicodeScalars.map {
                    $0.value < 0x80 && $0.value >= 0x20 ? String($0) : "\\u{\(String($0.value, radix: 16))}"
                }.joined() + "'"
        }
        return
            "text \(show(row.text)) other \(show(row.other)) needle \(show(row.needle)) pattern \(show(row.pattern)) regex \(show(row.regex))"
    }
}
