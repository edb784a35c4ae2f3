// The patterns pq makes for PostgreSQL's string tests, without a server: LIKE
// patterns, ICU regular expressions in ARE (and the constructs refused, named), the
// folded patterns built from pq's folding turned around, and the refusals a query
// gets before anything runs. Whether PostgreSQL then matches as pq does is held on
// a live server (`PostgresStringOracleTests`, `PostgresDifferentialTests`).

import Foundation
import Testing

@testable import PredicateQuery

struct PostgreSQLPatternTests {
    @Test func likePatternsEscapeWhatLIKEReads() {
        #expect(PostgreSQLPattern.likePattern("a*b?c") == "a%b_c")
        #expect(PostgreSQLPattern.likePattern("100%_") == #"100\%\_"#)
        #expect(PostgreSQLPattern.likePattern(#"a\*b\?"#) == "a*b?")
        #expect(PostgreSQLPattern.likePattern(#"a\\"#) == #"a\\"#)
        // A backslash at the end is a literal backslash, as pq's like reads it.
        #expect(PostgreSQLPattern.likePattern(#"a\"#) == #"a\\"#)
    }

    @Test func regularExpressionsTranslateConstructByConstruct() throws {
        let dot = ICURegexTranslation.dot
        #expect(try ICURegexTranslation.translate("a.*") == "^(?:a(?:\(dot))*)$")
        #expect(try ICURegexTranslation.translate("") == "^(?:)$")
        #expect(try ICURegexTranslation.translate("[a-cx]+?") == "^(?:(?:[a-cx])+)$")
        #expect(try ICURegexTranslation.translate("(ab|c){2,3}") == "^(?:(?:(?:ab|c)){2,3})$")
        #expect(try ICURegexTranslation.translate(#"\.\x{1F600}é"#) == #"^(?:\u002E\U0001F600\u00E9)$"#)
        #expect(try ICURegexTranslation.translate("[^-a]") == #"^(?:[^\u002Da])$"#)
        #expect(try ICURegexTranslation.translate("ab$") == "^(?:ab$)$")
    }

    @Test(arguments: [
        (#"\w+"#, #"'\w'"#), (#"a\d"#, #"'\d'"#), (#"\bx"#, #"'\b'"#), (#"\s"#, #"'\s'"#), (#"\p{L}"#, #"'\p'"#),
        ("(a)\\1", "back-reference"), ("(?=a)a", "look-ahead"), ("(?<=a)b", "look-behind"), ("(?i)a", "inline flags"),
        ("a*+", "possessive"), ("(?>a)", "atomic"), ("[[:alpha:]]", "nested set"), ("[a&&b]", "intersection"),
        ("a$b", "'$' before the end"), ("a{300}", "above 255"), ("[a-c-e]", "not a range"),
    ])
    func unsharedConstructsAreRefusedByName(pattern: String, named: String) {
        #expect(throws: PostgreSQLPatternError.self) { try ICURegexTranslation.translate(pattern) }
        do {
            _ = try ICURegexTranslation.translate(pattern)
        } catch {
            #expect(error.message.contains(named), "\(error.message)")
            #expect(error.message.contains("'\(pattern)'"), "the message quotes the pattern")
        }
    }

    @Test func foldedPatternsTakeEveryScalarThatFoldsToTheNeedle() throws {
        let contains = PostgreSQLPattern(kind: .contains, options: .caseInsensitive, composed: false)
        // `s` is also ſ (U+017F); `ss` is also ß and ẞ, as a whole.
        let pattern = try contains.make("ss")
        #expect(pattern.contains(#"\u017F"#))
        #expect(pattern.contains(#"\u00DF"#) && pattern.contains(#"\u1E9E"#))
        #expect(pattern.contains("|"))
        // K is also the Kelvin sign; anchored for ==.
        let whole = try PostgreSQLPattern(kind: .whole, options: .caseInsensitive, composed: true).make("k")
        #expect(whole == #"^[Kk\u212A]$"#)
        // Under [d], `e` is every e with marks, precomposed; marks are removed first.
        let diacritics = try PostgreSQLPattern(kind: .prefix, options: .diacriticInsensitive, composed: false).make("é")
        #expect(diacritics.hasPrefix("^[e") && diacritics.contains(#"\u00E8-\u00EB"#), "\(diacritics)")
        #expect(PostgreSQLPattern.emptyFoldClass(.diacriticInsensitive)?.contains(#"\u0300-\u036F"#) == true)
        #expect(PostgreSQLPattern.emptyFoldClass(.caseInsensitive) == nil)
    }

    @Test func hangulSyllablesFoldUnderDToTheirDecomposition() {
        // The folded value leaves them to PostgreSQL's normalize(c, NFD).
        for options: StringOptions in [.diacriticInsensitive, [.caseInsensitive, .diacriticInsensitive]] {
            for value in PostgreSQLPattern.hangulSyllables {
                guard let scalar = Unicode.Scalar(value) else { continue }
                let decomposed = String(scalar).decomposedStringWithCanonicalMapping.unicodeScalars
                #expect(StringFolding.fold(scalar, options).elementsEqual(decomposed), "U+\(String(value, radix: 16))")
            }
            #expect(!PostgreSQLPattern.foldMap(options).contains("가"))
        }
        #expect(PostgreSQLPattern.foldMap(.caseInsensitive).contains(#""ß":"ss""#))
    }

    @Test func aNeedleWhoseAlternativesGrowTooLargeIsRefused() {
        let pattern = PostgreSQLPattern(kind: .contains, options: .caseInsensitive, composed: false)
        #expect(throws: PostgreSQLPatternError.self) { try pattern.make(String(repeating: "s", count: 60)) }
        #expect((try? pattern.make(String(repeating: "s", count: 8))) != nil)
        // Long needles and deep groups are refused, not a deep recursion.
        #expect(throws: PostgreSQLPatternError.self) { try pattern.make(String(repeating: "a", count: 100_000)) }
        #expect((try? pattern.make(String(repeating: "a", count: 900))) != nil)
        #expect(throws: PostgreSQLPatternError.self) {
            try ICURegexTranslation.translate(String(repeating: "(", count: 50_000) + String(repeating: ")", count: 50_000))
        }
    }

