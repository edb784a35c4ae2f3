// The rows a store returns: one object's key, attribute values, to-one keys and,
// with summaries, labels and counts, in named fields shared by every row of a
// query. The same for every store.

import PredicateQuery

/// One object read from a store.
public struct Row: Sendable {
    /// The object: its entity (the most specific, for a table of several) and its key.
    public var id: ObjectID
    /// Attribute values by attribute name, decoded to the attribute's type (unset ones
    /// are absent), and the values of the query's display paths by dotted name (`budget.name`).
    public var values: RowFields<Value>
    /// The key of the object each to-one relationship points to, if any.
    public var toOne: RowFields<Int64>
    /// With summaries: the label of the object each to-one relationship points to.
    public var labels: RowFields<Value>
    /// With summaries: the number of objects in each to-many relationship.
    public var counts: RowFields<Int64>
    /// The object's key as text when it is not an integer (a PostgreSQL table keyed by
    /// a uuid or text column); `id.key` is then 0.
    public var keyText: String? = nil
    /// The key of the object each to-one relationship points to, as text, where that
    /// key is not an integer (and `toOne` has none).
    public var toOneKeyText: RowFields<String>? = nil

    /// The object's key as shown: its integer key, or its text key.
    public var shownKey: String { keyText ?? String(id.key) }

    /// The key of the object a to-one relationship points to, as shown; nil for none.
    public func shownKey(of relationship: String) -> String? {
        toOne[relationship].map { String($0) } ?? toOneKeyText?[relationship]
    }
}

/// Named fields of one row. The names are shared by every row of a query, so a row
/// holds only its values: reading many rows allocates no dictionary per row.
public struct RowFields<Element: Sendable>: Sendable {
    let names: RowFieldNames
    @usableFromInline var slots: [Element?]

    /// The value of the field `name`, or nil if the row has none.
    public subscript(name: String) -> Element? {
        guard let slot = names.slots[name] else { return nil }
        return slots[slot]
    }

    /// Where the field `name` sits in this row and in every row of the same query
    /// (they share their field names), for reading many rows with `subscript(slot:)`
    /// without looking the name up in each; nil if there is no such field.
    public func slot(of name: String) -> Int? { names.slots[name] }

    /// The value in `slot` (from `slot(of:)` on a row of the same query), or nil.
    @inlinable public subscript(slot slot: Int) -> Element? {
        slots.indices.contains(slot) ? slots[slot] : nil
    }

    /// Every field that has a value, by name.
    public var dictionary: [String: Element] {
        var result: [String: Element] = [:]
        for (name, slot) in names.slots { if let value = slots[slot] { result[name] = value } }
        return result
    }
}

/// The field names of a query's rows, and the slot of each.
final class RowFieldNames: Sendable {
    let slots: [String: Int]
    /// How many fields a row has.
    var count: Int { slots.count }

    init(_ names: [String]) {
        var slots: [String: Int] = [:]
        for (index, name) in names.enumerated() { slots[name] = index }
        self.slots = slots
    }
}
