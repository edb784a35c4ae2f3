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
        guard let index = layout.entityColumn, let names = layout.entitiesByNumber else { return layout.entity }
        return names[sqlite3_column_int64(statement.handle, index)] ?? layout.entity
    }

    /// The key of the object a to-one relationship points to; nil if none.
    public func toOne(_ relationship: String) throws(StoreError) -> Int64? {
        integer(at: try layout.column(relationship, .toOne))
    }

    /// An integer, Bool or integer-backed enum attribute, as stored.
    public func int(_ attribute: String) throws(StoreError) -> Int64? {
        integer(at: try layout.column(attribute, .int))
    }

    /// A Double, Float, Decimal or integer attribute.
    public func double(_ attribute: String) throws(StoreError) -> Double? {
        let index = try layout.column(attribute, .double)
        let number = sqlite3_column_double(statement.handle, index)
        return number == 0 && isNull(index) ? nil : number
    }

    /// A Bool attribute.
    public func bool(_ attribute: String) throws(StoreError) -> Bool? {
        integer(at: try layout.column(attribute, .bool)).map { $0 != 0 }
    }

    /// A String, URL or string-backed enum attribute, as stored.
    public func string(_ attribute: String) throws(StoreError) -> String? {
        statement.text(try layout.column(attribute, .string))
    }

    /// A Date attribute, decoded from the store's encoding.
    public func date(_ attribute: String) throws(StoreError) -> Date? {
        let index = try layout.column(attribute, .date)
        let seconds = sqlite3_column_double(statement.handle, index)
        guard seconds != 0 || !isNull(index) else { return nil }
        return StoreValueEncoding.date(fromSeconds: seconds, layout.dates)
    }

    /// Any attribute, decoded to its type as `Row.values` holds it (`.null` if nil).
    public func value(_ attribute: String) throws(StoreError) -> Value {
        let index = try layout.column(attribute, .value)
        let type = layout.type(of: attribute) ?? .data
        return StoreValueEncoding.decode(statement.column(index), as: type, dates: layout.dates)
    }

    /// An integer column; its type is asked only when the value reads as 0,
    /// which is how SQLite reads NULL.
    private func integer(at index: Int32) -> Int64? {
        let number = sqlite3_column_int64(statement.handle, index)
        return number == 0 && isNull(index) ? nil : number
    }

    private func isNull(_ index: Int32) -> Bool {
        sqlite3_column_type(statement.handle, index) == SQLITE_NULL
    }
}

/// Where each attribute and relationship of a query's rows is, worked out once per query.
///
/// A record reads the same names with the same readers in the same order on every
/// row, so the layout remembers the reads of the first row, checked, in order,
/// and answers the n-th read of a later row by comparing it with the n-th
/// remembered one (equal small strings compare in a few instructions) instead of
/// hashing the name and checking its type again.
@usableFromInline final class RecordLayout {
    /// The readers of `RecordRow`, each taking some attribute types.
    enum Reader: UInt8 {
        case int, double, bool, string, date, value, toOne

        func accepts(_ type: AttributeType) -> Bool {
            switch (self, type) {
            case (.value, _), (.int, .integer), (.int, .bool), (.int, .named), (.double, .double), (.double, .float),
                (.double, .decimal), (.double, .integer), (.bool, .bool), (.string, .string), (.string, .url),
                (.string, .named), (.date, .date):
                true
            default: false
            }
        }
    }

    struct Column {
        var index: Int32
        var type: AttributeType
    }

    private struct Read {
        var name: String
        var reader: Reader
        var index: Int32
    }

    let entity: String
    let entityColumn: Int32?
    let entitiesByNumber: [Int64: String]?
    let dates: DateEncoding
    private let attributes: [String: Column]
    private let relationships: [String: Int32]
    @exclusivity(unchecked) private var reads: [Read] = []
    @exclusivity(unchecked) private var readIndex = 0

    @usableFromInline init(_ query: CompiledQuery, mapping: StoreMapping) {
        var attributes: [String: Column] = [:]
        var relationships: [String: Int32] = [:]
        var entityColumn: Int32?
        for (index, column) in query.columns.enumerated() {
            switch column {
            case .attribute(let attribute): attributes[attribute.name] = Column(index: Int32(index), type: attribute.type)
            case .toOne(let relationship): relationships[relationship.name] = Int32(index)
            case .entityNumber: entityColumn = Int32(index)
            case .primaryKey, .toOneLabel, .toManyCount, .displayPath: break
            }
        }
        entity = query.query.entity.name
        entitiesByNumber = mapping.entitiesByNumber(forRowsOf: entity)
        self.attributes = attributes
        self.relationships = relationships
        self.entityColumn = entityColumn
        dates = mapping.dateEncoding
    }

    /// Called before each row is decoded.
    @usableFromInline func startRow() { readIndex = 0 }

    /// The column `reader` reads for `name`, or an error that says what is wrong.
    func column(_ name: String, _ reader: Reader) throws(StoreError) -> Int32 {
        let position = readIndex
        readIndex = position &+ 1
        if position < reads.count {
            let read = reads[position]
            if read.reader == reader, read.name == name { return read.index }
        }
        let index = try lookUp(name, reader).index
        if position == reads.count { reads.append(Read(name: name, reader: reader, index: index)) }
        return index
    }

    func type(of attribute: String) -> AttributeType? { attributes[attribute]?.type }

    private func lookUp(_ name: String, _ reader: Reader) throws(StoreError) -> Column {
        if reader == .toOne {
            guard let index = relationships[name] else {
                throw StoreError("\(entity) has no to-one relationship '\(name)' in these rows")
            }
            return Column(index: index, type: .integer(bits: 64))
        }
        guard let column = attributes[name] else {
            let names = attributes.keys.sorted().joined(separator: ", ")
            throw StoreError("\(entity) has no attribute '\(name)' in these rows; they have \(names)")
        }
        guard reader.accepts(column.type) else {
            throw StoreError("'\(name)' is a \(column.type) attribute of \(entity); \(reader)(_:) cannot read it")
        }
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
        try query.checkFetchable()
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