    static let schema = Schema(entities: [
        Entity("Item", attributes: [Attribute("name", .string), Attribute("other", .string)])
    ])

    static func refusal(_ query: String) -> String? {
        var mapping = StoreMapping.make(for: schema, layout: .plain)
        mapping.database = .postgreSQL
        guard let checked = QueryCompiler.compile(query, schema: schema, mapping: mapping).checked else {
            return "does not check: \(query)"
        }
        return PostgreSQLSupport.reason(checked)
    }

    @Test func postgreSQLAnswersStringTestsAgainstLiteralsAndParameters() {
        for query in [
            "Item where name contains[cd] 'Café'", "Item where name like 'a*b?'", "Item where name like[cd] '*É?'",
            "Item where name matches '[a-z]+.*'", "Item where name ==[c] $q", "Item where name beginswith[d] $q",
            "Item where name matches $r", "Item where 'x' ==[c] name", "Item where name <[c] 'b'",
            "Item where name ==[d] other", "Item where name != nil sort by name[cd]",
        ] {
            #expect(Self.refusal(query) == nil, "\(query): \(Self.refusal(query) ?? "")")
        }
    }

    @Test func postgreSQLRefusesWhatItCannotAnswerAsPQDoes() {
        let cases: [(String, String)] = [
            ("Item where name contains[c] other", "against a stored value"),
            ("Item where name like other", "against a stored value"),
            ("Item where name matches[c] 'a.*'", "'matches[c]'"),
            (#"Item where name matches '\\w+'"#, #"'\w'"#),
        ]
        for (query, named) in cases {
            let reason = Self.refusal(query)
            #expect(reason?.contains(named) == true, "\(query): \(reason ?? "not refused")")
        }
    }

    @Test func aRefusedPatternsDiagnosticPointsAtThePattern() throws {
        var mapping = StoreMapping.make(for: Self.schema, layout: .plain)
        mapping.database = .postgreSQL
        let text = #"Item where name != nil && name matches 'a\\w+'"#
        let result = QueryCompiler.compile(text, schema: Self.schema, mapping: mapping)
        let diagnostic = try #require(result.diagnostics.first { $0.code == .unsupportedByDatabase })
        let start = try #require(
            text.utf8.firstIndex(of: UInt8(ascii: "'")).map { text.utf8.distance(from: text.utf8.startIndex, to: $0) })
        #expect(diagnostic.span.start == start && diagnostic.span.end == text.utf8.count, "\(diagnostic.span)")
        #expect(diagnostic.message.contains(#"'\w'"#))
    }
}
