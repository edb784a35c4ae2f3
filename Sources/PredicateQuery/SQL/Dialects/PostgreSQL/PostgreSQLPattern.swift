// The patterns PostgreSQL's string tests match with, made in Swift from a needle
// known before the query runs (a literal, or a parameter's value when it is bound),
// and bound as a value like any other: never pasted into the SQL.
//
// - Plain `like` becomes a LIKE pattern (`*` → `%`, `?` → `_`, `%`, `_` and the
//   backslash escaped): both count single scalars, so the two agree exactly.
// - `matches` becomes the same regular expression in PostgreSQL's ARE flavour
//   (`ICURegexTranslation`), for the constructs whose meaning is the same in both.
// - `[c]`/`[d]` tests become an ARE over the stored text with the marks the modifier
//   folds away removed: each needle scalar a bracket of every scalar that folds to
//   it, alternatives for scalars that fold to several (`ß` for `ss`), `?` one scalar
//   and `*` any run (`PostgreSQLFoldPattern`). Each part of the expression takes whole
//   scalars of the text, so a match begins and ends on the text's own scalars, as
//   pq's folded tests require.
//
// Also pq's own constants the folded SQL binds: the class of scalars folded to
// nothing, the JSON map of folds a folded value is computed with (`foldMap`), and
// the class of characters whose composition PostgreSQL's Unicode tables may not
// know (`unsettledCompositionClass`).

import Foundation

