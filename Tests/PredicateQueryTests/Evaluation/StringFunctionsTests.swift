// The string operations shared by the evaluator and the store: Unicode-aware
// folding, byte-exact tests, `like` patterns, whole-string regular expressions,
// and the prefix successor behind index-friendly prefix ranges.

import Testing

@testable import PredicateQuery

struct StringFunctionsTests {
    static let foldings: [(String, StringOptions, String)] = [
        ("Straße", .caseInsensitive, "strasse"),
        ("STRASSE", .caseInsensitive, "strasse"),
        ("ΣΑΣ", .caseInsensitive, "σασ"),
        ("ς", .caseInsensitive, "σ"),
        ("ﬁle", .caseInsensitive, "file"),
        ("É", .caseInsensitive, "é"),
        ("E\u{301}", .caseInsensitive, "é"),
        ("é", .diacriticInsensitive, "e"),
        ("e\u{301}", .diacriticInsensitive, "e"),
        ("CAFÉ", [.caseInsensitive, .diacriticInsensitive], "cafe"),
        ("İ", [.caseInsensitive, .diacriticInsensitive], "i"),
        ("İ", .diacriticInsensitive, "I"),
        ("Ünïcödé", .diacriticInsensitive, "Unicode"),
        ("日本", [.caseInsensitive, .diacriticInsensitive], "日本"),
        ("ABC", [], "ABC"),
    ]

    @Test("folding", arguments: foldings)
    func folding(_ text: String, _ options: StringOptions, _ expected: String) {
        #expect(Array(StringFunctions.fold(text, options).unicodeScalars) == Array(expected.unicodeScalars))
    }

    @Test func testsWorkOnScalarsNotCharacters() {
        // Swift's String.contains("e") is false for "e\u{301}" (one Character); SQL's instr is true.
        #expect(StringFunctions.contains("cafe\u{301}", "e"))
        #expect(StringFunctions.contains("abc", ""))
        #expect(!StringFunctions.contains("", "a"))
        #expect(StringFunctions.contains("nul\u{0}here", "\u{0}h"))
        #expect(StringFunctions.hasPrefix("e\u{301}", "e"))
        #expect(StringFunctions.hasSuffix("cafe\u{301}", "\u{301}"))
        #expect(!StringFunctions.hasSuffix("a", "ba"))
    }

    /// What an independent reference found wrong when `[c]` folded to the decomposed
    /// form and matched scalar by scalar (issue 13): each must hold now.
    @Test func aModifierIsTheInsensitiveVersionOfThePlainTest() {
        // The plain test does not match, so neither does `[c]`: ï is one scalar.
        #expect(!StringFunctions.hasPrefix("naïve", "nai"))
        #expect(!StringFunctions.hasPrefix("naïve", "Nai", .caseInsensitive))
        #expect(!StringFunctions.hasPrefix("NAÏVE", "Nai", .caseInsensitive))
        #expect(StringFunctions.like("Café", "Caf?", []))
        #expect(StringFunctions.like("Café", "Caf?", .caseInsensitive))
        #expect(StringFunctions.like("CAFÉ", "caf?", .caseInsensitive))
        #expect(!StringFunctions.hasSuffix("café", "\u{301}", .caseInsensitive))
        // Decomposed text keeps the plain test's matches.
        #expect(StringFunctions.hasPrefix("nai\u{308}ve", "nai"))
        #expect(StringFunctions.hasPrefix("nai\u{308}ve", "NAI", .caseInsensitive))
        #expect(StringFunctions.hasSuffix("cafe\u{301}", "\u{301}", .caseInsensitive))
        // A match covers whole scalars of the text: ß is ss, never half of it.
        #expect(!StringFunctions.contains("ß", "s", .caseInsensitive))
        #expect(StringFunctions.contains("Straße", "SS", .caseInsensitive))
        #expect(StringFunctions.contains("STRASSE", "ß", .caseInsensitive))
        #expect(!StringFunctions.hasPrefix("straße", "STRAS", .caseInsensitive))
        #expect(!StringFunctions.contains("İstanbul", "i", .caseInsensitive))
        #expect(StringFunctions.contains("İstanbul", "i\u{307}", .caseInsensitive))
        #expect(!StringFunctions.like("ß", "s*", .caseInsensitive))
        #expect(StringFunctions.like("ß", "ss", .caseInsensitive))
        // The regex cache keeps patterns apart scalar by scalar: ICU matches `Ï` only
        // with `Ï`, whichever of the two spellings was compiled first.
        #expect((try? StringFunctions.matches("\u{CF}x", ".*\u{CF}.*", [])) == true)
        #expect((try? StringFunctions.matches("\u{CF}x", ".*I\u{308}.*", [])) == false)
        // Canonically equivalent spellings match as `==[c]` says they are equal.
        #expect(StringFunctions.contains("café", "E\u{301}", .caseInsensitive))
        #expect(StringFunctions.fold("É", .caseInsensitive) == StringFunctions.fold("e\u{301}", .caseInsensitive))
        // `[d]`: marks fold to nothing and are passed over; what matches without `[d]` matches with it.
        #expect(StringFunctions.like("cafe\u{301}", "cafe", .diacriticInsensitive))
        #expect(StringFunctions.like("cafe\u{301}", "cafe?", .diacriticInsensitive))
        #expect(StringFunctions.like("caf\u{301}", "caf?", .diacriticInsensitive))
        #expect(!StringFunctions.like("cafe\u{301}x", "cafe???", .diacriticInsensitive))
        #expect(StringFunctions.like("cafe\u{301}x", "cafe?x", .diacriticInsensitive))
        #expect(StringFunctions.contains("naïve", "naive", .diacriticInsensitive))
    }

