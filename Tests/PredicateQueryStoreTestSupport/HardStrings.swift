// Strings built to be hard for string tests: precomposed and decomposed accents,
// combining marks on their own, `ß`/`SS`/`ẞ`, `İ`/`ı`, Greek sigmas, ligatures,
// emoji with modifiers and ZWJ sequences, empty strings, and the characters that
// mean something in `like` and SQL (`%`, `_`, `*`, `?`, `\`). Needles and patterns
// are cut from the haystack (so tests often match), then recased, recomposed or
// replaced in part, so they often almost match.

import Foundation
import PredicateQueryTestSupport

/// Hard strings, needles, `like` patterns and regular expressions, the same for the same seed.
public struct HardStrings {
    /// Where every choice comes from: the same seed gives the same strings.
    public var random: SplitMix64

    /// Strings drawn from `random`.
    public init(random: SplitMix64) {
        self.random = random
    }

    /// The pieces strings are made of; each is one or a few scalars.
    public static let pieces: [String] = [
        "a", "b", "e", "i", "s", "A", "E", "I", "S", "n", "N", "x",
        "é", "É", "e\u{301}", "E\u{301}", "\u{301}", "\u{308}", "ï", "i\u{308}", "Ï", "ñ", "n\u{303}",
        "ß", "ss", "SS", "ẞ", "İ", "ı", "i\u{307}", "Σ", "σ", "ς", "ﬁ", "fi", "Å", "\u{212B}", "ǅ", "ǆ",
        "ǰ", "J\u{30C}", "ᾳ", "ά", "ø", "Ø", "日", "本",
        "👍", "👍🏽", "👨\u{200D}👩\u{200D}👧", "\u{200D}", "🇫🇷",
        "%", "_", "*", "?", "\\", " ", "'", "0", "9",
    ]

    /// A string of 0 to `maxPieces` pieces.
    public mutating func string(maxPieces: Int = 5) -> String {
        let count = random.int(0...maxPieces)
        return (0..<count).map { _ in random.pick(Self.pieces) }.joined()
    }

    /// A needle for `text`: a run of its scalars (maybe all, maybe none), recased or
    /// recomposed half the time; or an unrelated string.
    public mutating func needle(in text: String) -> String {
        guard random.chance(80) else { return string(maxPieces: 2) }
        let scalars = Array(text.unicodeScalars)
        let start = scalars.isEmpty ? 0 : random.int(0...scalars.count)
        let end = start == scalars.count ? start : random.int(start...scalars.count)
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars[start..<end])
        return disguise(String(view))
    }

    /// The text changed the ways `[c]` and `[d]` should see through, sometimes.
    public mutating func disguise(_ text: String) -> String {
        switch random.int(0...5) {
        case 0: return text.uppercased()
        case 1: return text.lowercased()
        case 2: return text.decomposedStringWithCanonicalMapping
        case 3: return text.precomposedStringWithCanonicalMapping
        case 4: return text.folding(options: .diacriticInsensitive, locale: nil)
        default: return text
        }
    }

    /// A `like` pattern for `text`: its pieces, some replaced by `?` or `*`, the
    /// characters `like` reads escaped with a backslash.
    public mutating func likePattern(for text: String) -> String {
        var pattern = ""
        for scalar in disguise(text).unicodeScalars {
            switch random.int(0...9) {
            case 0: pattern += "?"
            case 1: pattern += "*"
            case 2: continue
            default:
                if scalar == "*" || scalar == "?" || scalar == "\\" { pattern += "\\" }
                pattern.unicodeScalars.append(scalar)
            }
        }
        if random.chance(20) { pattern += "*" }
        return pattern
    }

    /// A regular expression for `text`: an escaped run of it with `.`, `.*` or a
    /// class around, or the empty pattern.
    public mutating func regex(for text: String) -> String {
        if random.chance(5) { return "" }
        let literal = NSRegularExpression.escapedPattern(for: needle(in: text))
        switch random.int(0...4) {
        case 0: return literal
        case 1: return ".*" + literal + ".*"
        case 2: return literal + "."
        case 3: return "[a-zA-Z]*" + literal
        default: return "(?:" + literal + ")+"
        }
    }
}

extension HardStrings {
    /// True `percent` times in a hundred.
    public mutating func chance(_ percent: Int) -> Bool { random.chance(percent) }
}
