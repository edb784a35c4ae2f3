// The scanner under awkward sources: comments and string literals that look like
// code, raw and multi-line strings, interpolations, and line numbers after them.

import PredicateQuery
import Testing

@testable import PredicateQueryModels

struct SwiftModelSourceLexicalTests {
    private func tokens(_ text: String) -> [SwiftToken] {
        SwiftSourceScanner.scan(Array(text.utf8)).tokens
    }

    @Test func commentsThatLookLikeModelsAreIgnored() {
        let (schema, warnings) = SwiftModelSourceTestSupport.load(
            #"""
            // @Model class Fake {
            /* @Model class Fake2 { var x: Int }
               /* nested: @Model class Fake3 { */
               still a comment: } } }
            */
            /// Doc comment: @Model final class Fake4 {
            @Model final class Real {
                var name: String // } not a brace
                /* { */ var age: Int /* } */
            }
            """#)
        #expect(warnings.isEmpty, "\(warnings)")
        #expect(schema.entities.map(\.name) == ["Real"])
        #expect(schema.entities.first?.attributes.map(\.name) == ["name", "age"])
    }

    @Test func stringLiteralsWithBracesDoNotUnbalanceTheClass() {
        let (schema, warnings) = SwiftModelSourceTestSupport.load(
            #"""
            @Model final class Note {
                var open: String = "{"
                var close: String = "}}"
                var quoted: String = "a \"}\" b"
                var raw: String = #"{"#
                var rawer: String = ##"a "# } "##
                var interpolated: String = "\(1 + (2)) } \("{" + "}")"
                var body: String = """
                    func f() {
                    } } "quoted" \"""
                    """
                var after: Int = 1

                func describe() -> String {
                    let s = "}"
                    return "\(s) { \("\(s)")"
                }

                var last: Bool = false
            }
            """#)
        #expect(warnings.isEmpty, "\(warnings)")
        let note = schema.entity(named: "Note")
        #expect(
            note?.attributes.map(\.name) == ["open", "close", "quoted", "raw", "rawer", "interpolated", "body", "after", "last"])
        #expect(note?.attributes.first { $0.name == "raw" }?.defaultValue == ##"#"{"#"##)
    }

    @Test func stringValuesAreDecoded() {
        let strings = tokens(
            ##"""
            "a\tb\"c\\" #"raw \n "quoted" \#n"# "\u{1F600}" "x\(y)z"
            """##
        ).filter { $0.kind == .string }
        #expect(strings.map(\.text) == ["a\tb\"c\\", #"raw \n "quoted" "# + "\n", "😀", ""])
        #expect(strings.last?.isEscaped == true, "an interpolated string has no value")
        let multiline = tokens(
            #"""
            let s = """
                first
                  second }
                """
            """#
        ).filter { $0.kind == .string }
        #expect(multiline.map(\.text) == ["first\n  second }"])
    }

    @Test func lineNumbersCountNewlinesInsideLiteralsAndComments() {
        let scanned = tokens(
            #"""
            a
            /* one
               two */ b
            """
            x
            """ c
            d // e
            """#)
        let lines = Dictionary(scanned.filter { $0.kind == .identifier }.map { ($0.text, $0.line) }) { first, _ in first }
        #expect(lines["a"] == 1)
        #expect(lines["b"] == 3)
        #expect(lines["c"] == 6)
        #expect(lines["d"] == 7)
        #expect(scanned.first { $0.text == "b" }?.startsLine == true, "first on its line, after a comment")
        #expect(scanned.first { $0.text == "c" }?.startsLine == false, "after a literal on its line")
    }

    @Test func unterminatedLiteralsAndCommentsAreReported() {
        let string = SwiftSourceScanner.scan(Array("var a = \"open\nvar b = 1".utf8))
        #expect(string.problems.map(\.line) == [1])
        #expect(string.tokens.contains { $0.text == "b" && $0.line == 2 }, "a single-line string ends with its line")
        let comment = SwiftSourceScanner.scan(Array("a /* /* */ b".utf8))
        #expect(comment.problems.map(\.message) == ["unterminated /* comment"])
        let multiline = SwiftSourceScanner.scan(Array("x = \"\"\"\nnever closed\n".utf8))
        #expect(multiline.problems.map(\.message) == ["unterminated string literal"])
    }

    @Test func regexLiteralsWithBracesAreOpaque() {
        let (schema, warnings) = SwiftModelSourceTestSupport.load(
            #"""
            @Model final class Rule {
                var name: String
                var isCode: Bool { name.contains(#/\{[a-z]+"/#) }
                var isMulti: Bool { name.contains(##/ } { /##) }
                var after: Int
            }
            """#)
        #expect(warnings.isEmpty, "\(warnings)")
        #expect(schema.entities.first?.attributes.map(\.name) == ["name", "after"])
        #expect(schema.entities.first?.computedProperties.map(\.dependencies) == [["name"], ["name"]])
    }

    @Test func attributesDirectivesAndEscapedNames() {
        let scanned = tokens("@Model #if os(iOS) #Preview `default` $0 1_000.5e-3 0x1F")
        #expect(scanned[0].kind == .attribute && scanned[0].text == "Model")
        #expect(scanned[1].kind == .directive && scanned[1].text == "if")
        #expect(scanned.contains { $0.kind == .pound && $0.text == "Preview" })
        #expect(scanned.contains { $0.kind == .identifier && $0.text == "default" && $0.isEscaped })
        #expect(scanned.contains { $0.kind == .identifier && $0.text == "$0" })
        #expect(scanned.filter { $0.kind == .number }.map(\.text) == ["1_000.5e-3", "0x1F"])
    }
}
