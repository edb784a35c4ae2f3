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

    /// Each name token carries its text lowercased for the parser's keyword tests; the
    /// lexer makes it byte by byte for ASCII names, and it must be what Swift's
    /// `lowercased()` gives for every name, ASCII or not.
    @Test func namesCarryTheirLowercasedText() {
        let names = [
            "where", "WHERE", "Where", "hasReceipt", "ABC_xyz_09", "_Z", "a", "Z", "name1Name2",
            "Größe", "ÄRGER", "İstanbul", "ΣΊΣΥΦΟΣ", "Straße", "名前", "aÅb", "ǅemal",
        ]
        var lexer = Lexer(names.joined(separator: " "))
        let tokens = lexer.tokenize().filter { $0.kind == .name }
        #expect(lexer.diagnostics.isEmpty)
        #expect(tokens.map(\.text) == names)
        #expect(tokens.map(\.folded) == names.map { $0.lowercased() })
        // Every ASCII letter, digit and underscore, in one name and in each case.
        let ascii = (0..<128).map { Character(Unicode.Scalar(UInt8($0))) }.filter {
            $0.isLetter || $0.isNumber || $0 == "_"
        }
        let long = "x" + String(ascii)
        var asciiLexer = Lexer(long + " " + long.uppercased())
        #expect(asciiLexer.tokenize().filter { $0.kind == .name }.map(\.folded) == [long.lowercased(), long.lowercased()])
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

    /// Keywords are read in any case, and when spelled with scalars that lowercase to them, as
    /// `lowercased()` says (the lexer lowercases each name once, for the parser's tests); an
    /// escaped keyword is a name.
    @Test func keywordsAreReadInAnyCase() throws {
        func stringOperator(_ text: String) -> StringOperator? {
            guard case .stringTest(let op, _, _, _)? = Parser.parse(text).query?.predicate?.kind else { return nil }
            return op
        }
        let parsed = Parser.parse("Budget WHERE name CONTAINS 'x' Sort BY name DESC")
        #expect(parsed.diagnostics.isEmpty, "\(parsed.diagnostics)")
        let query = try #require(parsed.query)
        #expect(query.entity?.text == "Budget")
        #expect(query.sortKeys.map(\.isAscending) == [false])
        #expect(stringOperator("Budget WHERE name CONTAINS 'x'") == .contains)
        // The Kelvin sign lowercases to 'k', and the dotted capital I to 'i' and a combining dot.
        #expect(stringOperator("name li\u{212A}e 'V*'") == .like)
        #expect(stringOperator("name CONTA\u{130}NS 'x'") == nil)
        var lexer = Lexer("`where` WHERE")
        let tokens = lexer.tokenize()
        #expect(!tokens[0].isKeyword("where") && tokens[1].isKeyword("where"))
    }
}
