// Rendering: locations, carets under wide and combining characters, tabs, long
// lines, notes, and the JSON form.

import Foundation
import Testing

@testable import PredicateQuery

struct DiagnosticRendererTests {
    private func render(_ text: String, _ start: Int, _ end: Int, notes: [DiagnosticNote] = []) -> String {
        let diagnostic = Diagnostic.error("test.code", "message", at: SourceSpan(start: start, end: end), notes: notes)
        return DiagnosticRenderer(showsCodes: false).render([diagnostic], in: text)
    }

    @Test func columnsCountCharactersAndCaretsFollowDisplayWidth() {
        // 'é' is two bytes, one column; '名' is three bytes, two cells wide.
        let text = "é == 1 && 名前 == x"
        let start = Array("é == 1 && 名前 == ".utf8).count
        // 17 characters precede 'x', but they fill 18 cells: the caret goes under 'x'.
        #expect(
            render(text, start, start + 1) == """
                <input>:1:17: error: message
                é == 1 && 名前 == x
                                  ^

                """)
        let wide = Array("é == 1 && ".utf8).count
        #expect(
            render(text, wide, wide + 6) == """
                <input>:1:11: error: message
                é == 1 && 名前 == x
                          ^~~~

                """)
    }

    @Test func combiningMarksTakeNoCell() {
        let text = "e\u{301} == x"
        let start = Array("e\u{301} == ".utf8).count
        #expect(render(text, start, start + 1) == "<input>:1:6: error: message\ne\u{301} == x\n     ^\n")
    }

    @Test func tabsAreKeptSoCaretsLineUp() {
        #expect(render("\ta == x", 6, 7) == "<input>:1:7: error: message\n\ta == x\n\t     ^\n")
    }

    @Test func laterLinesAndEndOfInput() {
        let text = "a == 1 &&\n  b =="
        #expect(
            render(text, text.utf8.count, text.utf8.count) == """
                <input>:2:7: error: message
                  b ==
                      ^

                """)
    }

    @Test func controlCharactersAreShownAsPictures() {
        #expect(render("a == \u{0}", 5, 6) == "<input>:1:6: error: message\na == \u{2400}\n     ^\n")
    }

    @Test func longLinesAreWindowed() {
        let text = String(repeating: "a", count: 1_000) + " == x"
        let output = render(text, 1_004, 1_005)
        let lines = output.split(separator: "\n")
        #expect(lines[0] == "<input>:1:1005: error: message")
        #expect(lines[1].count < 130)
        #expect(lines[1].hasPrefix("…") && lines[1].hasSuffix("== x"))
        let caretColumn = lines[2].firstIndex(of: "^").map { lines[2].distance(from: lines[2].startIndex, to: $0) }
        let xColumn = lines[1].lastIndex(of: "x").map { lines[1].distance(from: lines[1].startIndex, to: $0) }
        #expect(caretColumn == xColumn)
    }

    @Test func notesWithSpansGetTheirOwnLocation() {
        let output = render(
            "a == $x && b == $x", 16, 18,
            notes: [DiagnosticNote("first used here", at: SourceSpan(start: 5, end: 7)), DiagnosticNote("plain")])
        #expect(
            output == """
                <input>:1:17: error: message
                a == $x && b == $x
                                ^~
                <input>:1:6: note: first used here
                a == $x && b == $x
                     ^~
                note: plain

                """)
    }

    @Test func codesAreShownByDefault() {
        let diagnostic = Diagnostic.warning("check.neverNil", "always false", at: .point(0))
        #expect(
            DiagnosticRenderer().render([diagnostic], in: "x") == "<input>:1:1: warning: always false [check.neverNil]\nx\n^\n")
    }

    @Test func jsonFormHasRangesLocationsAndNotes() throws {
        let text = "a ==\n  é == x"
        let start = Array("a ==\n  é == ".utf8).count
        let diagnostic = Diagnostic.error(
            "check.code", "bad", at: SourceSpan(start: start, end: start + 1),
            notes: [DiagnosticNote("see", at: .point(0)), DiagnosticNote("plain")])
        let json = DiagnosticRenderer().renderJSON([diagnostic], in: text)
        let decoded = try JSONDecoder().decode([Diagnostic.JSONForm].self, from: Data(json.utf8))
        #expect(decoded.count == 1)
        #expect(decoded[0].code == "check.code")
        #expect(decoded[0].severity == .error)
        #expect(decoded[0].line == 2 && decoded[0].column == 8)
        #expect(decoded[0].range.start == start && decoded[0].range.end == start + 1)
        #expect(decoded[0].notes.map(\.message) == ["see", "plain"])
        #expect(decoded[0].notes[0].line == 1 && decoded[0].notes[1].line == nil)
    }
}
