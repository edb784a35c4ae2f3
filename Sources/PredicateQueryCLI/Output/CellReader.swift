// Reading one column's cells from the rows of a query. The rows of one query share
// their field names, so where a column's fields sit is found once, on the first
// row, and every row is then read by position rather than by name.

import PredicateQuery
import PredicateQuerySQLite

struct CellReader {
    /// What a column shows.
    enum Kind {
        case key
        /// A stored value: an attribute, or an attribute through to-one relationships.
        case value
        case toOne
        case toMany
    }
    let kind: Kind
    /// A stored value's type (nil for other kinds).
    let type: AttributeType?
    /// Where the column's field sits in the row's values, to-one keys, labels or counts.
    private let slot: Int?
    /// For a to-one: where its label sits.
    private let labelSlot: Int?

    init(_ column: ResultFormatter.Column, firstRow row: Row) {
        var labelSlot: Int?
        switch column.source {
        case .key:
            (kind, type, slot) = (.key, nil, nil)
        case .attribute(let attribute):
            (kind, type, slot) = (.value, attribute.type, row.values.slot(of: attribute.name))
        case .path(let path):
            (kind, type, slot) = (.value, path.attribute.type, row.values.slot(of: path.dottedName))
        case .toOne(let relationship):
            (kind, type, slot) = (.toOne, nil, row.toOne.slot(of: relationship.name))
            labelSlot = row.labels.slot(of: relationship.name)
        case .toMany(let relationship):
            (kind, type, slot) = (.toMany, nil, row.counts.slot(of: relationship.name))
        }
        self.labelSlot = labelSlot
    }

    /// Readers for `columns`, placed by the first row of a query.
    static func readers(_ columns: [ResultFormatter.Column], firstRow row: Row) -> [CellReader] {
        columns.map { CellReader($0, firstRow: row) }
    }

    /// Whether the column holds a stored value (an attribute or a path).
    var isValue: Bool { if case .value = kind { true } else { false } }

    /// An attribute or path column's stored value (`.null` for none, and for other columns).
    func value(_ row: Row) -> Value {
        guard case .value = kind, let slot else { return .null }
        return row.values[slot: slot] ?? .null
    }

    /// A to-one's target key as shown (an integer, or a text key); nil for none.
    func toOneKey(_ row: Row) -> String? {
        guard let slot else { return nil }
        return row.toOne[slot: slot].map { String($0) } ?? row.toOneKeyText?[slot: slot]
    }

    /// A to-one's target key as JSON (a number, or a text key as a string); nil for none.
    func toOneJSONKey(_ row: Row) -> String? {
        guard let slot else { return nil }
        return row.toOne[slot: slot].map { String($0) } ?? row.toOneKeyText?[slot: slot].map(ValueText.jsonString)
    }

    /// A to-one's target label, if the row has one.
    func label(_ row: Row) -> Value? {
        labelSlot.flatMap { row.labels[slot: $0] }
    }

    /// A to-many's count.
    func count(_ row: Row) -> Int64 {
        slot.flatMap { row.counts[slot: $0] } ?? 0
    }

    /// The cell's text as tables and Markdown show it; nil for nil.
    func text(_ row: Row, schema: Schema) -> String? {
        switch kind {
        case .key:
            return row.shownKey
        case .value:
            let value = self.value(row)
            if case .null = value { return nil }
            return ValueText.plain(value, type: type, schema: schema)
        case .toOne:
            guard let key = toOneKey(row) else { return nil }
            guard let label = label(row) else { return "#\(key)" }
            return ValueText.plain(label, type: .string, schema: schema) + " (#\(key))"
        case .toMany:
            return String(count(row))
        }
    }
}
