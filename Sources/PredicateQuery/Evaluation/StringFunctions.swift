// The string operations of pq, implemented once: the in-memory evaluator calls
// them directly, and the SQLite store registers them on its connection as
// `pq_fold`, `pq_hasprefix`, `pq_hassuffix`, `pq_like` and `pq_matches`. So
// `[c]` and `[d]` fold identically in both, and Unicode-aware rather than ASCII-only.
//
// All tests work on Unicode scalars (equivalently, on UTF-8 bytes), like SQLite's
// BINARY collation: `e` followed by U+0301 is two scalars and contains "e".

import Foundation

public enum StringFunctions {
    /// Folds a string for `[c]` (case) and `[d]` (diacritics):
    /// - `[c]` maps to upper case and back to lower case, which folds `ß` to `ss`,
    ///   `ς` to `σ` and `ﬁ` to `fi` (full case folding, locale-independent);
    /// - either modifier then decomposes canonically (NFD), so `é` and `e` + U+0301 agree;
    /// - `[d]` then drops the combining marks (general category Mn).
    public static func fold(_ text: String, _ options: StringOptions) -> String {
        guard !options.isEmpty else { return text }
        var folded = text
        if options.contains(.caseInsensitive) { folded = folded.uppercased().lowercased() }
        folded = folded.decomposedStringWithCanonicalMapping
        if options.contains(.diacriticInsensitive) {
            var scalars = String.UnicodeScalarView()
            scalars.append(contentsOf: folded.unicodeScalars.filter { $0.properties.generalCategory != .nonspacingMark })
            folded = String(scalars)
        }
        return folded
    }

    /// Whether `needle` occurs in `haystack`; the empty string occurs in every string.
    public static func contains(_ haystack: String, _ needle: String) -> Bool {
        let bytes = Array(haystack.utf8)
        let pattern = Array(needle.utf8)
        guard !pattern.isEmpty else { return true }
        guard pattern.count <= bytes.count else { return false }
        for start in 0...(bytes.count - pattern.count) where bytes[start] == pattern[0] {
            if bytes[start..<(start + pattern.count)].elementsEqual(pattern) { return true }
        }
        return false
    }

    public static func hasPrefix(_ text: String, _ prefix: String) -> Bool {
        text.utf8.starts(with: prefix.utf8)
    }

    public static func hasSuffix(_ text: String, _ suffix: String) -> Bool {
        text.utf8.reversed().starts(with: suffix.utf8.reversed())
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
    /// makes the next character literal; the whole string must match.
    public static func like(_ text: String, _ pattern: String, _ options: StringOptions) -> Bool {
        let subject = Array(fold(text, options).unicodeScalars)
        let tokens = likeTokens(fold(pattern, options))
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

    private enum LikeToken {
        /// One character: a given one, or any (nil) for `?`.
        case one(Unicode.Scalar?)
        /// `*`.
        case any
    }

    private static func likeTokens(_ pattern: String) -> [LikeToken] {
        var tokens: [LikeToken] = []
        var escaped = false
        for scalar in pattern.unicodeScalars {
            if escaped {
                tokens.append(.one(scalar))
                escaped = false
            } else if scalar == "\\" {
                escaped = true
            } else if scalar == "*" {
                tokens.append(.any)
            } else if scalar == "?" {
                tokens.append(.one(nil))
            } else {
                tokens.append(.one(scalar))
            }
        }
        if escaped { tokens.append(.one("\\")) }
        return tokens
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
    /// case-insensitive; `[d]` strips diacritics from the string before matching.
    /// Throws if the pattern is invalid or backtracks past `regexWorkLimit`.
    public static func matches(_ text: String, _ pattern: String, _ options: StringOptions) throws(RegexError) -> Bool {
        let regex = try RegexCache.shared.regex(pattern, caseInsensitive: options.contains(.caseInsensitive))
        let subject = options.contains(.diacriticInsensitive) ? fold(text, .diacriticInsensitive) : text
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
    private var cache: [String: NSRegularExpression] = [:]
    private static let capacity = 256

    func regex(_ pattern: String, caseInsensitive: Bool) throws(StringFunctions.RegexError) -> NSRegularExpression {
        let key = (caseInsensitive ? "i:" : "s:") + pattern
        lock.lock()
        let cached = cache[key]
        lock.unlock()
        if let cached { return cached }
        // The pattern must be valid on its own before it is anchored, or `a)|(b`
        // would become valid (and mean something else) inside \A(?:…)\z.
        guard (try? NSRegularExpression(pattern: pattern)) != nil,
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
