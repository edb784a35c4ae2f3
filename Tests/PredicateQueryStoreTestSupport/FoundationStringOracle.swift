// The answer Foundation gives for each of pq's string tests, computed with
// Foundation's own string API and nothing of pq's: `range(of:options:)` with
// `.caseInsensitive`, `.diacriticInsensitive`, `.anchored`, `.backwards` and
// `.literal`; `compare(_:options:)`; `NSRegularExpression`. This is the API
// NSPredicate's `CONTAINS[cd]`, `BEGINSWITH[c]`, `LIKE` and `MATCHES` are built on.
//
// pq's tests compare Unicode scalars, as SQLite does, which is Foundation's
// `.literal` search; with a modifier they also match the composed (NFC) forms.
// So the oracle asks Foundation the literal question, and, where that differs from
// what NSPredicate's default (non-literal, canonical-equivalence) search answers,
// `StringOracleTests` counts it under the difference Documentation/Language.md documents.

import Foundation
import PredicateQuery

/// What Foundation's string API answers for each of pq's string tests.
public enum FoundationStringOracle {
    /// Foundation's compare options for pq's modifiers (`[c]`, `[d]`).
    public static func options(_ options: StringOptions) -> String.CompareOptions {
        var result: String.CompareOptions = []
        if options.contains(.caseInsensitive) { result.insert(.caseInsensitive) }
        if options.contains(.diacriticInsensitive) { result.insert(.diacriticInsensitive) }
        return result
    }

    /// The string as it is, and composed when that differs (scalar by scalar).
    public static func forms(_ text: String, _ other: String) -> [(String, String)] {
        let composedText = text.precomposedStringWithCanonicalMapping
        let composedOther = other.precomposedStringWithCanonicalMapping
        let same =
            composedText.unicodeScalars.elementsEqual(text.unicodeScalars)
            && composedOther.unicodeScalars.elementsEqual(other.unicodeScalars)
        return same ? [(text, other)] : [(text, other), (composedText, composedOther)]
    }

    /// `==`: `.literal` comparison without a modifier; with one, Foundation's
    /// case- and diacritic-insensitive comparison (which sees canonical equivalents as equal).
    public static func equal(_ text: String, _ other: String, _ modifiers: StringOptions) -> Bool {
        if modifiers.isEmpty { return text.compare(other, options: .literal) == .orderedSame }
        return text.compare(other, options: options(modifiers)) == .orderedSame
    }

    /// `contains`, `beginswith`, `endswith` as `.literal` searches.
    public static func find(
        _ text: String, _ needle: String, _ modifiers: StringOptions, _ anchoring: String.CompareOptions
    )
        -> Bool
    {
        (modifiers.isEmpty ? [(text, needle)] : forms(text, needle)).contains { text, needle in
            text.range(of: needle, options: options(modifiers).union(.literal).union(anchoring)) != nil
        }
    }

    /// The same search as NSPredicate's default: not literal, so canonical
    /// equivalence applies and a match respects composed character sequences.
    public static func findAsNSPredicate(
        _ text: String, _ needle: String, _ modifiers: StringOptions, _ anchoring: String.CompareOptions
    ) -> Bool {
        text.range(of: needle, options: options(modifiers).union(anchoring)) != nil
    }

    /// `like`, as an ICU regular expression: `?` is `.`, `*` is `.*`, every other
    /// character (or one after a backslash) itself; `[c]` is ICU's case-insensitive
    /// matching, `[d]` removes diacritics from both sides with Foundation's folding.
    public static func like(_ text: String, _ pattern: String, _ modifiers: StringOptions) -> Bool {
        (modifiers.isEmpty ? [(text, pattern)] : forms(text, pattern)).contains { text, pattern in
            var regex = "\\A"
            var escaped = false
            let undiacritic = { (piece: String) -> String in
                modifiers.contains(.diacriticInsensitive) ? piece.folding(options: .diacriticInsensitive, locale: nil) : piece
            }
            for scalar in pattern.unicodeScalars {
                let piece = String(scalar)
                if escaped {
                    regex += NSRegularExpression.escapedPattern(for: undiacritic(piece))
                    escaped = false
                } else if scalar == "\\" {
                    escaped = true
                } else if scalar == "*" {
                    regex += ".*"
                } else if scalar == "?" {
                    regex += "."
                } else {
                    regex += NSRegularExpression.escapedPattern(for: undiacritic(piece))
                }
            }
            if escaped { regex += NSRegularExpression.escapedPattern(for: "\\") }
            regex += "\\z"
            let subject = undiacritic(text)
            return wholeMatch(regex, subject, caseInsensitive: modifiers.contains(.caseInsensitive))
        }
    }

