// Table output (the default): columns lined up a page at a time (`TablePager`),
// cells longer than `maxCellWidth` cut with an ellipsis, nil as `nullText`, then a
// row count.

import PredicateQuery
import PredicateQuerySQLite

struct TablePrinter: RowPrinter {
    /// Cells longer than this are cut, with an ellipsis.
    static let maxCellWidth = 40

    let formatter: ResultFormatter
    private let columns: [ResultFormatter.Column]
    private var pager: TablePager
    private var readers: [CellReader] = []
    /// One row's cells and their widths, kept to be refilled.
    private var row: [String] = []
    private var rowWidths: [Int] = []

    init(_ formatter: ResultFormatter, pageSize: Int = TablePager.defaultPageSize) {
        self.formatter = formatter
        columns = formatter.columns
        pager = TablePager(titles: columns.map(\.title), isNumeric: columns.map(\.isNumeric), pageSize: pageSize)
    }

    mutating func start(into text: inout OutputText) {}

    mutating func add(_ row: Row, into text: inout OutputText) {
        if readers.isEmpty { readers = CellReader.readers(columns, firstRow: row) }
        self.row.removeAll(keepingCapacity: true)
        rowWidths.removeAll(keepingCapacity: true)
        for reader in readers {
            let (cell, width) = Self.truncated(reader.text(row, schema: formatter.schema) ?? formatter.nullText)
            self.row.append(cell)
            rowWidths.append(width)
        }
        pager.add(self.row, widths: rowWidths)
        if pager.isPageFull { pager.printPage(into: &text) }
    }

    mutating func finish(into text: inout OutputText) {
        pager.finish(into: &text)
    }

    /// The text as a cell shows it, cut to `maxCellWidth` with an ellipsis, and its display width.
    static func truncated(_ text: String) -> (String, Int) {
        let width = text.displayWidth
        guard width > maxCellWidth else { return (text, width) }
        if text.isPrintableASCII {
            // One character a byte, each one cell wide.
            return (String(decoding: text.utf8.prefix(maxCellWidth - 1), as: UTF8.self) + "…", maxCellWidth)
        }
        var result = ""
        for character in text {
            if (result + String(character)).displayWidth > maxCellWidth - 1 { break }
            result.append(character)
        }
        result += "…"
        return (result, result.displayWidth)
    }
}
