// Lining up a table's cells a page at a time, so that the first rows print at once
// and memory holds one page, however many rows there are.
//
// The first page (`pageSize` rows, or all of them if fewer) sets the column widths:
// the widest of its cells and the titles. Each later page is measured when it is
// full; widths only grow, so a column never gets narrower than the rows above it.
// When a page needs wider columns, the header and its rule are printed again
// above it at the new widths, so every row lines up with the header above it. A
// result of one page (every result of up to `pageSize` rows) prints exactly as a
// table measured over all its rows does.

import PredicateQuery

struct TablePager {
    /// Rows measured together before they are printed: enough to fill several
    /// screens, few enough to print at once (a page takes milliseconds to read).
    static let defaultPageSize = 1_000

    let titles: [String]
    let isNumeric: [Bool]
    let pageSize: Int
    /// The widths the header was last printed with; empty before the first page.
    private(set) var widths: [Int] = []
    /// How many rows were added.
    private(set) var rowCount = 0
    /// The cells of the page being filled, row after row, and the width of each.
    private var cells: [String] = []
    private var cellWidths: [Int] = []

    init(titles: [String], isNumeric: [Bool], pageSize: Int = TablePager.defaultPageSize) {
        self.titles = titles
        self.isNumeric = isNumeric
        self.pageSize = max(pageSize, 1)
        cells.reserveCapacity(self.pageSize * titles.count)
        cellWidths.reserveCapacity(self.pageSize * titles.count)
    }

    /// Whether the page being filled is full: the caller prints it with `printPage`.
    var isPageFull: Bool { cells.count >= pageSize * titles.count }

    /// Adds a row of cells (one per title), with the display width of each.
    mutating func add(_ row: [String], widths rowWidths: [Int]) {
        cells += row
        cellWidths += rowWidths
        rowCount += 1
    }

    /// Prints the rows kept (after the header, the first time or when a column
    /// widened) and forgets them.
    mutating func printPage(into text: inout OutputText) {
        let columnCount = titles.count
        var needed = widths.isEmpty ? titles.map(\.displayWidth) : widths
        if columnCount > 0 {
            for (index, width) in cellWidths.enumerated() where width > needed[index % columnCount] {
                needed[index % columnCount] = width
            }
        }
        if needed != widths {
            widths = needed
            appendLine(titles[...], titles.map(\.displayWidth)[...], to: &text)
            text += widths.map { String(repeating: "─", count: $0) }.joined(separator: "  ") + "\n"
        }
        var start = 0
        while start < cells.count {
            appendLine(cells[start..<start + columnCount], cellWidths[start..<start + columnCount], to: &text)
            start += columnCount
        }
        cells.removeAll(keepingCapacity: true)
        cellWidths.removeAll(keepingCapacity: true)
    }

    /// Prints the last page (or the header alone, for no rows) and the row count.
    mutating func finish(into text: inout OutputText) {
        if !cells.isEmpty || widths.isEmpty { printPage(into: &text) }
        text += "(\(rowCount) \(rowCount == 1 ? "row" : "rows"))\n"
    }

    /// One line: each value padded to its column's width (numbers on the right),
    /// two spaces between columns, no spaces at the end.
    private func appendLine(_ values: ArraySlice<String>, _ valueWidths: ArraySlice<Int>, to text: inout OutputText) {
        var column = 0
        for (value, width) in zip(values, valueWidths) {
            if column > 0 { text.appendSpaces(2) }
            let padding = widths[column] - width
            if isNumeric[column] {
                text.appendSpaces(padding)
                text.append(value)
            } else {
                text.append(value)
                // The last column's padding would be trimmed at once.
                if column < widths.count - 1 { text.appendSpaces(padding) }
            }
            column += 1
        }
        text.trimTrailingSpaces()
        text.append(ascii: UInt8(ascii: "\n"))
    }
}