/// How a pattern for PostgreSQL is made from the needle bound at another index.
package struct PostgreSQLPattern: Sendable, Hashable {
    /// What the pattern tests: where the needle occurs, a `like` pattern, or a regular expression.
    public enum Kind: Sendable, Hashable {
        /// The needle occurs (`contains`), at the start, at the end, or is the whole text (`==`).
        case contains, prefix, suffix, whole
        /// A `like` pattern.
        case like
        /// A `matches` regular expression.
        case regex
    }

    /// What the pattern tests.
    public var kind: Kind
    /// `[c]`, `[d]` or `[cd]`: the folding the pattern's text gets.
    public var options: StringOptions
    /// Whether the needle is composed (NFC) first: the form tested against the
    /// composed text, for pq's rule that canonically equivalent spellings match.
    public var composed: Bool

    /// Patterns longer than this are refused: PostgreSQL compiles every pattern, and
    /// the alternatives for folds that expand (`ss` is also `ß`) grow with each one.
    public static let maxLength = 200_000

    /// The pattern for `needle`; throws when PostgreSQL cannot match it with pq's meaning.
    public func make(_ needle: String) throws(PostgreSQLPatternError) -> String {
        switch kind {
        case .regex:
            return try ICURegexTranslation.translate(needle)
        case .like where options.isEmpty:
            return Self.likePattern(needle)
        case .like:
            let text = composed ? StringFolding.composed(needle) : needle
            let tokens: [PostgreSQLFoldPattern.Token] = StringFunctions.likeTokens(text, folding: options).map { token in
                switch token {
                case .one(let scalar?): .scalar(scalar.value)
                case .one(nil): .one
                case .any: .any
                }
            }
            return try PostgreSQLFoldPattern(options).expression(tokens, anchoredAtStart: true, anchoredAtEnd: true)
        case .contains, .prefix, .suffix, .whole:
            let text = composed || kind == .whole ? StringFolding.composed(needle) : needle
            let tokens = StringFolding.fold(text, options).unicodeScalars.map { PostgreSQLFoldPattern.Token.scalar($0.value) }
            return try PostgreSQLFoldPattern(options).expression(
                tokens, anchoredAtStart: kind == .prefix || kind == .whole, anchoredAtEnd: kind == .suffix || kind == .whole)
        }
    }

    /// pq's `like` pattern in LIKE's spelling, with the backslash as LIKE's escape: read by
    /// the evaluator's own scanner (`StringFunctions.likeTokens`), so both read `*`, `?` and
    /// the backslash alike.
    static func likePattern(_ pattern: String) -> String {
        var out = ""
        for token in StringFunctions.likeTokens(pattern) {
            switch token {
            case .any: out += "%"
            case .one(nil): out += "_"
            case .one(let scalar?):
                if scalar == "%" || scalar == "_" || scalar == "\\" { out += "\\" }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// The ARE class of the scalars whose composition (NFC) PostgreSQL's Unicode
    /// tables may not know: those assigned after Unicode 13 (PostgreSQL 13, the first
    /// with `normalize`, has 13.0) that combine, decompose, or are part of a newer
    /// decomposition. A folded test refuses a text holding one rather than risk
    /// composing it otherwise than pq does.
    static let unsettledCompositionClass: String = {
        var values: Set<UInt32> = []
        for value in AssignableScalars.values where value >= 0x300 {
            guard let scalar = Unicode.Scalar(value), let age = scalar.properties.age, age.major > 13 else { continue }
            let decomposed = String(scalar).decomposedStringWithCanonicalMapping.unicodeScalars
            guard scalar.properties.canonicalCombiningClass.rawValue != 0 || !decomposed.elementsEqual([scalar])
            else { continue }
            values.insert(value)
            for piece in decomposed where (piece.properties.age?.major ?? 0) > 13 { values.insert(piece.value) }
        }
        return PostgreSQLFoldPattern.bracket(values.sorted())
    }()

    /// The start of the error a folded test raises for a text holding a character of
    /// `unsettledCompositionClass`; the text follows it.
    public static let unsettledCompositionMessage =
        "pq cannot answer a [c]/[d] test exactly on PostgreSQL for a text holding a character newer than Unicode 13, whose composition (NFC) PostgreSQL's Unicode tables may not know; the text: "

    /// The Hangul syllables: under `[d]` each folds to its jamo, its canonical
    /// decomposition, which PostgreSQL's `normalize(c, NFD)` gives, so the map
    /// leaves out these 11,172.
    static let hangulSyllables: ClosedRange<UInt32> = 0xAC00...0xD7A3

    /// Every scalar `options` folds to something else (but not to nothing), with its fold, as a JSON
    /// object (`{"É":"é","ß":"ss",…}`): what PostgreSQL folds a value by, scalar by scalar.
    static func foldMap(_ options: StringOptions) -> String {
        switch (options.contains(.caseInsensitive), options.contains(.diacriticInsensitive)) {
        case (true, true): foldMaps.both
        case (true, false): foldMaps.caseInsensitive
        default: foldMaps.diacriticInsensitive
        }
    }

    private static let foldMaps = (
        caseInsensitive: makeFoldMap(.caseInsensitive), diacriticInsensitive: makeFoldMap(.diacriticInsensitive),
        both: makeFoldMap([.caseInsensitive, .diacriticInsensitive])
    )

    private static func makeFoldMap(_ options: StringOptions) -> String {
        let inverse = FoldInverse.of(options)
        // By scalar value, not by String: Swift's String keys are equal for canonical
        // equivalents (U+038A and U+1FDB), whose folds differ.
        var map: [UInt32: [UInt32]] = [:]
        // The scalars that fold to nothing are removed from the text first, and
        // under [d] PostgreSQL decomposes Hangul syllables itself (`hangulSyllables`).
        let skipped = options.contains(.diacriticInsensitive) ? hangulSyllables : 0...0
        for (x, scalars) in inverse.singles {
            for scalar in scalars where !skipped.contains(scalar) { map[scalar] = [x] }
        }
        for groups in inverse.expansions.values {
            for (fold, scalars) in groups {
                for scalar in scalars where !skipped.contains(scalar) { map[scalar] = fold }
            }
        }
        let entries = map.keys.sorted().map { key in json([key]) + ":" + json(map[key] ?? []) }
        return "{" + entries.joined(separator: ",") + "}"
    }

    /// Scalars as a JSON string: quotes, backslashes and control characters escaped.
    private static func json(_ values: [UInt32]) -> String {
        var out = "\""
        for value in values {
            switch value {
            case 0x22: out += "\\\""
            case 0x5C: out += "\\\\"
            case ..<0x20: out += "\\u" + String(repeating: "0", count: value < 0x10 ? 3 : 2) + String(value, radix: 16)
            default: if let scalar = Unicode.Scalar(value) { out.unicodeScalars.append(scalar) }
            }
        }
        return out + "\""
    }

    /// The ARE class of the scalars `options` folds to nothing, removed from the text
    /// before a folded test; nil when there are none.
    static func emptyFoldClass(_ options: StringOptions) -> String? {
        FoldInverse.of(options).emptiesClass
    }
}

/// Why a needle cannot be matched on PostgreSQL with pq's meaning.
package struct PostgreSQLPatternError: Error, Sendable, CustomStringConvertible {
    /// Why the pattern cannot be made, in one sentence.
    public var message: String
    /// The construct that has no equal (`a word-character class '\w'`), for a
    /// regular expression; nil when the pattern as a whole is the problem.
    public var construct: String?
    public var description: String { message }
}
