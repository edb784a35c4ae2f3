// Which column holds each attribute and to-one relationship.
//
// Core Data names a column `Z` + the property's name in capitals. Properties of
// the same name declared on sibling sub-entities that share one table would get
// the same name, so all but the first get a number: `ZTITLE`, `ZTITLE1`,
// `ZTITLE2`. Which sibling gets which number is not predictable from the model,
// so each claim is settled from the store's data: a column whose values (non-NULL)
// are all in rows of one claimant's entities (its `Z_ENT` and its sub-entities')
// belongs to that claimant, provided its declared type fits. A column with values
// in rows of several claimants, or a claimant left with a choice between columns
// holding values, is refused, naming the property and its candidates. Never is a
// column read because it merely exists.
//
// Columns that hold no value at all are handed to the claimants still without one
// in rule order (entity number, then declaration order). This cannot change an
// answer: every such column is NULL in every row, so whichever of them a claimant
// reads, each of its objects reads nil, exactly as from its true column.
//
// A Codable struct (composite attribute) has no column of its own: each of its
// fields is a column of the owner's table named after the field, numbered on a
// clash. A store pq created keeps the struct in one column named after the property.
//
// Clashes within one entity (a field named as a property of the entity, or as a
// field of another struct property: `Cocktail.id` and `Cocktail.author.id`) follow
// Core Data's rule, seen in real SwiftData stores (the corpus README): the owning
// properties' names in alphabetical order take `ZID`, `ZID1`, … in turn, whatever
// their order in the source (`author.id` is `ZID`, `id` is `ZID1`). The data must
// agree: each column's declared type fits its claimant, and a claimant that cannot
// be nil has no NULL in its entity's rows; where it does not, the store is refused,
// naming the claimants and the candidates. Guessing is never right.

import PredicateQuery

extension CoreDataLayoutDiscovery {
    /// One property (or composite field) wanting a column in a table.
    struct Claim {
        var key: String
        var label: String
        /// `Z` + the name in capitals.
        var base: String
        /// The entity numbers whose rows the property has values in.
        var family: Set<Int>
        var order: [Int]
        /// The declared type Core Data gives the column, when known.
        var expectedType: String?
        /// The property that owns the column: the attribute or relationship itself, or
        /// the struct property whose field it is. Clashes within an entity are numbered
        /// in the alphabetical order of these names.
        var owner: String = ""
        /// Whether every object of the entity has a value (a non-optional property, or
        /// a non-optional field of a non-optional struct).
        var isRequired = false
    }

    /// Resolves the columns of every table's claims.
    mutating func resolveColumns() throws(StoreError) {
        var claimsByTable: [String: [Claim]] = [:]
        for entity in StoreMapping.coreDataOrder(schema) {
            guard let row = stored[entity.name], let table = tables[entity.name] else { continue }
            let family = catalog.family(of: row)
            for (index, property) in entity.properties.enumerated() {
                let key = "\(entity.name).\(property.name)"
                let order = [row.number, index]
                switch property {
                case .attribute(let attribute) where !attribute.isTransient:
                    let fields = compositeFields(of: attribute)
                    if !fields.isEmpty, try !storesWhole(attribute, fields: fields, in: table) {
                        for (fieldIndex, field) in fields.enumerated() {
                            claimsByTable[table, default: []].append(
                                Claim(
                                    key: key + "." + field.name, label: key + "." + field.name,
                                    base: "Z" + field.storedName.uppercased(), family: family,
                                    order: order + [fieldIndex + 1], expectedType: expectedType(field.type),
                                    owner: attribute.name, isRequired: !attribute.isOptional && !field.isOptional))
                        }
                    } else {
                        let base = try self.base(attribute.name, renamedFrom: attribute.originalName, in: table)
                        claimsByTable[table, default: []].append(
                            Claim(
                                key: key, label: key, base: base, family: family,
                                order: order + [0], expectedType: expectedType(attribute.type),
                                owner: attribute.name, isRequired: !attribute.isOptional))
                    }
                case .relationship(let relationship) where !relationship.isToMany:
                    claimsByTable[table, default: []].append(
                        Claim(
                            key: key, label: key,
                            base: try base(relationship.name, renamedFrom: relationship.originalName, in: table),
                            family: family,
                            order: order + [0], expectedType: "INTEGER", owner: relationship.name))
                default:
                    break
                }
            }
        }
        for (table, claims) in claimsByTable.sorted(by: { $0.key < $1.key }) {
            try resolve(claims, in: table)
        }
    }

