// Where each relationship's links live, confirmed against the store.
//
// - A to-one relationship is its own column (resolved with the attributes, see
//   `+Columns`): `.foreignKey`.
// - A to-many relationship whose inverse is to-one is that inverse's column in the
//   destination's table: `.inverseForeignKey`.
// - A to-many relationship with no inverse is a hidden key column in the
//   destination's table, `Z<number of the declaring entity><NAME>` (MeWe's
//   `ZSTICKER.Z7STICKERS`): `.inverseForeignKey` too. pq's own stores keep such a
//   relationship in a join table `Z_<n><NAME>`, which is used when it exists instead.
// - An ordered to-many relationship also has an order column, `Z_FOK_` + its key
//   column without the leading `Z` (`Z_FOK_7STICKERS`); it is accounted for, not read.
// - A many-to-many relationship is a join table `Z_<n><NAME>` named after either
//   side, with one column per side, `Z_<entity number><name of the relationship
//   that points at it>`, possibly followed by a number when another join table of
//   the entity already used that name (`Z_8VOTEDBY1`). Both tables are looked for;
//   the one whose columns fit is used, and two that fit are refused.

import PredicateQuery

extension CoreDataLayoutDiscovery {
    mutating func resolveRelationships(_ ordered: [Entity]) throws(StoreError) {
        for entity in ordered where stored[entity.name] != nil {
            for property in schema.allProperties(of: entity) {
                guard case .relationship(let relationship) = property else { continue }
                let owner = declarer(of: relationship.name, in: entity)
                guard let mapping = try relationshipMapping(relationship, of: owner) else { continue }
                relationships["\(entity.name).\(relationship.name)"] = mapping
            }
        }
    }

    /// The mapping of a relationship declared on `owner`; nil when it cannot be had
    /// (a mismatch or a warning then says why, once).
    private mutating func relationshipMapping(
        _ relationship: Relationship, of owner: Entity
    ) throws(StoreError)
        -> RelationshipMapping?
    {
        let label = "\(owner.name).\(relationship.name)"
        if !relationship.isToMany {
            return assigned[label].map { .foreignKey(column: $0) }
        }
        guard let destination = schema.entity(named: relationship.destination),
            let destinationTable = tables[destination.name], let ownerRow = stored[owner.name]
        else { return nil }
        let inverse = relationship.inverse.flatMap { name -> (Entity, Relationship)? in
            let inverseOwner = declarer(of: name, in: destination)
            guard case .relationship(let inverse)? = inverseOwner.property(named: name) else { return nil }
            return (inverseOwner, inverse)
        }
        if let (inverseOwner, inverse) = inverse, !inverse.isToMany {
            guard let column = assigned["\(inverseOwner.name).\(inverse.name)"] else { return nil }
            if relationship.isOrdered { try accountOrderColumn(for: column, in: destinationTable) }
            return .inverseForeignKey(column: column)
        }
        if let (inverseOwner, inverse) = inverse, let inverseRow = stored[inverseOwner.name] {
            return try joinTable(
                label, sides: (ownerRow.number, relationship.storedName.uppercased()),
                (inverseRow.number, inverse.storedName.uppercased()))
        }
        let name = relationship.storedName.uppercased()
        let hidden = "Z\(ownerRow.number)\(name)"
        if let column = try catalog.column(hidden, in: destinationTable) {
            accounted[destinationTable.uppercased(), default: []].insert(column.name.uppercased())
            try accountOrderColumn(for: column.name, in: destinationTable)
            return .inverseForeignKey(column: column.name)
        }
        // pq's own stores: a join table named after the relationship, as for a many-to-many.
        if let destinationRow = stored[destination.name],
            catalog.table(named: "Z_\(ownerRow.number)\(name)") != nil,
            let mapping = try joinTable(label, sides: (ownerRow.number, name), (destinationRow.number, name))
        {
            return mapping
        }
        mismatches.append(
            "table \(destinationTable) has no column \(hidden) and there is no join table Z_\(ownerRow.number)\(name) (\(label), a to-many relationship with no inverse)"
        )
        return nil
    }

