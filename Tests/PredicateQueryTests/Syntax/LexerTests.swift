// The lexer: numbers, strings and escapes, and every lexical error, all reported
// in one pass.

import Testing

@testable import PredicateQuery

struct LexerTests {
    private func kinds(_ text: String) -> [TokenKind] {
        var lexer = Lexer(text)
        return lexer.tokenize().map(\.kind)
    }

    @Test func punctuationUsesLongestMatch() {
        #expect(kinds("a..<b...c") == [.name, .halfOpenRange, .name, .closedRange, .name, .end])
        #expect(
            kinds("!= <> =< => == = ! ?. .") == [
                .notEqual, .notEqual, .lessEqual, .greaterEqual, .equal, .equal, .bang, .questionDot, .dot, .end,
            ])
        #expect(kinds("1...2") == [.integer, .closedRange, .integer, .end])
        #expect(kinds("1.5.x") == [.decimal, .dot, .name, .end])
    }

    @Test func numbers() {
        var lexer = Lexer("1_000 0xff 0b101 0o17 2.5 1e3 1E-2 7d 1.5h 3w 18446744073709551615")
        let values = lexer.tokenize().map(\.value)
        #expect(
            values == [
                .integer(1000), .integer(255), .integer(5), .integer(15), .decimal(2.5), .decimal(1000),
                .decimal(0.01), .duration(7, "d"), .duration(1.5, "h"), .duration(3, "w"),
                .integer(UInt64.max), .none,
            ])
        #expect(lexer.diagnostics.isEmpty)
    }

    @Test func unicodeNames() {
        var lexer = Lexer("größe == 1 && 名前 == 'x'")
        let names = lexer.tokenize().filter { $0.kind == .name }.map(\.text)
        #expect(names == ["größe", "名前"])
    }

    static let lexicalErrors: [(String, [String])] = [
        ("a == 'abc", ["lex.unterminatedString"]),
        (#"a == 'a\qb'"#, ["lex.invalidEscape"]),
        (#"a == '\u{D800}'"#, ["lex.invalidUnicodeScalar"]),
        (#"a == '\u{110000}'"#, ["lex.invalidUnicodeScalar"]),
        (#"a == '\u{}'"#, ["lex.invalidEscape"]),
        (#"a == '\u0041'"#, ["lex.invalidEscape"]),
        ("a == 12abc", ["lex.invalidNumber"]),
        ("a == 0x", ["lex.invalidNumber"]),
        ("a == 99999999999999999999", ["lex.integerOverflow"]),
        ("a == 1e999", ["lex.numberOutOfRange"]),
        ("a # b", ["lex.unexpectedCharacter"]),
        ("a == # ; ¤", ["lex.unexpectedCharacter", "lex.unexpectedCharacter", "lex.unexpectedCharacter"]),
        ("a == $", ["lex.expectedName"]),
        ("`abc == 1", ["lex.unterminatedEscapedName"]),
        ("a == 'x' && b == \u{0}", ["lex.unexpectedCharacter"]),
    ]

    @Test("reports lexical errors", arguments: lexicalErrors)
    func lexicalError(_ input: String, _ codes: [String]) {
        #expect(parseCodes(input) == codes)
    }

    @Test func errorsCarryCaretsAndNotes() {
        #expect(
            parseErrors("a # b") == """
                <input>:1:3: error: unexpected character '#' in query
                a # b
                  ^
                note: to use a reserved word as a name, put it in backticks: `in`

                """)
        #expect(
            parseErrors(#"s == 'x\u{D800}'"#) == #"""
                <input>:1:8: error: '\u{D800}' is not a valid Unicode scalar
                s == 'x\u{D800}'
                       ^~~~~~~~
                note: surrogate code points (U+D800 to U+DFFF) and values above U+10FFFF cannot appear in strings

                """#)
    }

    @Test func nulInsideAStringIsKept() throws {
        let query = try #require(parseOrRecord("a == 'x\u{0}y'"))
        guard case .comparison(_, _, let rhs, _)? = query.predicate?.kind else {
            Issue.record("expected a comparison")
            return
        }
        #expect(rhs.syntaxDump == "x\u{0}y".debugDescription)
    }

    /// A name is a keyword when `lowercased()` of it is the keyword (the lexer lowercases each name
    /// once, for the parser's many tests), for ASCII and beyond; an escaped name never is.
    @Test func keywordsMatchAsLowercasingMatches() {
        let words = Array(Keywords.reserved) + Keywords.completions + ["self", "subquery", "between", "in", ""]
        let names = words.flatMap { [$0, $0.uppercased(), $0.capitalized, $0 + "s", String($0.dropLast())] } + [
            "\u{212A}ey", "li\u{212A}e", "\u{130}n", "CONTA\u{130}NS", "stra\u{DF}e", "\u{FF33}ORT", "sórt", "Sort\u{301}",
        ]
        var matched = 0
        for word in Set(words) {
            for name in names {
                let token = Token(kind: .name, span: .point(0), value: .text(name))
                #expect(token.isKeyword(word) == (name.lowercased() == word), "\(name) against \(word)")
                if token.isKeyword(word) { matched += 1 }
            }
        }
        // Every keyword matched itself in three spellings at least; the Kelvin sign lowercases to k.
        #expect(matched >= Set(words).count * 3)
        #expect(Token(kind: .name, span: .point(0), value: .text("li\u{212A}e")).isKeyword("like"))
        #expect(!Token(kind: .escapedName, span: .point(0), value: .text("sort")).isKeyword("sort"))
    }
}
