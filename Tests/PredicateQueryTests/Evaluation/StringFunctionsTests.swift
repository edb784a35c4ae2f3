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
        ("É", .caseInsensitive, "e\u{301}"),
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
            do throws(StringFunctions.RegexError) { _ = try StringFunctions.matches(runaway, "(a+)+b", []) } catch { caught = error }
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
