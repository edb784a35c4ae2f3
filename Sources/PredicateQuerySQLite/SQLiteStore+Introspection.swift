// Opening SQLite files pq did not create, without model files.
//
// A store pq created carries its schema in `PQ_SCHEMA`. Any other file opened
// without a schema is one of two things:
//
// - a Core Data / SwiftData store (it has `Z_PRIMARYKEY` and `Z_METADATA`), opened
//   with the model from the store (see `CoreData/SQLiteStore+CoreData`);
// - a plain SQLite database, read by introspection into a schema and a plain
//   mapping that names every table and column exactly as the database does.
//
// Introspection's rules:
// - Every table is an entity of the same name, except SQLite's own (`sqlite_…`) and
//   tables whose name pq cannot spell (letters, digits and underscores, not starting
//   with a digit), which are left out with a warning. Views are not read.
// - The key of an object is the table's INTEGER PRIMARY KEY column, or else its
//   rowid (the mapping's primary key is then `rowid`, or `_rowid_` or `oid` when a
//   column already has that name). A WITHOUT ROWID table is kept only if its primary
//   key is a single column of integer affinity. The key is also an attribute, so
//   `id == 3` and `rowid in [1, 2]` work.
// - Every column whose name pq can spell is an attribute, typed from its declared
//   type by SQLite's affinity rules, in SQLite's order: a type containing `INT` is
//   Int; `CHAR`, `CLOB` or `TEXT`, String; `BLOB` or no type, Data; `REAL`, `FLOA`
//   or `DOUB`, Double. Of the rest (NUMERIC affinity), a type containing `BOOL` is
//   Bool (0 and 1); one containing `DATE` or `TIME` (DATE, DATETIME, TIMESTAMP) is a
//   Date if its first stored value is a number — read as seconds since 1970, the
//   Unix time SQLite's date functions use — and otherwise a String, because pq's
//   dates are numbers and text dates cannot be compared as dates (ISO 8601 text
//   compares chronologically as a String); anything else (NUMERIC, DECIMAL, …) is
//   Double. A NOT NULL column (and the key) is non-optional; others are optional.
// - A single-column foreign key to a table's INTEGER PRIMARY KEY is a to-one
//   relationship named after its column without a trailing `_id`, `Id` or `ID`
//   (`budget_id` → `budget`; the column stays an attribute). A column with no such
//   suffix gives its name to the relationship and is not an attribute (its value is
//   `budget.id`); a primary key that is also a foreign key names the relationship
//   after the table it points to. The table pointed to gets the inverse to-many,
//   named after the referencing table in lower camel case, pluralised simply
//   (`transaction` → `transactions`, `order_line` → `orderLines`, `category` →
//   `categories`, a name ending in a single `s` is taken as plural already).
// - What cannot be read — a composite foreign key, one to a column other than an
//   integer key, a relationship whose name is taken or would be given twice — is
//   left out, with a warning saying so. `open(at:readOnly:warnings:)` returns the
//   warnings; `open(at:)` drops them. A database with no table left is an error
//   that gives the reasons.

import Foundation
import PredicateQuery

extension SQLiteStore {
    /// Opens a store as `open(at:readOnly:)` does, and appends to `warnings` one
    /// sentence for each table, column or foreign key that introspection had to leave
    /// out of the schema (none for a store pq created). A Core Data store is read with
    /// the model in its `Z_MODELCACHE`, decoded by `modelCache`, or else with a model
    /// inferred from its tables.
    public static func open(
        at path: String, readOnly: Bool = true, includeHistory: Bool = false, modelCache: ModelCacheReader? = nil,
        warnings: inout [String]
    ) throws(StoreError) -> SQLiteStore {
        try StoreFileDiagnosis.checkBeforeOpening(path)
        let connection = try SQLiteConnection(path: path, readOnly: readOnly)
        let hasStoredSchema: Bool
        do throws(StoreError) {
            hasStoredSchema = try hasTable(schemaTable, in: connection)
        } catch where error.kind == .busy {
            throw StoreError("'\(path)': \(error.message)", code: error.code, kind: .busy)
        } catch {
            throw StoreError(StoreFileDiagnosis.unreadable(path, sqliteMessage: error.message), code: error.code, kind: .corrupt)
        }
        if hasStoredSchema {
            let store = try open(at: path, readOnly: readOnly)
            warnings += store.warnings  // a snapshot's warning, if it is read from a private copy
            return store
        }
        // A store read from a private copy says first that its answers are a snapshot.
        if let warning = connection.snapshotWarning { warnings.append(warning) }
        return try introspected(
            connection, path: path, readOnly: readOnly, includeHistory: includeHistory, modelCache: modelCache,
            warnings: &warnings)
    }

