// Decoding rows straight into an app's own types.
//
// `fetch` builds a `Row` per object: every attribute as a `Value`, by name, for
// any query, which is what a tool that shows any entity needs. An app knows what
// it reads: it can decode each row into its own struct, asking for the
// attributes it uses as Swift types, as GRDB's records and hand-written SQLite
// code do, and skip building Rows. Names are checked against the query's
// columns and types against the schema, so a typo or a wrong type is an error
// that says which, not a silent nil.
//
//     struct Budget: RowDecodable {
//         var name: String
//         var limit: Double?
//         init(row: borrowing RecordRow) throws(StoreError) {
//             name = try row.string("name") ?? ""
//             limit = try row.double("limit")
//         }
//     }
//     let budgets = try store.fetch(query, as: Budget.self)

import CSQLite
import Foundation
import PredicateQuery

/// A type whose values a query's rows decode into directly (see `SQLiteStore.fetch(_:as:)`).
public protocol RowDecodable {
    /// Reads one row; `row` is valid only during the call.
    init(row: borrowing RecordRow) throws(StoreError)
}

/// The current row of a query, read by attribute name as Swift values.
public struct RecordRow {
    @usableFromInline let statement: SQLiteStatement
    @usableFromInline let layout: RecordLayout

    @usableFromInline init(statement: SQLiteStatement, layout: RecordLayout) {
        self.statement = statement
        self.layout = layout
    }

    /// The object's primary key.
    public var key: Int64 { sqlite3_column_int64(statement.handle, 0) }

    /// The object's entity: the query's, or the sub-entity the row belongs to.
    public var entity: String {
        guard let index = layout.entityColumn else { return layout.entity }
        return layout.entitiesByNumber[sqlite3_column_int64(statement.handle, index)] ?? layout.entity
    }

    /// The key of the object a to-one relationship points to; nil if none.
    public func toOne(_ relationship: String) throws(StoreError) -> Int64? {
        guard case .toOne(let index)? = layout.column(relationship, toOne: true) else {
            throw StoreError("\(layout.entity) has no to-one relationship '\(relationship)' in these rows")
        }
        return isNull(index) ? nil : sqlite3_column_int64(statement.handle, index)
    }

    /// An integer, Bool or integer-backed enum attribute, as stored.
    public func int(_ attribute: String) throws(StoreError) -> Int64? {
        let index = try column(attribute, "int") { type in
            switch type {
            case .integer, .bool, .named: true
            default: false
            }
        }
        return isNull(index) ? nil : sqlite3_column_int64(statement.handle, index)
    }

    /// A Double, Float, Decimal or integer attribute.
    public func double(_ attribute: String) throws(StoreError) -> Double? {
        let index = try column(attribute, "double") { type in
            switch type {
            case .double, .float, .decimal, .integer: true
            default: false
            }
        }
        return isNull(index) ? nil : sqlite3_column_double(statement.handle, index)
    }

    /// A Bool attribute.
    public func bool(_ attribute: String) throws(StoreError) -> Bool? {
        let index = try column(attribute, "bool") { $0 == .bool }
        return isNull(index) ? nil : sqlite3_column_int64(statement.handle, index) != 0
    }

