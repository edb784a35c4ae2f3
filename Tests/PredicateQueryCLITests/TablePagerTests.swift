// Tables line up page by page: the first page sets the widths, a later page that
// needs wider columns prints the header again at its widths, widths never shrink,
// and a result of one page is exactly the table measured over every row.

import PredicateQuery
import Testing

@testable import PredicateQueryCLI

struct TablePagerTests {
    /// The table `rows` make under `titles` (the first column numeric), `pageSize` rows a page.
    static func table(_ rows: [[String]], titles: [String] = ["#", "name"], pageSize: Int) -> String {
        var pager = TablePager(titles: titles, isNumeric: titles.indices.map { $0 == 0 }, pageSize: pageSize)
        var text = OutputText()
        for row in rows {
            pager.add(row, widths: row.map(\.displayWidth))
            if pager.isPageFull { pager.printPage(into: &text) }
        }
        pager.finish(into: &text)
        return text.string
    }

    @Test func aWiderPagePrintsTheHeaderAgainAtItsWidths() {
        let rows = [["1", "a"], ["2", "bb"], ["3", "cccccc"], ["10", "d"], ["11", "e"], ["12", "f"]]
        #expect(
            Self.table(rows, pageSize: 2) == """
                #  name
                ─  ────
                1  a
                2  bb
                 #  name
                ──  ──────
                 3  cccccc
                10  d
                11  e
                12  f
                (6 rows)

                """)
    }

    @Test func widthsNeverShrink() {
        let rows = [["100", "a long name"], ["1", "a"], ["2", "b"]]
        #expect(
            Self.table(rows, pageSize: 1) == """
                  #  name
                ───  ───────────
                100  a long name
                  1  a
                  2  b
                (3 rows)

                """)
    }

    @Test func oneFullPageIsAlignedOverAllItsRows() {
        let rows = (1...5).map { [String($0 * $0 * $0), String(repeating: "x", count: $0)] }
        let expected = """
              #  name
            ───  ─────
              1  x
              8  xx
             27  xxx
             64  xxxx
            125  xxxxx
            (5 rows)

            """
        #expect(Self.table(rows, pageSize: 5) == expected)
        #expect(Self.table(rows, pageSize: 1_000) == expected)
    }

    @Test func noRowsPrintTheHeader() {
        #expect(Self.table([], pageSize: 2) == "#  name\n─  ────\n(0 rows)\n")
    }

    @Test func cellsAreCutAtTheirDisplayWidth() {
        let ascii = String(repeating: "x", count: 50)
        #expect(TablePrinter.truncated(ascii) == (String(repeating: "x", count: 39) + "…", 40))
        let accented = String(repeating: "é", count: 50)
        #expect(TablePrinter.truncated(accented) == (String(repeating: "é", count: 39) + "…", 40))
        let wide = String(repeating: "漢", count: 30)
        #expect(TablePrinter.truncated(wide) == (String(repeating: "漢", count: 19) + "…", 39))
        #expect(TablePrinter.truncated("short") == ("short", 5))
    }

    @Test func displayWidthOfASCIIIsItsLength() {
        #expect("plain text, 42 ~".displayWidth == 16)
        #expect("".displayWidth == 0)
        // Not printable ASCII: measured character by character, as before.
        #expect("a\tb".displayWidth == 2)
        #expect("漢a".displayWidth == 3)
        #expect("e\u{301}".displayWidth == 1)
        #expect("a😀".displayWidth == 3)
    }
}
