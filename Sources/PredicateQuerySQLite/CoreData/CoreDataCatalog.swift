// What a Core Data store says about its own layout: the entities of its
// `Z_PRIMARYKEY` table (number, name, parent), its tables with their columns and
// declared types, its single-column indexes, and which entity numbers have values
// in a column. Layout discovery and model inference read the store only through
// this type. Table and column names always come from SQLite's own catalog and are
// quoted when put into SQL; nothing else is ever pasted into SQL text.

import PredicateQuery

/// The catalog of a Core Data store, read once.
struct CoreDataCatalog {
    /// A row of `Z_PRIMARYKEY`.
    struct StoredEntity: Hashable {
        var number: Int
        var name: String
        /// The parent's number; 0 for a root entity.
        var parent: Int
        /// Persistent-history entities (`CHANGE`, `TRANSACTION`, …) take numbers from 16001 on.
        var isHistory: Bool { number > 16000 }
    }

    /// A column of a table, as the catalog spells it, with its declared type.
    struct Column: Hashable {
        var name: String
        var declaredType: String
    }

    let connection: SQLiteConnection
    private(set) var entities: [StoredEntity] = []
    /// Table name (uppercased) → the name as spelled in the catalog.
    private(set) var tableNames: [String: String] = [:]
    private var columnsByTable: [String: [Column]] = [:]
    private var valuesByColumn: [String: Set<Int>] = [:]

    init(connection: SQLiteConnection) throws(StoreError) {
        self.connection = connection
        let tables = try connection.prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
        while try tables.step() {
            if case .string(let name) = tables.column(0) { tableNames[name.uppercased()] = name }
        }
        guard let primaryKey = tableNames["Z_PRIMARYKEY"] else { return }
        do {
            let statement = try connection.prepare(
                "SELECT \"Z_ENT\", \"Z_NAME\", \"Z_SUPER\" FROM \(Self.quote(primaryKey)) ORDER BY \"Z_ENT\"")
            while try statement.step() {
                guard case .int(let number) = statement.column(0), case .string(let name) = statement.column(1) else {
                    continue
                }
                var parent = 0
                if case .int(let value) = statement.column(2) { parent = Int(value) }
                entities.append(StoredEntity(number: Int(number), name: name, parent: parent))
            }
        } catch {
            throw StoreError("the store's Z_PRIMARYKEY table cannot be read (\(error.message))")
        }
    }

    /// Whether the store has a `Z_PRIMARYKEY` table: the mark of a Core Data store.
    var isCoreDataStore: Bool { tableNames["Z_PRIMARYKEY"] != nil }

    /// Whether the store keeps its compiled model (`Z_MODELCACHE`).
    var hasModelCache: Bool { tableNames["Z_MODELCACHE"] != nil }

    static func quote(_ identifier: String) -> String { SQLIdentifier.quoted(identifier) }

    func entity(number: Int) -> StoredEntity? { entities.first { $0.number == number } }

    func entity(named name: String) -> StoredEntity? { entities.first { $0.name == name } }

    /// The entity and its ancestors, nearest first (stops at a repeated number).
    func lineage(of entity: StoredEntity) -> [StoredEntity] {
        var chain = [entity]
        var seen: Set<Int> = [entity.number]
        var next = entity.parent
        while next != 0, !seen.contains(next), let parent = self.entity(number: next) {
            chain.append(parent)
            seen.insert(next)
            next = parent.parent
        }
        return chain
    }

    func root(of entity: StoredEntity) -> StoredEntity { lineage(of: entity).last ?? entity }

    /// The numbers of the entity and every entity below it.
    func family(of entity: StoredEntity) -> Set<Int> {
        Set(entities.filter { lineage(of: $0).contains { $0.number == entity.number } }.map(\.number))
    }

    /// The numbers of every entity stored in the same table as this one.
    func tableMates(of entity: StoredEntity) -> Set<Int> {
        let root = root(of: entity).number
        return Set(entities.filter { self.root(of: $0).number == root }.map(\.number))
    }

    /// The table Core Data gives an entity: `Z` + its root's name in capitals, as spelled in the catalog.
    /// Persistent-history entities live in `A` + their name (`ACHANGE`).
    func table(of entity: StoredEntity) -> String? {
        let root = root(of: entity)
        return tableNames[((root.isHistory ? "A" : "Z") + root.name).uppercased()]
    }

    /// The catalog's spelling of a table, matched without regard to case.
    func table(named name: String) -> String? { tableNames[name.uppercased()] }