    /// Whether the database has a table of this name (in any case, as SQLite matches names).
    static func hasTable(_ name: String, in connection: SQLiteConnection) throws(StoreError) -> Bool {
        let statement = try connection.prepare(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND lower(name) = lower(?1) LIMIT 1")
        try statement.bind([.string(name)])
        return try statement.step()
    }

    /// A store for a database pq did not create, opened without a schema: the model
    /// from the store for a Core Data store, the introspected schema for any other.
    static func introspected(
        _ connection: SQLiteConnection, path: String, readOnly: Bool, includeHistory: Bool = false,
        modelCache: ModelCacheReader? = nil, warnings: inout [String]
    ) throws(StoreError) -> SQLiteStore {
        var introspector = Introspector(connection: connection)
        let tables = try introspector.tableNames()
        let upper = Set(tables.map { $0.uppercased() })
        if upper.contains("Z_PRIMARYKEY"), upper.contains("Z_METADATA") {
            return try coreDataWithoutModel(
                connection, path: path, readOnly: readOnly, includeHistory: includeHistory, modelCache: modelCache,
                warnings: &warnings)
        }
        let (schema, mapping) = try introspector.read(tables)
        guard !schema.entities.isEmpty else {
            let reasons = introspector.warnings.isEmpty ? "" : ": " + introspector.warnings.joined(separator: "; ")
            throw StoreError("'\(path)' has no tables pq can query\(reasons)")
        }
        if let problem = schema.validate().first {
            throw StoreError("cannot read the tables of '\(path)' as a schema: \(problem.message)")
        }
        warnings += introspector.warnings
        return SQLiteStore(schema: schema, mapping: mapping, connection: connection, readOnly: readOnly)
    }
}

/// Reads a plain SQLite database's tables as a schema and a plain mapping (see the
/// rules at the top of this file), collecting a warning for everything left out.
struct Introspector {
    let connection: SQLiteConnection
    /// One sentence for each table, column or foreign key left out.
    private(set) var warnings: [String] = []

    init(connection: SQLiteConnection) {
        self.connection = connection
    }

    /// A column, as `PRAGMA table_info` describes it.
    struct Column {
        var name: String
        var declaredType: String
        var isNotNull: Bool
        /// 1-based position in the primary key; 0 when not part of it.
        var primaryKeyPosition: Int64
    }

    /// A single-column foreign key, as `PRAGMA foreign_key_list` describes it.
    struct ForeignKey {
        var column: String
        var table: String
        /// The column referred to; nil for the table's primary key.
        var referencedColumn: String?
    }

    /// A table that becomes an entity.
    struct Table {
        var name: String
        var columns: [Column]
        /// The key column, or the rowid's name.
        var key: String
        /// Whether `key` is a declared column (rather than the rowid).
        var keyIsColumn: Bool
    }

    /// A to-one relationship to be declared.
    private struct Link {
        var source: String
        var name: String
        var column: String
        var destination: String
        var isOptional: Bool
        var inverse: String?
    }

    private static let spellingRule = "letters, digits and underscores, not starting with a digit"

    // MARK: - Reading the database

