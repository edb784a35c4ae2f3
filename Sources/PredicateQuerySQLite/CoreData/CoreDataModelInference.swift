// A model inferred from a Core Data store's own tables, for stores that keep no
// model (old stores have no `Z_MODELCACHE`).
//
// - Entities are the rows of `Z_PRIMARYKEY`, with their parents from `Z_SUPER`;
//   persistent-history entities (numbers from 16001 on) only when asked for.
// - Every column of a root's table that is not a system column (`Z_PK`, `Z_ENT`,
//   `Z_OPT`), an order column (`Z_FOK_…`) or an entity-number column (`Z1_BOOK`)
//   is a property of the root entity (the store cannot say which sub-entity
//   declared it; on the root, every entity of the table can read it, and rows of
//   other entities read nil), named after the column in lower case (`ZNAME` →
//   `name`), typed from the declared type Core Data writes: INTEGER → Int, FLOAT →
//   Double, DECIMAL → Decimal, TIMESTAMP → Date, VARCHAR → String, BLOB → Data.
// - A column with Core Data's foreign-key index `Z<TABLE>_Z<KEY>_INDEX` is a to-one
//   relationship when its destination can be told: from the entity numbers in its
//   `Z<n>_<KEY>` column, or the one entity named like the key (`ZUSER` → `User`, or
//   a name ending so, `ZPATIENT` → `OCKCDPatient`), and only if every key it holds
//   is a row of that entity. Its destination gets the inverse to-many, named after
//   the source entity (`tweets`). A key whose destination cannot be told stays an
//   integer attribute, with a warning.
// - A hidden key `Z<n><NAME>` is entity n's to-many relationship `name` with no
//   inverse; a join table `Z_<n><NAME>(Z_<a><X>, Z_<b><Y>)` gives entity b the
//   to-many `x` to a and entity a the to-many `y` to b, each the other's inverse.

import PredicateQuery

/// Infers a schema from a Core Data store's tables.
struct CoreDataModelInference {
    var catalog: CoreDataCatalog
    var includeHistory: Bool
    private(set) var warnings: [String] = []
    private var entities: [String: Entity] = [:]
    private var order: [String] = []

    init(catalog: CoreDataCatalog, includeHistory: Bool) {
        self.catalog = catalog
        self.includeHistory = includeHistory
    }

    mutating func infer() throws(StoreError) -> Schema {
        let stored = catalog.entities.filter { includeHistory || !$0.isHistory }
        for row in stored where Self.isName(row.name) {
            let parent = catalog.entity(number: row.parent).map(\.name)
            entities[row.name] = Entity(row.name, parent: parent)
            order.append(row.name)
        }
        for row in stored where row.parent == 0 && entities[row.name] != nil {
            try inferColumns(of: row)
        }
        try inferJoinTables()
        return Schema(entities: order.compactMap { entities[$0] })
    }

    static func isName(_ name: String) -> Bool {
        guard let first = name.first, first.isLetter || first == "_" else { return false }
        return name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
    }

    /// `ZSCREENNAME` → `screenname`.
    static func propertyName(_ column: String) -> String? {
        guard column.uppercased().hasPrefix("Z") else { return nil }
        let name = String(column.dropFirst()).lowercased()
        return isName(name) ? name : nil
    }

    private func hasProperty(_ name: String, _ entity: String) -> Bool {
        var next: String? = entity
        var seen: Set<String> = []
        while let current = next, !seen.contains(current), let found = entities[current] {
            if found.property(named: name) != nil { return true }
            seen.insert(current)
            next = found.parent
        }
        return false
    }

    private mutating func inferColumns(of root: CoreDataCatalog.StoredEntity) throws(StoreError) {
        guard let table = catalog.table(of: root) else {
            warnings.append("entity \(root.name) is left out: the store has no table for it")
            entities[root.name] = nil
            return
        }
        let columns = try catalog.columns(of: table)
        let indexed = try catalog.singleColumnIndexes(of: table)
        let names = Set(columns.map { $0.name.uppercased() })
        for column in columns {
            let upper = column.name.uppercased()
            if ["Z_PK", "Z_ENT", "Z_OPT"].contains(upper) || upper.hasPrefix("Z_") { continue }
            if let (number, name) = Self.numbered(upper) {
                if name.hasPrefix("_") { continue }  // `Z1_BOOK`: the entity number beside a key
                addHiddenKey(number: number, name: name.lowercased(), destination: root.name, column: column.name)
                continue
            }
            guard let name = Self.propertyName(column.name) else {
                warnings.append("column \(table).\(column.name) is left out: its name is not one pq can spell")
                continue
            }
            if column.declaredType == "INTEGER", indexed.contains(upper),
                try catalog.indexNamed("\(table)_\(column.name)_INDEX", on: table),
                let destination = try destination(of: column.name, in: table, besides: names)
            {
                addToOne(name, from: root.name, to: destination)
                continue
            }
            if column.declaredType == "INTEGER", indexed.contains(upper),
                try catalog.indexNamed("\(table)_\(column.name)_INDEX", on: table)
            {
                warnings.append(
                    "\(root.name).\(name) is read as a number: column \(table).\(column.name) is a key, but pq cannot tell which entity it points to"
                )
            }
            entities[root.name]?.attributes.append(Attribute(name, Self.type(column.declaredType), optional: true))
        }
    }