    /// The columns of a table in the catalog's order (empty for no such table).
    mutating func columns(of table: String) throws(StoreError) -> [Column] {
        if let known = columnsByTable[table.uppercased()] { return known }
        let statement = try connection.prepare("SELECT name, type FROM pragma_table_info(?1)")
        try statement.bind([.string(table)])
        var columns: [Column] = []
        while try statement.step() {
            guard case .string(let name) = statement.column(0) else { continue }
            var type = ""
            if case .string(let declared) = statement.column(1) { type = declared.uppercased() }
            columns.append(Column(name: name, declaredType: type))
        }
        columnsByTable[table.uppercased()] = columns
        return columns
    }

    /// The catalog's spelling of a column of a table, matched without regard to case.
    mutating func column(_ name: String, in table: String) throws(StoreError) -> Column? {
        try columns(of: table).first { $0.name.uppercased() == name.uppercased() }
    }

    /// The entity numbers (`Z_ENT`) of the rows that hold a value (not NULL) in a column.
    mutating func entityNumbersWithValues(in column: String, of table: String) throws(StoreError) -> Set<Int> {
        let key = table.uppercased() + "." + column.uppercased()
        if let known = valuesByColumn[key] { return known }
        var numbers: Set<Int> = []
        if try self.column("Z_ENT", in: table) != nil {
            let statement = try connection.prepare(
                "SELECT DISTINCT \"Z_ENT\" FROM \(Self.quote(table)) WHERE \(Self.quote(column)) IS NOT NULL")
            while try statement.step() {
                if case .int(let number) = statement.column(0) { numbers.insert(Int(number)) }
            }
        }
        valuesByColumn[key] = numbers
        return numbers
    }

    /// The entity numbers of rows whose `column` is NULL (every row's `Z_ENT` in a
    /// table without one: none).
    mutating func entityNumbersWithNulls(in column: String, of table: String) throws(StoreError) -> Set<Int> {
        guard try self.column("Z_ENT", in: table) != nil else { return [] }
        let statement = try connection.prepare(
            "SELECT DISTINCT \"Z_ENT\" FROM \(Self.quote(table)) WHERE \(Self.quote(column)) IS NULL")
        var numbers: Set<Int> = []
        while try statement.step() {
            if case .int(let number) = statement.column(0) { numbers.insert(Int(number)) }
        }
        return numbers
    }

    /// The columns of a table that lead an index on that column alone (uppercased).
    func singleColumnIndexes(of table: String) throws(StoreError) -> Set<String> {
        let statement = try connection.prepare(
            "SELECT il.name FROM pragma_index_list(?1) AS l, pragma_index_info(l.name) AS il"
                + " WHERE (SELECT count(*) FROM pragma_index_info(l.name)) = 1")
        try statement.bind([.string(table)])
        var names: Set<String> = []
        while try statement.step() {
            if case .string(let name) = statement.column(0) { names.insert(name.uppercased()) }
        }
        return names
    }
}

extension CoreDataCatalog {
    /// Whether the table has an index of this name (matched without regard to case).
    func indexNamed(_ name: String, on table: String) throws(StoreError) -> Bool {
        let statement = try connection.prepare(
            "SELECT 1 FROM sqlite_master WHERE type = 'index' AND upper(name) = upper(?1) AND upper(tbl_name) = upper(?2)")
        try statement.bind([.string(name), .string(table)])
        return try statement.step()
    }

    /// The distinct integers a column holds.
    func distinctIntegers(in column: String, of table: String) throws(StoreError) -> Set<Int> {
        let statement = try connection.prepare(
            "SELECT DISTINCT \(Self.quote(column)) FROM \(Self.quote(table)) WHERE \(Self.quote(column)) IS NOT NULL")
        var values: Set<Int> = []
        while try statement.step() {
            if case .int(let value) = statement.column(0) { values.insert(Int(value)) }
        }
        return values
    }

    /// How many distinct keys a column holds that are not rows of `entity` (or its
    /// sub-entities) in `destination`: 0 when every key it holds points at one.
    func keysMissing(
        from destination: String, of entity: StoredEntity, in column: String, of table: String
    ) throws(StoreError) -> Int {
        guard let primaryKey = tableNames["Z_PRIMARYKEY"] else { return 1 }  // nothing proven
        let statement = try connection.prepare(
            """
            WITH RECURSIVE family(n) AS (SELECT ?1 UNION SELECT p."Z_ENT" FROM \(Self.quote(primaryKey)) p
                JOIN family ON p."Z_SUPER" = family.n)
            SELECT count(*) FROM (SELECT DISTINCT \(Self.quote(column)) AS k FROM \(Self.quote(table))
                WHERE \(Self.quote(column)) IS NOT NULL)
            WHERE k NOT IN (SELECT "Z_PK" FROM \(Self.quote(destination)) WHERE "Z_ENT" IN (SELECT n FROM family))
            """)
        try statement.bind([.int(Int64(entity.number))])
        guard try statement.step(), case .int(let count) = statement.column(0) else { return 1 }
        return Int(count)
    }
}
