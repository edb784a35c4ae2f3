// Prints rows as an aligned table (the default, with a row count), JSON, CSV or
// Markdown. Columns: the object's key (titled `#`, which no attribute can be
// named), its stored attributes in declaration order, then its relationships: a
// to-one as the related object's label and key, a to-many as the number of
// related objects; or the columns chosen (see `ResultFormatter+Columns`).
//
// Rows are printed as the store hands them over, one format's `RowPrinter` at a
// time (see `RowStream`): CSV, JSON and Markdown a row at a time, tables a page
// at a time (`TablePager`).
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

    /// The printer of `format`, for rows handed over one at a time.
    func printer(for format: CommandLineOptions.Format) -> any RowPrinter {
        switch format {
        case .table: TablePrinter(self)
        case .json: JSONPrinter(self)
        case .csv: CSVPrinter(self)
        case .markdown: MarkdownPrinter(self)
        }
    }

    /// All of `rows` in `format`, as one text (what streaming them prints).
    func format(_ rows: [Row], as format: CommandLineOptions.Format) -> String {
        var printer = printer(for: format)
        var text = OutputText()
        printer.start(into: &text)
        for row in rows { printer.add(row, into: &text) }
        printer.finish(into: &text)
        return text.string
    }
}

/// Prints a query's rows in one format, a row at a time, appending to a text that
/// `RowStream` writes out as it grows. Cells are read with `CellReader`s, placed
/// by the first row.
protocol RowPrinter {
    /// What comes before the first row: a header, if the format has one.
    mutating func start(into text: inout OutputText)
    /// One row (a table keeps it until its page is full).
    mutating func add(_ row: Row, into text: inout OutputText)
    /// What comes after the last row: rows still kept, a closing bracket, a row count.
    mutating func finish(into text: inout OutputText)
}
