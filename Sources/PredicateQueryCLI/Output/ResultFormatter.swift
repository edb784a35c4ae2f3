// Prints rows as an aligned table (the default, with a row count), JSON, CSV or
// Markdown. Columns: the object's key (titled `#`, which no attribute can be
// named), its stored attributes in declaration order, then its relationships: a
// to-one as the related object's label and key, a to-many as the number of
// related objects; or the columns chosen (see `ResultFormatter+Columns`).
//
// nil is told apart from the empty string everywhere: tables and Markdown print
// `nullText` for nil (`nil` unless changed), JSON prints null, and CSV leaves a
// nil field empty and writes an empty string as `""` (as PostgreSQL's CSV does).

import Foundation
import PredicateQuery
import PredicateQuerySQLite

struct ResultFormatter {
    let schema: Schema
    let entity: Entity
    /// What tables and Markdown print for nil.
    var nullText = ResultFormatter.defaultNullText
    /// The columns to show, by title (`#` for the key); nil for all of them.
    var chosenColumns: [String]?
    /// The chosen columns that are paths (`budget.name`), by title; each row
    /// carries their values (see `CheckedQuery.displayPaths`).
    var displayPaths: [String: AttributePath] = [:]
    /// The fields of Codable structs a store keeps one column per field, by the
    /// struct attribute's name (`author` → `author.person`, `author.place`): the
    /// query's rows carry them in place of the struct (`SQLLowering.storedAttributes`).
    var structFields: [String: [Attribute]] = [:]

    /// What tables print for nil unless told otherwise.
    static let defaultNullText = "nil"

    /// The title of the object's key, in every format.
    static let keyTitle = "#"

    /// One output column: its title and how to read it from a row.
    struct Column {
        enum Source {
            case key
            case attribute(Attribute)
            case toOne(Relationship)
            case toMany(Relationship)
            /// An attribute through to-one relationships, read from the row by its dotted name.
            case path(AttributePath)
        }
        var title: String
        var source: Source
        var isNumeric: Bool
    }

    /// Every column the entity has, in order.
    var allColumns: [Column] {
        var columns = [Column(title: Self.keyTitle, source: .key, isNumeric: true)]
        for property in schema.allProperties(of: entity) {
            switch property {
            case .attribute(let attribute) where !attribute.isTransient:
                for shown in structFields[attribute.name] ?? [attribute] {
                    let numeric: Bool =
                        switch shown.type {
                        case .integer, .double, .float, .decimal: true
                        default: false
                        }
                    columns.append(Column(title: shown.name, source: .attribute(shown), isNumeric: numeric))
                }
            case .relationship(let relationship):
                columns.append(
                    Column(
                        title: relationship.name, source: relationship.isToMany ? .toMany(relationship) : .toOne(relationship),
                        isNumeric: relationship.isToMany))
            default:
                break
            }
        }
        return columns
    }

    func format(_ rows: [Row], as format: CommandLineOptions.Format) -> String {
        switch format {
        case .table: table(rows)
        case .json: json(rows)
        case .csv: csv(rows)
        case .markdown: markdown(rows)
        }
    }

    /// A cell's text; nil for nil.
    private func text(_ row: Row, _ column: Column) -> String? {
        switch column.source {
        case .key: return row.shownKey
        case .attribute(let attribute):
            let value = row.values[attribute.name] ?? .null
            if value == .null { return nil }
            return ValueText.plain(value, type: attribute.type, schema: schema)
        case .toOne(let relationship):
            guard let key = row.shownKey(of: relationship.name) else { return nil }
            guard let label = row.labels[relationship.name] else { return "#\(key)" }
            return ValueText.plain(label, type: .string, schema: schema) + " (#\(key))"
        case .toMany(let relationship):
            return String(row.counts[relationship.name] ?? 0)
        case .path(let path):
            let value = row.values[path.dottedName] ?? .null
            if value == .null { return nil }
            return ValueText.plain(value, type: path.attribute.type, schema: schema)
        }
    }

    /// The stored value and type of an attribute or path column.
    private func stored(_ row: Row, _ column: Column) -> (Value, AttributeType)? {
        switch column.source {
        case .attribute(let attribute): (row.values[attribute.name] ?? .null, attribute.type)
        case .path(let path): (row.values[path.dottedName] ?? .null, path.attribute.type)
        default: nil
        }
    }

    // MARK: - Table

    /// Cells longer than this are cut, with an ellipsis, in tables.
    static let maxCellWidth = 40