    static let likes: [(String, String, StringOptions, Bool)] = [
        ("Vacation", "V*n", [], true), ("Vacation", "v*n", [], false), ("Vacation", "v*N", .caseInsensitive, true),
        ("Gifts", "G?fts", [], true), ("Gfts", "G?fts", [], false), ("", "*", [], true), ("a", "", [], false),
        ("100%", "100%", [], true), ("100x", "100%", [], false), ("a_b", "a_b", [], true), ("axb", "a_b", [], false),
        ("a*b", "a\\*b", [], true), ("axb", "a\\*b", [], false), ("a?b", "a\\?b", [], true), ("a\\b", "a\\\\b", [], true),
        ("😀", "?", [], true), ("e\u{301}", "?", [], false), ("e\u{301}", "??", [], true),
        ("café", "caf?", [.diacriticInsensitive], true),
        ("café", "cafe", [.diacriticInsensitive], true), ("aaaaaaaaab", "*a*a*b", [], true), ("aaaa", "*a*a*b", [], false),
    ]

    @Test("like", arguments: likes)
    func like(_ text: String, _ pattern: String, _ options: StringOptions, _ expected: Bool) {
        #expect(StringFunctions.like(text, pattern, options) == expected)
    }

    @Test func matchesWholeStrings() throws {
        #expect(try StringFunctions.matches("Vacation", "[A-Z][a-z]+", []))
        #expect(try !StringFunctions.matches("Vacation Rentals", "[A-Z][a-z]+", []))
        #expect(try !StringFunctions.matches("line\nbreak", "line", []))
        #expect(try StringFunctions.matches("VAC", "vac", .caseInsensitive))
        #expect(try StringFunctions.matches("café", "cafe", .diacriticInsensitive))
        #expect(try StringFunctions.matches("ab", "a|ab", []))
        #expect(throws: StringFunctions.RegexError.self) { try StringFunctions.matches("x", "a)|(b", []) }
        #expect(throws: StringFunctions.RegexError.self) { try StringFunctions.matches("x", "[a-", []) }
    }

    @Test func catastrophicBacktrackingIsStoppedWithAnError() throws {
        // Nested repetition on a long run of a's backtracks exponentially; the work
        // limit stops it, where ICU's own limit would quietly answer "no match".
        let runaway = String(repeating: "a", count: 40)
        let clock = ContinuousClock()
        var caught: StringFunctions.RegexError?
        let elapsed = clock.measure {
            do throws(StringFunctions.RegexError) { _ = try StringFunctions.matches(runaway, "(a+)+b", []) } catch {
                caught = error
            }
        }
        #expect(caught?.reason == .tooMuchBacktracking)
        #expect(caught?.description.contains("backtracks too much") == true)
        #expect(elapsed < .seconds(5))
        // Linear patterns over long strings stay within the limit, matching or not.
        let long = String(repeating: "lorem ipsum ", count: 50_000)
        #expect(try StringFunctions.matches(long, "[a-z ]+", []))
        #expect(try !StringFunctions.matches(long, ".*needle.*", []))
        #expect(try StringFunctions.matches(runaway + "b", "(a+)+b", []))
    }

    @Test func prefixSuccessorBoundsEveryStringWithThePrefix() {
        #expect(StringFunctions.prefixSuccessor("Vac") == "Vad")
        #expect(StringFunctions.prefixSuccessor("a\u{10FFFF}") == "b")
        #expect(StringFunctions.prefixSuccessor("\u{D7FF}") == "\u{E000}")
        #expect(StringFunctions.prefixSuccessor("") == nil)
        #expect(StringFunctions.prefixSuccessor("\u{10FFFF}") == nil)
        for (prefix, text) in [("ab", "ab\u{10FFFF}zz"), ("é", "é😀"), ("a", "a")] {
            let upper = StringFunctions.prefixSuccessor(prefix) ?? ""
            #expect(Array(text.utf8).lexicographicallyPrecedes(Array(upper.utf8)))
            #expect(!Array(text.utf8).lexicographicallyPrecedes(Array(prefix.utf8)))
        }
    }
}
