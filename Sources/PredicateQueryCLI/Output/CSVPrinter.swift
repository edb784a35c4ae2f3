// CSV output (RFC 4180): a header of column titles, then one record per row,
// written as each row comes, lines ending in CRLF. A field is quoted when it holds
// a comma, a quote, CR or LF (a quote inside doubled); nil is an empty field and
// the empty string `""`, as PostgreSQL's CSV writes them. Strings are written as
// stored, without the escaping of control characters tables use.

import PredicateQuery
import PredicateQuerySQLite

struct CSVPrinter: RowPrinter {
    let formatter: ResultFormatter
    private let columns: [ResultFormatter.Column]
    private var readers: [CellReader] = []

    init(_ formatter: ResultFormatter) {
        self.formatter = formatter
        columns = formatter.columns
    }

    mutating func start(into text: inout OutputText) {
        for (index, column) in columns.enumerated() {
            if index > 0 { text.append(ascii: UInt8(ascii: ",")) }
            Self.appendField(column.title, to: &text)
        }
        text += "\r\n"
    }

    mutating func add(_ row: Row, into text: inout OutputText) {
        if readers.isEmpty { readers = CellReader.readers(columns, firstRow: row) }
        let schema = formatter.schema
        for index in readers.indices {
            if index > 0 { text.append(ascii: UInt8(ascii: ",")) }
            let reader = readers[index]
            guard reader.isValue else {
                Self.appendField(reader.text(row, schema: schema), to: &text)
                continue
            }
            let value = reader.value(row)
            switch value {
            case .null: break
            case .string(let raw) where ValueText.enumCase(value, type: reader.type, schema: schema) == nil:
                Self.appendField(raw, to: &text)
            default:
                Self.appendField(ValueText.plain(value, type: reader.type, schema: schema), to: &text)
            }
        }
        text += "\r\n"
    }

    mutating func finish(into text: inout OutputText) {}

    /// Appends one field, quoted if it must be. The test is on bytes: `,`, `"`, CR
    /// and LF are ASCII, and no byte of another character's UTF-8 is.
    static func appendField(_ field: String?, to text: inout OutputText) {
        guard var field else { return }
        if field.isEmpty {
            text += "\"\""
            return
        }
        field.withUTF8 { bytes in
            guard bytes.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }) else {
                text.append(bytes)
                return
            }
            text.append(ascii: 0x22)
            for byte in bytes {
                if byte == 0x22 { text.append(ascii: 0x22) }
                text.append(ascii: byte)
            }
            text.append(ascii: 0x22)
        }
    }
}