    /// The user tables, in the order they were created.
    func tableNames() throws(StoreError) -> [String] {
        let statement = try connection.prepare(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY rowid")
        var names: [String] = []
        while try statement.step() {
            if case .string(let name) = statement.column(0) { names.append(name) }
        }
        return names
    }

    private func columns(of table: String) throws(StoreError) -> [Column] {
        let statement = try connection.prepare(
            "SELECT name, type, \"notnull\", pk FROM pragma_table_info(?1) ORDER BY cid")
        try statement.bind([.string(table)])
        var columns: [Column] = []
        while try statement.step() {
            guard case .string(let name) = statement.column(0) else { continue }
            let type: String
            if case .string(let declared) = statement.column(1) { type = declared } else { type = "" }
            let notNull: Bool
            if case .int(let flag) = statement.column(2) { notNull = flag != 0 } else { notNull = false }
            let position: Int64
            if case .int(let number) = statement.column(3) { position = number } else { position = 0 }
            columns.append(Column(name: name, declaredType: type, isNotNull: notNull, primaryKeyPosition: position))
        }
        return columns
    }

    /// The single-column foreign keys of a table; composite ones are left out with a warning.
    private mutating func foreignKeys(of table: String) throws(StoreError) -> [ForeignKey] {
        let statement = try connection.prepare(
            "SELECT id, \"table\", \"from\", \"to\" FROM pragma_foreign_key_list(?1) ORDER BY id, seq")
        try statement.bind([.string(table)])
        var byID: [(id: Int64, keys: [ForeignKey])] = []
        while try statement.step() {
            guard case .int(let id) = statement.column(0), case .string(let target) = statement.column(1),
                case .string(let column) = statement.column(2)
            else { continue }
            var referenced: String?
            if case .string(let name) = statement.column(3) { referenced = name }
            let key = ForeignKey(column: column, table: target, referencedColumn: referenced)
            if let last = byID.indices.last, byID[last].id == id {
                byID[last].keys.append(key)
            } else {
                byID.append((id, [key]))
            }
        }
        var keys: [ForeignKey] = []
        // SQLite numbers foreign keys from the last declared; report them in declaration order.
        for (_, group) in byID.reversed() {
            guard let first = group.first else { continue }
            if group.count > 1 {
                let columns = group.map(\.column).joined(separator: ", ")
                warnings.append(
                    "the foreign key (\(columns)) of '\(table)' to '\(first.table)' is left out: pq follows only single-column foreign keys"
                )
            } else {
                keys.append(first)
            }
        }
        return keys
    }

    /// Whether the table has a rowid that can be read under `name`.
    private func hasRowid(_ table: String, named name: String) -> Bool {
        // Qualified, so a missing rowid is an error rather than a string literal.
        (try? connection.prepare("SELECT t0.\(quote(name)) FROM \(quote(table)) AS t0 LIMIT 0")) != nil
    }

    /// The type of the first non-null value stored in a column (`integer`, `real`, `text`, `blob`), if any.
    private func firstStoredType(of column: String, in table: String) throws(StoreError) -> String? {
        let statement = try connection.prepare(
            "SELECT typeof(t0.\(quote(column))) FROM \(quote(table)) AS t0 WHERE t0.\(quote(column)) IS NOT NULL LIMIT 1")
        guard try statement.step(), case .string(let type) = statement.column(0) else { return nil }
        return type
    }

    // MARK: - Building the schema

    /// The schema and mapping of the named tables.
    mutating func read(_ names: [String]) throws(StoreError) -> (Schema, StoreMapping) {
        var tables: [Table] = []
        for name in names {
            guard PlainName.isPlain(name) else {
                warnings.append(
                    "table '\(name)' is left out: its name is not one pq can spell (\(Self.spellingRule))")
                continue
            }
            let columns = try columns(of: name)
            guard let (key, keyIsColumn) = primaryKey(of: name, columns: columns) else {
                warnings.append(
                    "table '\(name)' is left out: it is a WITHOUT ROWID table whose primary key is not one integer column, so its rows have no integer key"
                )
                continue
            }
            tables.append(Table(name: name, columns: columns, key: key, keyIsColumn: keyIsColumn))
        }

        var attributes: [String: [Attribute]] = [:]
        var entityMappings: [String: EntityMapping] = [:]
        for table in tables {
            var tableAttributes: [Attribute] = []
            var columns: [String: String] = [:]
            if !table.keyIsColumn {
                tableAttributes.append(Attribute(table.key, .integer(bits: 64)))
                columns[table.key] = table.key
            }
            for column in table.columns {
                guard PlainName.isPlain(column.name) else {
                    warnings.append(
                        "column '\(column.name)' of '\(table.name)' is left out: its name is not one pq can spell (\(Self.spellingRule))"
                    )
                    continue
                }
                let isKey = table.keyIsColumn && column.name == table.key
                let type: AttributeType
                if isKey { type = .integer(bits: 64) } else { type = try attributeType(of: column, in: table.name) }
                tableAttributes.append(Attribute(column.name, type, optional: !(isKey || column.isNotNull)))
                columns[column.name] = column.name
            }
            attributes[table.name] = tableAttributes
            entityMappings[table.name] = EntityMapping(table: table.name, primaryKey: table.key, columns: columns)
        }

        var links = try toOneLinks(tables, attributes: attributes)
        // A column that gives its name to its relationship is no longer an attribute.
        for link in links where link.name == link.column {
            attributes[link.source]?.removeAll { $0.name == link.column }
            entityMappings[link.source]?.columns[link.column] = nil
        }
        nameInverses(&links, attributes: attributes)

        var relationships: [String: [Relationship]] = [:]
        var relationshipMappings: [String: RelationshipMapping] = [:]
        for link in links {
            relationships[link.source, default: []].append(
                Relationship(link.name, to: link.destination, optional: link.isOptional, inverse: link.inverse))
            relationshipMappings["\(link.source).\(link.name)"] = .foreignKey(column: link.column)
        }
        for link in links {
            guard let inverse = link.inverse else { continue }
            relationships[link.destination, default: []].append(
                Relationship(inverse, toMany: link.source, inverse: link.name))
            relationshipMappings["\(link.destination).\(inverse)"] = .inverseForeignKey(column: link.column)
        }

        let entities = tables.map { table in
            Entity(table.name, attributes: attributes[table.name] ?? [], relationships: relationships[table.name] ?? [])
        }
        var numbers: [String: Int] = [:]
        for (index, table) in tables.enumerated() { numbers[table.name] = index + 1 }
        let mapping = StoreMapping(
            .plain, entities: entityMappings, relationships: relationshipMappings, entityNumbers: numbers,
            dates: .secondsSince1970)
        return (Schema(entities: entities), mapping)
    }

    /// The key of a table's rows: its INTEGER PRIMARY KEY column, else its rowid,
    /// else (WITHOUT ROWID) a single primary key column of integer affinity.
    private func primaryKey(of table: String, columns: [Column]) -> (String, Bool)? {
        let keyColumns = columns.filter { $0.primaryKeyPosition > 0 }
        let single = keyColumns.count == 1 ? keyColumns.first : nil
        if let single, single.declaredType.uppercased() == "INTEGER" { return (single.name, true) }
        let taken = Set(columns.map { $0.name.lowercased() })
        for name in ["rowid", "_rowid_", "oid"] where !taken.contains(name) {
            if hasRowid(table, named: name) { return (name, false) }
            break
        }
        if let single, Self.affinity(of: single.declaredType) == .integer { return (single.name, true) }
        return nil
    }

    /// The to-one relationships of every table's foreign keys, without names that clash.
    private mutating func toOneLinks(_ tables: [Table], attributes: [String: [Attribute]]) throws(StoreError) -> [Link] {
        var byName: [String: Table] = [:]
        for table in tables { byName[table.name.lowercased()] = table }
        var links: [Link] = []
        for table in tables {
            var candidates: [Link] = []
            for key in try foreignKeys(of: table.name) {
                let label = "the foreign key '\(table.name).\(key.column)'"
                guard let destination = byName[key.table.lowercased()] else {
                    warnings.append("\(label) is left out: it refers to '\(key.table)', which is not a table pq reads")
                    continue
                }
                guard destination.keyIsColumn,
                    key.referencedColumn.map({ $0.lowercased() == destination.key.lowercased() }) ?? true
                else {
                    let referenced = key.referencedColumn.map { "'\(destination.name).\($0)'" } ?? "'\(destination.name)'"
                    warnings.append(
                        "\(label) is left out: it refers to \(referenced), which is not an INTEGER PRIMARY KEY column")
                    continue
                }
                guard let column = table.columns.first(where: { $0.name == key.column }), PlainName.isPlain(column.name) else {
                    warnings.append("\(label) is left out: its column's name is not one pq can spell")
                    continue
                }
                let isKey = table.keyIsColumn && column.name == table.key
                let name: String
                if isKey {
                    name = Self.lowerCamel(destination.name)
                } else {
                    name = Self.strippingKeySuffix(column.name) ?? column.name
                }
                candidates.append(
                    Link(
                        source: table.name, name: name, column: column.name, destination: destination.name,
                        isOptional: !(isKey || column.isNotNull), inverse: nil))
            }
            let attributeNames = Set((attributes[table.name] ?? []).map(\.name))
            for candidate in candidates {
                let label = "the foreign key '\(table.name).\(candidate.column)'"
                if candidates.filter({ $0.name == candidate.name }).count > 1 {
                    warnings.append(
                        "\(label) is left out: another foreign key of '\(table.name)' would also be called '\(candidate.name)'")
                } else if attributeNames.contains(candidate.name), candidate.name != candidate.column {
                    warnings.append(
                        "\(label) is left out: its relationship would be called '\(candidate.name)', which is a column of '\(table.name)'"
                    )
                } else {
                    links.append(candidate)
                }
            }
        }
        return links
    }

    /// Names the to-many inverse of each link on its destination, unless the name is taken or ambiguous.
    private mutating func nameInverses(_ links: inout [Link], attributes: [String: [Attribute]]) {
        let names = links.map { EnglishPlural.of(Self.lowerCamel($0.source)) }
        for index in links.indices {
            let link = links[index]
            let name = names[index]
            let label = "'\(link.destination)' gets no relationship back for the foreign key '\(link.source).\(link.column)'"
            let sameName = links.indices.filter { links[$0].destination == link.destination && names[$0] == name }
            let taken =
                (attributes[link.destination] ?? []).contains { $0.name == name }
                || links.contains { $0.source == link.destination && $0.name == name }
            if !PlainName.isPlain(name) {
                warnings.append("\(label): '\(name)' is not a name pq can spell")
            } else if sameName.count > 1 {
                warnings.append(
                    "\(label): several foreign keys to '\(link.destination)' would give it a relationship called '\(name)'")
            } else if taken {
                warnings.append("\(label): '\(link.destination)' already has a property called '\(name)'")
            } else {
                links[index].inverse = name
            }
        }
    }

    // MARK: - Types

    /// SQLite's column affinities.
    enum Affinity {
        case integer, text, blob, real, numeric
    }

    /// The affinity of a declared column type, by SQLite's rules (in their order).
    ///
    /// Read as SQLite reads it: byte by byte, ASCII letters in either case and
    /// nothing else folded (so a Unicode `ı` is not an `I`). Every store pq opens
    /// asks this of each column, so it makes no `String` and asks Foundation nothing.
    static func affinity(of declaredType: String) -> Affinity {
        var type = Array(declaredType.utf8)
        for index in type.indices where type[index] >= UInt8(ascii: "a") && type[index] <= UInt8(ascii: "z") {
            type[index] -= 32
        }
        func has(_ word: StaticString) -> Bool {
            let count = word.utf8CodeUnitCount
            guard type.count >= count else { return false }
            return word.withUTF8Buffer { word in
                (0...(type.count - count)).contains { start in (0..<count).allSatisfy { type[start + $0] == word[$0] } }
            }
        }
        if has("INT") { return .integer }
        if has("CHAR") || has("CLOB") || has("TEXT") { return .text }
        if has("BLOB") || declaredType.unicodeScalars.allSatisfy(Self.isBlankInDeclaredType) { return .blob }
        if has("REAL") || has("FLOA") || has("DOUB") { return .real }
        return .numeric
    }

    /// A tab or a space separator (Unicode's Zs): a declared type of only these is no type.
    private static func isBlankInDeclaredType(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\t" || scalar.properties.generalCategory == .spaceSeparator
    }

    /// The attribute type of a column, from its declared type (see the rules at the top of this file).
    private func attributeType(of column: Column, in table: String) throws(StoreError) -> AttributeType {
        switch Self.affinity(of: column.declaredType) {
        case .integer: return .integer(bits: 64)
        case .text: return .string
        case .blob: return .data
        case .real: return .double
        case .numeric:
            let type = column.declaredType.uppercased()
            if type.contains("BOOL") { return .bool }
            if type.contains("DATE") || type.contains("TIME") {
                let stored = try firstStoredType(of: column.name, in: table)
                return stored == "integer" || stored == "real" ? .date : .string
            }
            return .double
        }
    }

    // MARK: - Names


    /// A foreign-key column's name without its trailing `_id`, `Id` or `ID`, if it has one.
    static func strippingKeySuffix(_ column: String) -> String? {
        for suffix in ["_id", "Id", "ID"] where column.hasSuffix(suffix) {
            let stem = String(column.dropLast(suffix.count))
            return PlainName.isPlain(stem) ? stem : nil
        }
        return nil
    }

    /// A table name in lower camel case: `transaction` → `transaction`, `Order_Line` →
    /// `orderLine`, `URLCache` → `urlCache`, `BUDGET` → `budget`.
    static func lowerCamel(_ name: String) -> String {
        let words = name.split(separator: "_").map(String.init)
        guard let first = words.first else { return name }
        var result: String
        if first == first.uppercased() {
            result = first.lowercased()
        } else {
            let capitals = first.prefix { $0.isUppercase }.count
            let lowered = max(1, capitals - 1)
            result = first.prefix(lowered).lowercased() + first.dropFirst(lowered)
        }
        for word in words.dropFirst() {
            let rest = word == word.uppercased() ? word.dropFirst().lowercased() : String(word.dropFirst())
            result += word.prefix(1).uppercased() + rest
        }
        return PlainName.isPlain(result) ? result : name
    }

}

/// An identifier quoted for SQL.
private func quote(_ identifier: String) -> String { SQLIdentifier.quoted(identifier) }