    /// `Z12ABC` → (12, "ABC"); `Z1_BOOK` → (1, "_BOOK").
    static func numbered(_ column: String) -> (Int, String)? {
        let rest = column.dropFirst()
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        guard column.hasPrefix("Z"), !digits.isEmpty, let number = Int(digits), digits.count < rest.count else { return nil }
        return (number, String(rest.dropFirst(digits.count)))
    }

    static func type(_ declared: String) -> AttributeType {
        switch declared {
        case "INTEGER": .integer(bits: 64)
        case "FLOAT", "REAL", "DOUBLE": .double
        case "DECIMAL": .decimal
        case "TIMESTAMP": .date
        case "VARCHAR", "TEXT": .string
        default: .data
        }
    }

    /// The entity a key column points to, if the store says so without doubt.
    private mutating func destination(
        of column: String, in table: String, besides names: Set<String>
    )
        throws(StoreError) -> String?
    {
        let key = String(column.dropFirst()).uppercased()
        var candidate: CoreDataCatalog.StoredEntity?
        if let typeColumn = names.first(where: { Self.numbered($0).map { $0.1 == "_" + key } ?? false }) {
            candidate = try commonAncestor(of: catalog.distinctIntegers(in: typeColumn, of: table))
        }
        if candidate == nil {
            let rows = catalog.entities.filter { !$0.isHistory && entities[$0.name] != nil }
            let exact = rows.filter { $0.name.uppercased() == key }
            let suffixed = rows.filter { $0.name.uppercased().hasSuffix(key) }
            candidate = exact.count == 1 ? exact[0] : (exact.isEmpty && suffixed.count == 1 ? suffixed[0] : nil)
        }
        guard let candidate, let destinationTable = catalog.table(of: candidate) else { return nil }
        let strays = try catalog.keysMissing(from: destinationTable, of: candidate, in: column, of: table)
        return strays == 0 ? candidate.name : nil
    }

    private func commonAncestor(of numbers: Set<Int>) -> CoreDataCatalog.StoredEntity? {
        guard let first = numbers.first, let row = catalog.entity(number: first) else { return nil }
        return catalog.lineage(of: row).first { numbers.isSubset(of: catalog.family(of: $0)) }
    }

    private mutating func addToOne(_ name: String, from source: String, to destination: String) {
        let inverse = inverseName(for: source, on: destination, relationship: name)
        entities[source]?.relationships.append(Relationship(name, to: destination, inverse: inverse))
        if let inverse {
            entities[destination]?.relationships.append(Relationship(inverse, toMany: source, inverse: name))
        }
    }

    /// `tweets` for Tweet, unless the destination has that name already.
    private func inverseName(for source: String, on destination: String, relationship: String) -> String? {
        let base = source.prefix(1).lowercased() + source.dropFirst() + "s"
        for name in [base, base + "Of" + relationship.prefix(1).uppercased() + relationship.dropFirst()]
        where Self.isName(name) && !hasProperty(name, destination) {
            return name
        }
        return nil
    }

    private mutating func addHiddenKey(number: Int, name: String, destination: String, column: String) {
        guard let owner = catalog.entity(number: number)?.name, entities[owner] != nil, Self.isName(name),
            !hasProperty(name, owner)
        else {
            warnings.append("column \(column) of \(destination) is left out: pq cannot tell whose relationship it is")
            return
        }
        entities[owner]?.relationships.append(Relationship(name, toMany: destination))
    }

    private mutating func inferJoinTables() throws(StoreError) {
        for (upper, table) in catalog.tableNames.sorted(by: { $0.key < $1.key }) {
            guard upper.hasPrefix("Z_"), Self.numbered("Z" + upper.dropFirst(2)) != nil else { continue }
            let keys = try catalog.columns(of: table).map { $0.name.uppercased() }.filter { !$0.hasPrefix("Z_FOK_") }
            let sides = keys.compactMap { Self.numbered("Z" + $0.dropFirst(2)) }
            guard keys.count == 2, sides.count == 2, keys.allSatisfy({ $0.hasPrefix("Z_") }),
                let a = catalog.entity(number: sides[0].0)?.name, let b = catalog.entity(number: sides[1].0)?.name,
                entities[a] != nil, entities[b] != nil
            else { continue }
            // Column Z_<a><X> holds a's keys: X is b's relationship to a.
            let x = Self.strippingSuffix(sides[0].1).lowercased()
            let y = Self.strippingSuffix(sides[1].1).lowercased()
            guard Self.isName(x), Self.isName(y), !hasProperty(x, b), !hasProperty(y, a), a != b || x != y else {
                warnings.append("join table \(table) is left out: pq cannot name its relationships")
                continue
            }
            entities[b]?.relationships.append(Relationship(x, toMany: a, inverse: y))
            entities[a]?.relationships.append(Relationship(y, toMany: b, inverse: x))
        }
    }

    /// `VOTEDBY1` → `VOTEDBY` (a join column's suffix against a clash).
    static func strippingSuffix(_ name: String) -> String {
        let stripped = String(name.reversed().drop { $0.isASCII && $0.isNumber }.reversed())
        return stripped.isEmpty ? name : stripped
    }
}