    /// `matches`: the pattern must match the whole string; `[c]` case-insensitively,
    /// `[d]` the string as it is or with its diacritics removed. An anchored search
    /// for `(?:pattern)$`, not pq's `\A(?:pattern)\z`.
    public static func matches(_ text: String, _ pattern: String, _ modifiers: StringOptions) -> Bool {
        var subjects = [text]
        if modifiers.contains(.diacriticInsensitive) {
            subjects.append(text.folding(options: .diacriticInsensitive, locale: nil))
        }
        guard
            let regex = try? NSRegularExpression(
                pattern: "(?:" + pattern + ")$",
                options: modifiers.contains(.caseInsensitive) ? [.caseInsensitive] : [])
        else { return false }
        return subjects.contains { subject in
            let whole = NSRange(subject.startIndex..<subject.endIndex, in: subject)
            return regex.firstMatch(in: subject, options: [.anchored], range: whole) != nil
        }
    }

    /// The string with every nonspacing or enclosing mark (Mn, Me) and emoji skin
    /// tone removed after
    /// canonical decomposition, where Foundation's diacritic folding keeps a mark
    /// with no base before it.
    public static func withoutMarks(_ text: String) -> String {
        var view = String.UnicodeScalarView()
        view.append(
            contentsOf: text.decomposedStringWithCanonicalMapping.unicodeScalars.filter {
                ![.nonspacingMark, .enclosingMark].contains($0.properties.generalCategory)
                    && !(0x1F3FB...0x1F3FF).contains($0.value)
            })
        return String(view)
    }

    /// Whether `needle` ends `text` once both are folded by Foundation's `folding`
    /// (as they are, or both composed), compared scalar by scalar from the end.
    public static func foldedSuffix(_ text: String, _ needle: String, _ modifiers: StringOptions) -> Bool {
        forms(text, needle).contains { text, needle in
            let fold = { (string: String) in Array(string.folding(options: options(modifiers), locale: nil).unicodeScalars) }
            let (folded, suffix) = (fold(text), fold(needle))
            return !suffix.isEmpty && folded.count >= suffix.count && Array(folded.suffix(suffix.count)) == suffix
        }
    }

    /// Whether `needle`, folded by Foundation, begins `text` folded by Foundation, as
    /// they are or composed (its anchored search can say so where its folding does not).
    public static func foldedPrefix(_ text: String, _ needle: String, _ modifiers: StringOptions) -> Bool {
        forms(text, needle).contains { text, needle in
            let fold = { (string: String) in Array(string.folding(options: options(modifiers), locale: nil).unicodeScalars) }
            let (folded, prefix) = (fold(text), fold(needle))
            return !prefix.isEmpty && folded.starts(with: prefix)
        }
    }

    /// Whether `needle`, folded by Foundation, occurs in `text` folded by Foundation, as
    /// they are or composed (its search can say so where its folding does not).
    public static func foldedContains(_ text: String, _ needle: String, _ modifiers: StringOptions) -> Bool {
        forms(text, needle).contains { text, needle in
            let fold = { (string: String) in Array(string.folding(options: options(modifiers), locale: nil).unicodeScalars) }
            let (folded, part) = (fold(text), fold(needle))
            guard !part.isEmpty, folded.count >= part.count else { return false }
            return (0...(folded.count - part.count)).contains { Array(folded[$0..<($0 + part.count)]) == part }
        }
    }

    /// Whether some scalar of `text` case-folds to more than one scalar (`ß`, `ﬁ`, `ΐ`).
    public static func hasExpandingFold(_ text: String) -> Bool {
        text.unicodeScalars.contains { String($0).folding(options: .caseInsensitive, locale: nil).unicodeScalars.count > 1 }
    }

    /// Whether Foundation's folding (not its comparison) makes the strings equal:
    /// for `ᾳ` and `ΑΙ` the two disagree under `[c]`.
    public static func foldedEqual(_ text: String, _ other: String, _ modifiers: StringOptions) -> Bool {
        let fold = { (string: String) in
            string.precomposedStringWithCanonicalMapping.folding(options: options(modifiers), locale: nil)
        }
        return fold(text).unicodeScalars.elementsEqual(fold(other).unicodeScalars)
    }

    private static func wholeMatch(_ pattern: String, _ subject: String, caseInsensitive: Bool) -> Bool {
        var options: NSRegularExpression.Options = [.dotMatchesLineSeparators]
        if caseInsensitive { options.insert(.caseInsensitive) }
        guard let regex = try? NSRegularExpression(pattern: pattern, options: options) else { return false }
        let whole = NSRange(subject.startIndex..<subject.endIndex, in: subject)
        return regex.firstMatch(in: subject, options: [], range: whole) != nil
    }
}
