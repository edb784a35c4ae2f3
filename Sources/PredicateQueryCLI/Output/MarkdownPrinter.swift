// Markdown output: a GitHub-flavoured table, numbers aligned right, one row a
// line as each row comes (Markdown needs no widths). `|` and `\` in a cell are
// escaped; nil prints as `nullText`.

import Foundation
import PredicateQuery
import PredicateQuerySQLite

struct MarkdownPrinter: RowPrinter {
    let formatter: ResultFormatter
    private let columns: [ResultFormatter.Column]
    private var readers: [CellReader] = []

    init(_ formatter: ResultFormatter) {
        self.formatter = formatter
        columns = formatter.columns
    }

    mutating func start(into text: inout OutputText) {
        text += "| " + columns.map { Self.cell($0.title) }.joined(separator: " | ") + " |\n"
        text += "|" + columns.map { $0.isNumeric ? " ---: |" : " --- |" }.joined() + "\n"
    }

    mutating func add(_ row: Row, into text: inout OutputText) {
        if readers.isEmpty { readers = CellReader.readers(columns, firstRow: row) }
        text += "| "
        for index in readers.indices {
            if index > 0 { text += " | " }
            text += Self.cell(readers[index].text(row, schema: formatter.schema) ?? formatter.nullText)
        }
        text += " |\n"
    }

    mutating func finish(into text: inout OutputText) {}

    /// A cell's text with `\` and `|` escaped.
    static func cell(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "|") }) else { return text }
        return text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "|", with: "\\|")
    }
}
