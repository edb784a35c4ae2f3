// The values random data and random queries draw from: chosen to sit on the edges
// where SQL and Swift could disagree. Unicode with combining marks and case pairs
// that fold differently (É/é, ß/SS, İ/i, Σ/σ/ς), strings holding `*`, `?`, `%`,
// `_`, quotes, backslashes and NUL; Int and Double extremes; equal values, so
// sort ties happen.

import Foundation
import PredicateQuery

/// The values random data and random queries draw from.
public enum ValuePools {
    /// Strings on the edges of folding, escaping and SQL's pattern characters.
    public static let strings: [String] = [
        "", "a", "A", "b", "abc", "Abc", "ABC", "abd", "ab", "Vacation", "vacation", "VACATION", "Vac", "Rent",
        "rent", "Travel", "é", "É", "e\u{301}", "E\u{301}", "e", "E", "café", "CAFÉ", "cafe\u{301}", "cafe",
        "ß", "SS", "ss", "straße", "STRASSE", "Straße", "İ", "i", "ı", "I", "iı", "Σ", "σ", "ς", "ΣΑΣ", "😀",
        "a😀b", "日本語", "日本", "a*b", "a?b", "*", "?", "100%", "50%_off", "_x_", "back\\slash", "it's",
        "say \"hi\"", "nul\u{0}here", "\u{0}", "tab\there", "line\nbreak", "Zebra", "zebra", "\u{10FFFF}",
        "a\u{10FFFF}", "\u{FFFD}", "Ω", "ω", "swift", "Swift", "SwiftUI", "objectivec", "python", "css",
    ]

    /// Strings the differential data and queries add to `strings`: what an
    /// independent reference used to find pq's string bugs (issue 13).
    public static let hardStrings: [String] = [
        "naïve", "nai\u{308}ve", "NAÏVE", "Café", "cafe\u{301}", "\u{301}", "e\u{301}\u{308}", "ẞ", "STRAẞE", "ﬁle",
        "Å", "\u{212B}", "ᾳ", "ΑΙ", "ǅ", "i\u{307}", "İstanbul", "istanbul", "👍🏽", "👨\u{200D}👩\u{200D}👧", "🇫🇷",
        "%_*?\\", "", "한국어", "\u{1112}\u{1161}\u{11AB}", "가", "\u{1100}\u{1161}", "ﬃ", "ffi", "ΐ", "ŉ", "ǰ",
        "ΣΊΣΥΦΟΣ", "σίσυφος", "Straße", "strasse", "ẞ", "İi̇", "e\u{301}\u{323}", "e\u{323}\u{301}", "ệ",
    ]

    /// Integers and doubles on either side of 2^53, where a Double no longer holds
    /// every Int: 9007199254740993 is not 9007199254740992.0.
    public static let integersNear2To53: [Int64] = [9_007_199_254_740_992, 9_007_199_254_740_993, -9_007_199_254_740_993]
    /// Double literals beside 2^53, as a query spells them.
    public static let doublesNear2To53: [String] = ["9007199254740992.0", "9007199254740994.0", "-9007199254740992.0"]

    /// Integers: small ones, extremes, and ones a Double cannot hold.
    public static let integers: [Int64] = [
        0, 1, -1, 2, 3, 5, 7, 10, 13, 17, 18, 19, 42, 100, 1_000, -100, .max, .min, .max - 1, .min + 1,
        9_007_199_254_740_993, -9_007_199_254_740_993, 4_611_686_018_427_387_904,
    ]

    /// Doubles: signed zeros, halves, extremes, subnormals, and sums that round.
    public static let doubles: [Double] = [
        0, -0.0, 0.5, 1, 1.5, 2, 2.5, 10, 50, 99.99, 100, 100.5, 150, 500, 1_000, -3.25, -100, 1e300, -1e300,
        .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .leastNonzeroMagnitude, 1e-300, 9_007_199_254_740_992,
        0.1, 0.2, 0.30000000000000004,
    ]

    /// The Doubles random data holds: the literals' and infinities, which no literal spells.
    public static let storedDoubles: [Double] = doubles + [.infinity, -.infinity]

    /// Dates: the reference date, either side of it, and a microsecond apart.
    public static let dates: [Date] = [
        0, 86_400, -86_400, 700_000_000, 700_000_000.5, 750_000_000, 1e9, -1e9, 800_000_000,
        // Rounding edges for date arithmetic: a microsecond apart, beside 2001, far from it.
        700_000_000.000001, 699_999_999.999999, 0.000001, -0.000001, 8e9, 8_000_000_000.000002, -9e9,
    ].map { Date(timeIntervalSinceReferenceDate: $0) }

    /// UUIDs, among them all zeros and all ones.
    public static let uuids: [UUID] = [
        "E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "00000000-0000-0000-0000-000000000000",
        "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF", "12345678-9ABC-DEF0-1234-56789ABCDEF0",
    ].compactMap(UUID.init(uuidString:))

    /// Data values: empty, a zero byte, short and longer.
    public static let data: [Data] = [Data(), Data([0]), Data([1, 2, 3]), Data(repeating: 0xFF, count: 20)]

    /// The environment every differential case runs in, so `now()` is the same for both sides.
    public static let environment = QueryEnvironment(
        now: Date(timeIntervalSinceReferenceDate: 760_000_000), timeZone: TimeZone(identifier: "UTC") ?? .current)
}