    /// A String, URL or string-backed enum attribute, as stored.
    public func string(_ attribute: String) throws(StoreError) -> String? {
        let index = try column(attribute, "string") { type in
            switch type {
            case .string, .url, .named: true
            default: false
            }
        }
        guard !isNull(index), let text = sqlite3_column_text(statement.handle, index) else { return nil }
        let count = Int(sqlite3_column_bytes(statement.handle, index))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    /// A Date attribute, decoded from the store's encoding.
    public func date(_ attribute: String) throws(StoreError) -> Date? {
        let index = try column(attribute, "date") { $0 == .date }
        guard !isNull(index) else { return nil }
        return StoreValueEncoding.date(fromSeconds: sqlite3_column_double(statement.handle, index), layout.dates)
    }

    /// Any attribute, decoded to its type as `Row.values` holds it (`.null` if nil).
    public func value(_ attribute: String) throws(StoreError) -> Value {
        var attributeType = AttributeType.data
        let index = try column(attribute, "value") { type in
            attributeType = type
            return true
        }
        return StoreValueEncoding.decode(statement.column(index), as: attributeType, dates: layout.dates)
    }

    private func isNull(_ index: Int32) -> Bool {
        sqlite3_column_type(statement.handle, index) == SQLITE_NULL
    }

    private func column(
        _ attribute: String, _ reader: String, accepts: (AttributeType) -> Bool
    ) throws(StoreError) -> Int32 {
        guard case .attribute(let index, let type)? = layout.column(attribute, toOne: false) else {
            let names = layout.attributeNames.joined(separator: ", ")
            throw StoreError("\(layout.entity) has no attribute '\(attribute)' in these rows; they have \(names)")
        }
        guard accepts(type) else {
            throw StoreError("'\(attribute)' is a \(type) attribute of \(layout.entity); \(reader)(_:) cannot read it")
        }
        return index
    }
}

/// Where each attribute and relationship of a query's rows is, worked out once per query.
///
/// A record reads the same names in the same order on every row, so the layout
/// remembers the names the first row read, in order, and finds the n-th read of
/// a later row by comparing its name with the n-th remembered one (equal small
/// strings compare in a few instructions) before hashing it.
@usableFromInline final class RecordLayout {
    enum Column {
        case attribute(index: Int32, type: AttributeType)
        case toOne(index: Int32)
    }

    let entity: String
    let entityColumn: Int32?
    let entitiesByNumber: [Int64: String]
    let dates: DateEncoding
    private let columns: [String: Column]
    private let relationships: [String: Column]
    private var reads: [(name: String, toOne: Bool, column: Column?)] = []
    private var readIndex = 0

    @usableFromInline init(_ query: CompiledQuery, mapping: StoreMapping) {
        var columns: [String: Column] = [:]
        var relationships: [String: Column] = [:]
        var entityColumn: Int32?
        for (index, column) in query.columns.enumerated() {
            switch column {
            case .attribute(let attribute): columns[attribute.name] = .attribute(index: Int32(index), type: attribute.type)
            case .toOne(let relationship): relationships[relationship.name] = .toOne(index: Int32(index))
            case .entityNumber: entityColumn = Int32(index)
            case .primaryKey, .toOneLabel, .toManyCount: break
            }
        }
        entity = query.query.entity.name
        // Only a table several entities share says which one a row belongs to.
        if mapping.entity(entity)?.entityNumbers == nil { entityColumn = nil }
        var entitiesByNumber: [Int64: String] = [:]
        if entityColumn != nil {
            for (name, number) in mapping.entityNumbers { entitiesByNumber[Int64(number)] = name }
        }
        self.columns = columns
        self.relationships = relationships
        self.entityColumn = entityColumn
        self.entitiesByNumber = entitiesByNumber
        dates = mapping.dateEncoding
    }

    var attributeNames: [String] { columns.keys.sorted() }

    /// Called before each row is decoded.
    @usableFromInline func startRow() { readIndex = 0 }

    func column(_ name: String, toOne: Bool) -> Column? {
        defer { readIndex += 1 }
        if readIndex < reads.count {
            let read = reads[readIndex]
            if read.toOne == toOne, read.name == name { return read.column }
        }
        let column = toOne ? relationships[name] : columns[name]
        if readIndex == reads.count { reads.append((name, toOne, column)) }
        return column
    }
}

extension SQLiteStore {
    /// The rows of a compiled query, each decoded into a `Record`, in the query's order.
    @inlinable
    public func fetch<Record: RowDecodable>(
        _ query: CompiledQuery, as type: Record.Type, parameters: [String: ParameterValue] = [:],
        environment: QueryEnvironment = QueryEnvironment()
    ) throws(StoreError) -> [Record] {
        guard !query.isCount else {
            throw StoreError("a query compiled with count: true has no objects to decode; run it with count(_:)")
        }
        let statement = try prepared(query, parameters: parameters, environment: environment)
        let row = RecordRow(statement: statement, layout: RecordLayout(query, mapping: mapping))
        var records: [Record] = []
        while try statement.step() {
            row.layout.startRow()
            records.append(try Record(row: row))
        }
        return records
    }
}
