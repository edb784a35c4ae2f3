// JSON output: an array of one object per row, one row a line, written as each
// row comes. Keys as numbers (or strings for text keys), to-ones as
// `{"#": key, "label": …}`, to-manys as counts, the fields of a struct nested as
// one object (`"author": {"person": …, "place": …}`).

import PredicateQuery
import PredicateQuerySQLite

struct JSONPrinter: RowPrinter {
    let formatter: ResultFormatter
    private let columns: [ResultFormatter.Column]
    /// Each column's member name as JSON, with its colon: `"note": `.
    private let memberNames: [String]
    /// The struct each column is a field of, for the fields of a struct stored one
    /// column per field (titled `author.person`); empty for none.
    private let structNames: [String]
    private var readers: [CellReader] = []
    private var rowCount = 0

    init(_ formatter: ResultFormatter) {
        self.formatter = formatter
        columns = formatter.columns
        var memberNames: [String] = []
        var structNames: [String] = []
        for column in columns {
            if case .attribute = column.source, let dot = column.title.firstIndex(of: ".") {
                structNames.append(String(column.title[..<dot]))
                memberNames.append(ValueText.jsonString(String(column.title[column.title.index(after: dot)...])) + ": ")
            } else {
                structNames.append("")
                memberNames.append(ValueText.jsonString(column.title) + ": ")
            }
        }
        self.memberNames = memberNames
        self.structNames = structNames
    }

    mutating func start(into text: inout OutputText) {}

    mutating func add(_ row: Row, into text: inout OutputText) {
        if readers.isEmpty { readers = CellReader.readers(columns, firstRow: row) }
        text += rowCount == 0 ? "[\n  {" : ",\n  {"
        rowCount += 1
        // The struct whose nested object is open; empty for none.
        var openStruct = ""
        for index in readers.indices {
            let structName = structNames[index]
            if structName != openStruct {
                if !openStruct.isEmpty { text += "}" }
                if index > 0 { text += ", " }
                if !structName.isEmpty { text += ValueText.jsonString(structName) + ": {" }
                openStruct = structName
            } else if index > 0 {
                text += ", "
            }
            text += memberNames[index]
            text += value(row, readers[index])
        }
        if !openStruct.isEmpty { text += "}" }
        text += "}"
    }

    mutating func finish(into text: inout OutputText) {
        text += rowCount == 0 ? "[]\n" : "\n]\n"
    }

    /// One column of a row as a JSON value.
    private func value(_ row: Row, _ reader: CellReader) -> String {
        let schema = formatter.schema
        switch reader.kind {
        case .key:
            return row.keyText.map(ValueText.jsonString) ?? String(row.id.key)
        case .value:
            return ValueText.json(reader.value(row), type: reader.type, schema: schema)
        case .toOne:
            guard let key = reader.toOneJSONKey(row) else { return "null" }
            let label = reader.label(row).map { ", \"label\": " + ValueText.json($0, type: .string, schema: schema) } ?? ""
            return "{\"\(ResultFormatter.keyTitle)\": \(key)\(label)}"
        case .toMany:
            return String(reader.count(row))
        }
    }
}