    private func table(_ rows: [Row]) -> String {
        let columns = self.columns
        let cells = rows.map { row in columns.map { Self.truncated(text(row, $0) ?? nullText) } }
        var widths = columns.map(\.title.displayWidth)
        for row in cells {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.displayWidth) }
        }
        func line(_ values: [String], numeric: [Bool]) -> String {
            zip(values.indices, values).map { index, value in
                let padding = String(repeating: " ", count: widths[index] - value.displayWidth)
                return numeric[index] ? padding + value : value + padding
            }.joined(separator: "  ").trimmingTrailingSpaces
        }
        var lines = [line(columns.map(\.title), numeric: columns.map(\.isNumeric))]
        lines.append(widths.map { String(repeating: "─", count: $0) }.joined(separator: "  "))
        for row in cells { lines.append(line(row, numeric: columns.map(\.isNumeric))) }
        lines.append("(\(rows.count) \(rows.count == 1 ? "row" : "rows"))")
        return lines.joined(separator: "\n") + "\n"
    }

    private static func truncated(_ text: String) -> String {
        guard text.displayWidth > maxCellWidth else { return text }
        var result = ""
        for character in text {
            if (result + String(character)).displayWidth > maxCellWidth - 1 { break }
            result.append(character)
        }
        return result + "…"
    }

    // MARK: - JSON, CSV, Markdown

    private func json(_ rows: [Row]) -> String {
        let objects = rows.map { row -> String in
            let fields = Self.nestingStructFields(
                columns.map { column -> (String, String) in
                    let value: String
                    switch column.source {
                    case .key: value = row.keyText.map(ValueText.jsonString) ?? String(row.id.key)
                    case .attribute, .path:
                        let (stored, type) = stored(row, column) ?? (.null, nil)
                        value = ValueText.json(stored, type: type, schema: schema)
                    case .toOne(let relationship):
                        if let key = row.toOne[relationship.name].map({ String($0) })
                            ?? row.toOneKeyText?[relationship.name].map(ValueText.jsonString)
                        {
                            let label =
                                row.labels[relationship.name].map {
                                    ", \"label\": " + ValueText.json($0, type: .string, schema: schema)
                                } ?? ""
                            value = "{\"\(Self.keyTitle)\": \(key)\(label)}"
                        } else {
                            value = "null"
                        }
                    case .toMany(let relationship): value = String(row.counts[relationship.name] ?? 0)
                    }
                    if case .attribute = column.source, let dot = column.title.firstIndex(of: ".") {
                        return (
                            String(column.title[..<dot]),
                            "\(ValueText.jsonString(String(column.title[column.title.index(after: dot)...]))): \(value)"
                        )
                    }
                    return ("", "\(ValueText.jsonString(column.title)): \(value)")
                })
            return "  {" + fields.joined(separator: ", ") + "}"
        }
        return objects.isEmpty ? "[]\n" : "[\n" + objects.joined(separator: ",\n") + "\n]\n"
    }

    /// JSON members in order, where the fields of one struct (tagged with its name)
    /// come together as one nested object: `"author": {"person": …, "place": …}`.
    private static func nestingStructFields(_ members: [(structName: String, member: String)]) -> [String] {
        var result: [String] = []
        var index = 0
        while index < members.count {
            let name = members[index].structName
            guard !name.isEmpty else {
                result.append(members[index].member)
                index += 1
                continue
            }
            var fields: [String] = []
            while index < members.count, members[index].structName == name {
                fields.append(members[index].member)
                index += 1
            }
            result.append("\(ValueText.jsonString(name)): {" + fields.joined(separator: ", ") + "}")
        }
        return result
    }

    private func csv(_ rows: [Row]) -> String {
        func field(_ text: String?) -> String {
            guard let text else { return "" }
            if text.isEmpty { return "\"\"" }
            guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
            return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }
        let columns = self.columns
        var lines = [columns.map { field($0.title) }.joined(separator: ",")]
        for row in rows {
            lines.append(
                columns.map { column -> String in
                    if let (value, type) = stored(row, column), case .string(let raw) = value,
                        ValueText.enumCase(.string(raw), type: type, schema: schema) == nil
                    {
                        return field(raw)
                    }
                    return field(text(row, column))
                }.joined(separator: ","))
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    private func markdown(_ rows: [Row]) -> String {
        func cell(_ text: String) -> String {
            text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "|", with: "\\|")
        }
        let columns = self.columns
        var lines = ["| " + columns.map { cell($0.title) }.joined(separator: " | ") + " |"]
        lines.append("|" + columns.map { $0.isNumeric ? " ---: |" : " --- |" }.joined())
        for row in rows {
            lines.append("| " + columns.map { cell(text(row, $0) ?? nullText) }.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension String {
    var trimmingTrailingSpaces: String {
        var copy = self
        while copy.hasSuffix(" ") { copy.removeLast() }
        return copy
    }
}
