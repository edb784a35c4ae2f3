// The string operations of pq, implemented once: the in-memory evaluator calls
// them directly (`test`), and the SQLite store registers them on its connection as
// `pq_fold` and, for each string operator, the function its row of `StringOperator`
// names (`pq_contains`, `pq_hasprefix`, …), which calls `test` too. So `[c]` and
// `[d]` fold identically in both, and Unicode-aware rather than ASCII-only.
//
// All tests work on Unicode scalars (equivalently, on UTF-8 bytes), like SQLite's
// BINARY collation: `e` followed by U+0301 is two scalars and contains "e".

import Foundation

package enum StringFunctions {
    /// `text op[options] other`: what each string operator means, for the evaluator
    /// and for the SQLite functions alike. Only `matches` throws, for a pattern that
    /// is not a regular expression or that backtracks too much.
    package static func test(
        _ op: StringOperator, _ text: String, _ other: String, _ options: StringOptions = []
    ) throws(RegexError) -> Bool {
        switch op {
        case .contains: contains(text, other, options)
        case .beginsWith: hasPrefix(text, other, options)
        case .endsWith: hasSuffix(text, other, options)
        case .like: like(text, other, options)
        case .matches: try matches(text, other, options)
        }
    }

    /// The key `[c]` and `[d]` compare and sort by: the text in composed form (NFC),
    /// then folded scalar by scalar (`StringFolding`): case by Unicode's full case
    /// folding (`ß` → `ss`, `É` → `é`), diacritics removed (`é` → `e`). So `==[c]`
    /// holds for `É` and `e` + U+0301, which compose to `É` and `é`. The text itself
    /// when there are no options.
    public static func fold(_ text: String, _ options: StringOptions) -> String {
        guard !options.isEmpty else { return text }
        return StringFolding.fold(StringFolding.composed(text), options)
    }

    /// Whether `needle` occurs in `haystack`; the empty string occurs in every string.
    /// With `[c]`/`[d]`, see `folded(_:_:_:_:)`.
    public static func contains(_ haystack: String, _ needle: String, _ options: StringOptions = []) -> Bool {
        guard options.isEmpty else {
            return folded(haystack, needle, options) { occurs($1, in: $0, anchoredAtStart: false, anchoredAtEnd: false) }
        }
        let bytes = Array(haystack.utf8)
        let pattern = Array(needle.utf8)
        guard !pattern.isEmpty else { return true }
        guard pattern.count <= bytes.count else { return false }
        for start in 0...(bytes.count - pattern.count) where bytes[start] == pattern[0] {
            if bytes[start..<(start + pattern.count)].elementsEqual(pattern) { return true }
        }
        return false
    }

    public static func hasPrefix(_ text: String, _ prefix: String, _ options: StringOptions = []) -> Bool {
        guard options.isEmpty else {
            return folded(text, prefix, options) { occurs($1, in: $0, anchoredAtStart: true, anchoredAtEnd: false) }
        }
        return text.utf8.starts(with: prefix.utf8)
    }

    public static func hasSuffix(_ text: String, _ suffix: String, _ options: StringOptions = []) -> Bool {
        guard options.isEmpty else {
            return folded(text, suffix, options) { occurs($1, in: $0, anchoredAtStart: false, anchoredAtEnd: true) }
        }
        return text.utf8.reversed().starts(with: suffix.utf8.reversed())
    }

    /// A test with `[c]`/`[d]`: the plain test on both strings folded scalar by
    /// scalar, a match covering whole scalars of the original (`StringFolding`); and,
    /// when composing them (NFC) changes either string, the same on the composed
    /// strings, so canonically equivalent spellings match as `==[c]` says they are equal
    /// (`café` with a precomposed `é` contains `e` + U+0301 under `[c]`). A match
    /// the plain test finds is never lost.
    private static func folded(
        _ text: String, _ other: String, _ options: StringOptions, _ test: (FoldedText, FoldedText) -> Bool
    ) -> Bool {
        eitherForm(text, other) { test(FoldedText($0, options), FoldedText($1, options)) }
    }

    /// The test on the strings as they are, or else on their composed forms when
    /// composing changes either.
    private static func eitherForm(_ text: String, _ other: String, _ test: (String, String) -> Bool) -> Bool {
        if test(text, other) { return true }
        let composedText = StringFolding.composed(text)
        let composedOther = StringFolding.composed(other)
        // Scalar by scalar: Swift's `==` on String would call these equal already.
        guard
            !composedText.unicodeScalars.elementsEqual(text.unicodeScalars)
                || !composedOther.unicodeScalars.elementsEqual(other.unicodeScalars)
        else { return false }
        return test(composedText, composedOther)
    }

    /// Whether the folded needle occurs in the folded haystack, beginning and ending
    /// on boundaries of the haystack's original scalars.
    private static func occurs(
        _ needle: FoldedText, in haystack: FoldedText, anchoredAtStart: Bool, anchoredAtEnd: Bool
    ) -> Bool {
        let pattern = needle.scalars
        let subject = haystack.scalars
        guard !pattern.isEmpty else { return true }
        guard pattern.count <= subject.count else { return false }
        let last = subject.count - pattern.count
        let starts = anchoredAtEnd ? last...last : 0...(anchoredAtStart ? 0 : last)
        for start in starts where haystack.isBoundary[start] && haystack.isBoundary[start + pattern.count] {
            if subject[start..<(start + pattern.count)].elementsEqual(pattern) { return true }
        }
        return false
    }

    /// The smallest string greater than every string that starts with `prefix`
    /// (in Unicode scalar order), or nil when there is none (an empty prefix, or one
    /// made only of U+10FFFF). Used as the upper bound of an indexable prefix range.
    public static func prefixSuccessor(_ prefix: String) -> String? {
        var scalars = Array(prefix.unicodeScalars)
        while let last = scalars.popLast() {
            var next = last.value + 1
            if (0xD800...0xDFFF).contains(next) { next = 0xE000 }
            if let scalar = Unicode.Scalar(next) {
                scalars.append(scalar)
                var view = String.UnicodeScalarView()
                view.append(contentsOf: scalars)
                return String(view)
            }
        }
        return nil
    }

    /// `like`: `*` matches any run of characters, `?` exactly one, and a backslash
    /// makes the next character literal; the whole string must match. With `[c]`/`[d]`
    /// the pattern's characters fold as the text's do, and `?` and `*` take whole
    /// characters of the original. A character `[d]` folds to nothing (a combining
    /// mark) is passed over, never taken by `?`; so that whatever matches without
    /// `[d]` matches with it, `like[d]` also holds where the pattern matches without it.
    public static func like(_ text: String, _ pattern: String, _ options: StringOptions) -> Bool {
        guard options.isEmpty else {
            let matched = eitherForm(text, pattern) { text, pattern in
                foldedLike(FoldedText(text, options), likeTokens(pattern, folding: options))
            }
            guard !matched, options.contains(.diacriticInsensitive) else { return matched }
            return like(text, pattern, options.subtracting(.diacriticInsensitive))
        }
        let subject = Array(text.unicodeScalars)
        let tokens = likeTokens(pattern)
        var s = 0
        var p = 0
        var starToken = -1
        var starSubject = 0
        while s < subject.count {
            if p < tokens.count, case .one(let scalar) = tokens[p], scalar == nil || scalar == subject[s] {
                s += 1
                p += 1
            } else if p < tokens.count, case .any = tokens[p] {
                starToken = p
                starSubject = s
                p += 1
            } else if starToken >= 0 {
                starSubject += 1
                s = starSubject
                p = starToken + 1
            } else {
                return false
            }
        }
        while p < tokens.count, case .any = tokens[p] { p += 1 }
        return p == tokens.count
    }

    enum LikeToken {
        /// One character: a given one, or any (nil) for `?`.
        case one(Unicode.Scalar?)
        /// `*`.
        case any
    }

    /// The tokens of a `like` pattern; with options, each literal character becomes
    /// the scalars it folds to (maybe none).
    static func likeTokens(_ pattern: String, folding options: StringOptions = []) -> [LikeToken] {
        var tokens: [LikeToken] = []
        var escaped = false
        let folds = !options.isEmpty
        func literal(_ scalar: Unicode.Scalar) {
            if !folds {
                tokens.append(.one(scalar))
            } else {
                tokens.append(contentsOf: StringFolding.fold(scalar, options).map { .one($0) })
            }
        }
        for scalar in pattern.unicodeScalars {
            if escaped {
                literal(scalar)
                escaped = false
            } else if scalar == "\\" {
                escaped = true
            } else if scalar == "*" {
                tokens.append(.any)
            } else if scalar == "?" {
                tokens.append(.one(nil))
            } else {
                literal(scalar)
            }
        }
        if escaped { literal("\\") }
        return tokens
    }

    /// `like` on folded text, as a set of positions reached after each token: a
    /// literal scalar advances by one; `?` takes one original character (the whole
    /// group of scalars it folds to); `*` any run of whole characters. `?`, `*` and
    /// the end of the text only start or stop on a boundary between original
    /// characters. Linear in the text for each token.
    private static func foldedLike(_ subject: FoldedText, _ tokens: [LikeToken]) -> Bool {
        let count = subject.scalars.count
        var current = [Bool](repeating: false, count: count + 1)
        current[0] = true
        for token in tokens {
            var next = [Bool](repeating: false, count: count + 1)
            var reached = false
            switch token {
            case .one(let scalar?):
                for position in 0..<count where current[position] && subject.scalars[position] == scalar {
                    next[position + 1] = true
                    reached = true
                }
            case .one(nil):
                for position in 0...count where current[position] && subject.groupEnd[position] >= 0 {
                    next[subject.groupEnd[position]] = true
                    reached = true
                }
            case .any:
                guard let first = (0...count).first(where: { current[$0] && subject.isBoundary[$0] }) else { return false }
                for position in first...count where subject.isBoundary[position] {
                    next[position] = true
                    reached = true
                }
            }
            guard reached else { return false }
            current = next
        }
        return current[count]
    }

    /// Why a `matches` pattern could not be used.
    public struct RegexError: Error, Sendable, CustomStringConvertible {
        public enum Reason: Sendable {
            /// ICU does not accept the pattern.
            case invalid
            /// Matching one value took more than `StringFunctions.regexWorkLimit`.
            case tooMuchBacktracking
        }
        public var pattern: String
        public var reason: Reason = .invalid

        public var description: String {
            switch reason {
            case .invalid: "'\(pattern)' is not a valid regular expression"
            case .tooMuchBacktracking:
                "the regular expression '\(pattern)' backtracks too much on a value and was stopped; "
                    + "avoid nested repetition such as (a+)+"
            }
        }
    }

    /// How much work one `matches` test may do, in ICU's progress reports (ICU reports
    /// every few thousand matching steps, roughly ten thousand times a second). A
    /// count rather than a clock, so the same test stops at the same point on every
    /// machine, in the evaluator and in SQLite alike. Linear patterns on megabyte
    /// strings use a few hundred; catastrophic backtracking reaches it in about 0.2 s,
    /// before ICU's own limit would silently report no match.
    public static let regexWorkLimit = 2_000

    /// Whether `pattern` is a regular expression `matches` accepts.
    public static func isValidRegex(_ pattern: String) -> Bool {
        (try? RegexCache.shared.regex(pattern, caseInsensitive: false)) != nil
    }

    /// `matches`: the whole string matches the ICU regular expression. `[c]` makes it
    /// case-insensitive, as ICU (and so NSPredicate's `MATCHES[c]`) does it; `[d]`
    /// matches the string as it is or with its diacritics removed (the pattern is
    /// not folded), so whatever matches without `[d]` matches with it.
    /// Throws if the pattern is invalid or backtracks past `regexWorkLimit`.
    public static func matches(_ text: String, _ pattern: String, _ options: StringOptions) throws(RegexError) -> Bool {
        let regex = try RegexCache.shared.regex(pattern, caseInsensitive: options.contains(.caseInsensitive))
        if try wholeMatch(regex, text, pattern) { return true }
        guard options.contains(.diacriticInsensitive) else { return false }
        let folded = fold(text, .diacriticInsensitive)
        guard !folded.unicodeScalars.elementsEqual(text.unicodeScalars) else { return false }
        return try wholeMatch(regex, folded, pattern)
    }

    /// Whether the anchored `regex` matches `subject`, within the work limit.
    private static func wholeMatch(
        _ regex: NSRegularExpression, _ subject: String, _ pattern: String
    ) throws(RegexError)
        -> Bool
    {
        let range = NSRange(subject.startIndex..<subject.endIndex, in: subject)
        var matched = false
        var reports = 0
        regex.enumerateMatches(in: subject, options: [.reportProgress], range: range) { result, flags, stop in
            if result != nil {
                matched = true
                stop.pointee = true
            } else if flags.contains(.progress) {
                reports += 1
                if reports >= regexWorkLimit { stop.pointee = true }
            }
        }
        if !matched, reports >= regexWorkLimit { throw RegexError(pattern: pattern, reason: .tooMuchBacktracking) }
        return matched
    }
}