    /// `Z` + the name in capitals. A property the model renamed (`renamingIdentifier`)
    /// keeps its old column until the store is migrated, and has the new one after:
    /// the old name is used when the store has a column of that name, else the new.
    private mutating func base(
        _ name: String, renamedFrom original: String?, in table: String
    ) throws(StoreError)
        -> String
    {
        let current = "Z" + name.uppercased()
        guard let original, original != name else { return current }
        let old = "Z" + original.uppercased()
        let names = try catalog.columns(of: table).map { $0.name.uppercased() }
        if names.contains(where: { Self.isNumbered($0, of: old) }) { return old }
        return current
    }

    /// Whether a composite attribute is kept whole in one column (as pq's own stores
    /// do): its property's column exists and some field has no candidate column.
    private mutating func storesWhole(
        _ attribute: Attribute, fields: [Attribute], in table: String
    ) throws(StoreError)
        -> Bool
    {
        guard try catalog.column("Z" + attribute.storedName.uppercased(), in: table) != nil else { return false }
        let names = try catalog.columns(of: table).map { $0.name.uppercased() }
        return fields.contains { field in
            !names.contains { Self.isNumbered($0, of: "Z" + field.storedName.uppercased()) }
        }
    }

    /// `column` is `base` or `base` followed by digits.
    static func isNumbered(_ column: String, of base: String) -> Bool {
        guard column.hasPrefix(base) else { return false }
        let rest = column.dropFirst(base.count)
        return rest.allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// Resolves the claims of one table, group by group (claims of the same base name).
    private mutating func resolve(_ claims: [Claim], in table: String) throws(StoreError) {
        let columns = try catalog.columns(of: table)
        let bases = Set(claims.map(\.base))
        let groups = Dictionary(grouping: claims, by: \.base)
        for (base, group) in groups.sorted(by: { $0.key < $1.key }) {
            let claimants = group.sorted { $0.order.lexicographicallyPrecedes($1.order) }
            let candidates = columns.filter { column in
                let name = column.name.uppercased()
                return Self.isNumbered(name, of: base) && (name == base || !bases.contains(name))
            }
            .sorted { Self.suffix($0.name, of: base) < Self.suffix($1.name, of: base) }
            try resolveGroup(claimants, candidates: candidates, base: base, table: table)
        }
    }

    private static func suffix(_ column: String, of base: String) -> Int {
        Int(column.dropFirst(base.count)) ?? -1
    }

    private mutating func resolveGroup(
        _ claimants: [Claim], candidates: [CoreDataCatalog.Column], base: String, table: String
    ) throws(StoreError) {
        guard !candidates.isEmpty else {
            for claim in claimants { mismatches.append("table \(table) has no column \(base) (\(claim.label))") }
            return
        }
        // The rule's own answer, when there is nothing to choose between.
        if claimants.count == 1, candidates.count == 1, candidates[0].name.uppercased() == base {
            assign(claimants[0], candidates[0].name, in: table)
            return
        }
        // A clash within one entity: Core Data's numbering, confirmed by the data.
        if claimants.count > 1, Set(claimants.map(\.family)).count == 1 {
            try resolveWithinOneEntity(claimants, candidates: candidates, base: base, table: table)
            return
        }
        let names = candidates.map(\.name).joined(separator: ", ")
        let everyFamily = claimants.reduce(into: Set<Int>()) { $0.formUnion($1.family) }
        var owner: [Int: String] = [:]
        var empty: [CoreDataCatalog.Column] = []
        var refused = Set<Int>()
        for column in candidates {
            let values = try catalog.entityNumbersWithValues(in: column.name, of: table)
            if values.isEmpty {
                empty.append(column)
                continue
            }
            let owners = claimants.indices.filter { index in
                values.isSubset(of: claimants[index].family)
                    && Self.fits(claimants[index].expectedType, column.declaredType)
            }
            if owners.count == 1, owner[owners[0]] == nil {
                owner[owners[0]] = column.name
            } else if owners.count == 1 {
                refused.insert(owners[0])
                mismatches.append(
                    "\(claimants[owners[0]].label): both \(owner[owners[0]] ?? "") and \(column.name) of table \(table) hold its values (candidates \(names))"
                )
            } else if owners.isEmpty, values.isDisjoint(with: everyFamily) {
                continue  // values of entities the model does not have: some other property's column
            } else {
                // Values in rows of several claimants' entities, or a choice between claimants of one entity.
                let involved =
                    owners.isEmpty ? claimants.indices.filter { !values.isDisjoint(with: claimants[$0].family) } : owners
                let labels = involved.map { claimants[$0].label }
                refused.formUnion(involved)
                mismatches.append(
                    "cannot tell whose column \(column.name) of table \(table) is: it holds values of entities \(Self.numbers(values)), claimed by \(labels.joined(separator: ", ")) (candidates \(names))"
                )
            }
        }
        for index in claimants.indices where !refused.contains(index) {
            if let column = owner[index] {
                assign(claimants[index], column, in: table)
                continue
            }
            guard let position = empty.firstIndex(where: { Self.fits(claimants[index].expectedType, $0.declaredType) })
            else {
                mismatches.append("\(claimants[index].label): none of the columns \(names) of table \(table) can be its own")
                continue
            }
            assign(claimants[index], empty.remove(at: position).name, in: table)
        }
    }

    /// Claims of one entity on `base`: the owners' names in alphabetical order take
    /// `base`, `base1`, … (see the header), each confirmed by the column's declared
    /// type and, for a claimant that cannot be nil, by no NULL in its entity's rows.
    private mutating func resolveWithinOneEntity(
        _ claimants: [Claim], candidates: [CoreDataCatalog.Column], base: String, table: String
    ) throws(StoreError) {
        let ordered = claimants.sorted { a, b in
            a.owner != b.owner ? a.owner < b.owner : a.order.lexicographicallyPrecedes(b.order)
        }
        let names = candidates.map(\.name).joined(separator: ", ")
        let labels = ordered.map(\.label).joined(separator: ", ")
        var disagreements: [String] = []
        var assignments: [(Claim, String)] = []
        for (position, claim) in ordered.enumerated() {
            let wanted = position == 0 ? base : base + String(position)
            guard let column = candidates.first(where: { $0.name.uppercased() == wanted }) else {
                disagreements.append("no column \(wanted) for \(claim.label)")
                continue
            }
            if !Self.fits(claim.expectedType, column.declaredType) {
                disagreements.append("\(column.name) is \(column.declaredType), not \(claim.expectedType ?? "?") as \(claim.label) needs")
            }
            if claim.isRequired, !(try catalog.entityNumbersWithNulls(in: column.name, of: table)).isDisjoint(with: claim.family) {
                disagreements.append("\(column.name) has nil in rows of \(claim.label), which cannot be nil")
            }
            assignments.append((claim, column.name))
        }
        guard disagreements.isEmpty else {
            mismatches.append(
                "the columns of table \(table) do not hold \(labels) as Core Data numbers a clash (by property name, alphabetically): \(disagreements.joined(separator: "; ")) (candidates \(names))"
            )
            return
        }
        for (claim, column) in assignments { assign(claim, column, in: table) }
    }

    private mutating func assign(_ claim: Claim, _ column: String, in table: String) {
        assigned[claim.key] = column
        accounted[table.uppercased(), default: []].insert(column.uppercased())
    }

    private static func numbers(_ values: Set<Int>) -> String {
        values.sorted().map(String.init).joined(separator: ", ")
    }

    /// The declared type Core Data gives a column of this type; nil when unknown.
    func expectedType(_ type: AttributeType) -> String? {
        switch type {
        case .bool, .integer: return "INTEGER"
        case .double, .float: return "FLOAT"
        case .decimal: return "DECIMAL"
        case .string, .url: return "VARCHAR"
        case .date: return "TIMESTAMP"
        case .uuid, .data, .transformable: return "BLOB"
        case .named(let name):
            if let enumType = schema.enumType(named: name) { return enumType.rawType == .int ? "INTEGER" : "VARCHAR" }
            return nil
        }
    }

    /// Whether a declared type can be the one expected: equal, or either unknown.
    static func fits(_ expected: String?, _ declared: String) -> Bool {
        let synonyms = ["REAL": "FLOAT", "DOUBLE": "FLOAT", "TEXT": "VARCHAR"]
        let known: Set<String> = ["INTEGER", "FLOAT", "DECIMAL", "VARCHAR", "TIMESTAMP", "BLOB"]
        let declared = synonyms[declared] ?? declared
        guard let expected, known.contains(declared) else { return true }
        return expected == declared
    }
}