    /// Accounts for the order column of an ordered to-many relationship, if there is one.
    private mutating func accountOrderColumn(for keyColumn: String, in table: String) throws(StoreError) {
        if let order = try catalog.column("Z_FOK_" + keyColumn.dropFirst(), in: table) {
            accounted[table.uppercased(), default: []].insert(order.name.uppercased())
        }
    }

    /// The join table of a many-to-many relationship between `source` (entity
    /// number, relationship name) and the other side, named after either side.
    private mutating func joinTable(
        _ label: String, sides source: (number: Int, name: String), _ other: (number: Int, name: String)
    ) throws(StoreError) -> RelationshipMapping? {
        // Each pair is looked up (and reported) once, from whichever side comes first.
        let sourceKey = "\(source.number):\(source.name)"
        let otherKey = "\(other.number):\(other.name)"
        let sourceFirst = sourceKey <= otherKey
        let pair = sourceFirst ? sourceKey + "|" + otherKey : otherKey + "|" + sourceKey
        if let known = joinPairs[pair] {
            guard let known else { return nil }
            return .joinTable(
                table: known.table, sourceColumn: sourceFirst ? known.first : known.second,
                destinationColumn: sourceFirst ? known.second : known.first)
        }
        let found = try findJoinTable(label, sides: source, other)
        joinPairs.updateValue(
            found.map { sourceFirst ? ($0.table, $0.source, $0.destination) : ($0.table, $0.destination, $0.source) },
            forKey: pair)
        return found.map { .joinTable(table: $0.table, sourceColumn: $0.source, destinationColumn: $0.destination) }
    }

    private mutating func findJoinTable(
        _ label: String, sides source: (number: Int, name: String), _ other: (number: Int, name: String)
    ) throws(StoreError) -> (table: String, source: String, destination: String)? {
        let sourceBase = "Z_\(source.number)\(other.name)"
        let destinationBase = "Z_\(other.number)\(source.name)"
        var names = ["Z_\(source.number)\(source.name)", "Z_\(other.number)\(other.name)"]
        if names[0] == names[1] { names.removeLast() }
        var fits: [(table: String, source: String, destination: String)] = []
        var ambiguous: [String] = []
        for name in names {
            guard let table = catalog.table(named: name) else { continue }
            let keys = try catalog.columns(of: table).map(\.name).filter { !$0.uppercased().hasPrefix("Z_FOK_") }
            let sources = keys.filter { Self.isNumbered($0.uppercased(), of: sourceBase) }
            let destinations = keys.filter { Self.isNumbered($0.uppercased(), of: destinationBase) }
            if sourceBase == destinationBase, sources.count == 2 {
                // An entity's relationship with itself, named alike on both sides: pq's own convention.
                let sorted = sources.sorted { $0.count < $1.count }
                fits.append((table, sorted[0], sorted[1]))
            } else if sources.count == 1, destinations.count == 1, sources[0] != destinations[0] {
                fits.append((table, sources[0], destinations[0]))
            } else if sources.count + destinations.count == 1 {
                let missing = sources.isEmpty ? sourceBase : destinationBase
                ambiguous.append("table \(table) has no column \(missing) (\(label))")
            } else if !sources.isEmpty || !destinations.isEmpty {
                ambiguous.append(
                    "\(label): cannot tell which columns of \(table)(\(keys.joined(separator: ", "))) are \(sourceBase) and \(destinationBase)"
                )
            }
        }
        guard fits.count == 1 else {
            if fits.count > 1 {
                mismatches.append(
                    "\(label): both join tables \(fits.map(\.table).joined(separator: " and ")) fit; cannot tell which holds it")
            } else if !ambiguous.isEmpty {
                mismatches += ambiguous
            } else {
                mismatches.append(
                    "it has no table \(names.joined(separator: " or ")) with columns \(sourceBase) and \(destinationBase) (\(label))"
                )
            }
            return nil
        }
        let found = fits[0]
        if !joinTables.contains(found.table) { joinTables.append(found.table) }
        accounted[found.table.uppercased(), default: []].formUnion([found.source.uppercased(), found.destination.uppercased()])
        return found
    }
}