/// Compiled regular expressions, by pattern and case option, shared across threads.
final class RegexCache: @unchecked Sendable {
    static let shared = RegexCache()
    private let lock = NSLock()
    /// By pattern scalar by scalar: `.*Ï.*` and `.*I\u{308}.*` are different patterns.
    private var cache: [ExactText: NSRegularExpression] = [:]
    private static let capacity = 256

    func regex(_ pattern: String, caseInsensitive: Bool) throws(StringFunctions.RegexError) -> NSRegularExpression {
        let key = ExactText((caseInsensitive ? "i:" : "s:") + pattern)
        lock.lock()
        let cached = cache[key]
        lock.unlock()
        if let cached { return cached }
        // The pattern must be valid on its own before it is anchored, or `a)|(b`
        // would become valid (and mean something else) inside \A(?:…)\z.
        // ICU accepts the empty pattern (it matches only the empty string), but
        // NSRegularExpression refuses it; `(?:)` is the same pattern, spelled so it accepts.
        guard (try? NSRegularExpression(pattern: pattern.isEmpty ? "(?:)" : pattern)) != nil,
            let anchored = try? NSRegularExpression(
                pattern: "\\A(?:" + pattern + ")\\z", options: caseInsensitive ? [.caseInsensitive] : [])
        else { throw StringFunctions.RegexError(pattern: pattern) }
        lock.lock()
        if cache.count >= Self.capacity { cache.removeAll() }
        cache[key] = anchored
        lock.unlock()
        return anchored
    }
}
