// Inverse relationships for the schema builder.
//
// SwiftData needs `inverse:` on one side of a pair only, and infers the other;
// pq's schema records the inverse on both sides. So: every declared inverse
// that exists and points back is set on its own side, then on the other side
// unless that side names a different one (a conflict, warned about). A
// relationship still without an inverse is paired with the one relationship of
// its destination that points back, when there is exactly one each way, as
// SwiftData infers; never with itself, so `User.children: [User]` stays alone.

import PredicateQuery

extension SwiftSchemaBuilder {
    /// Sets the inverses of `drafts` (one list per entity of `entities`).
    mutating func resolveInverses(_ drafts: inout [[RelationshipDraft]], entities: [Entity]) {
        var entityIndex: [String: Int] = [:]
        for (position, entity) in entities.enumerated() where entityIndex[entity.name] == nil {
            entityIndex[entity.name] = position
        }
        let schema = Schema(entities: entities)
        let byName: [[String: Int]] = drafts.map { list in
            var names: [String: Int] = [:]
            for (position, draft) in list.enumerated() where names[draft.relationship.name] == nil {
                names[draft.relationship.name] = position
            }
            return names
        }
        /// The entity and its ancestors' names.
        func lineage(_ entity: Int) -> Set<String> { Set(schema.lineage(of: entities[entity]).map(\.name)) }
        /// The relationship `name` of entity `entity` or of an ancestor.
        func find(_ name: String, on entity: Int) -> (entity: Int, relationship: Int)? {
            for owner in schema.lineage(of: entities[entity]) {
                if let ownerIndex = entityIndex[owner.name], let found = byName[ownerIndex][name] {
                    return (ownerIndex, found)
                }
            }
            return nil
        }

        // Declared inverses, on their own side.
        var declared: [(entity: Int, relationship: Int, other: (entity: Int, relationship: Int))] = []
        for entity in drafts.indices {
            for position in drafts[entity].indices {
                let draft = drafts[entity][position]
                guard let inverse = draft.declaredInverse,
                    let destination = entityIndex[draft.relationship.destination]
                else { continue }
                let label = "'\(entities[entity].name).\(draft.relationship.name)'"
                if let root = inverse.root, !lineage(destination).contains(root) {
                    warn(
                        "\(label) names \\\(root).\(inverse.name) as its inverse, but its destination is '\(draft.relationship.destination)'; ignored",
                        line: draft.line, in: draft.declaration)
                    continue
                }
                guard let other = find(inverse.name, on: destination) else {
                    warn(
                        "\(label) names '\(inverse.name)' as its inverse, but '\(draft.relationship.destination)' has no relationship of that name; ignored",
                        line: draft.line, in: draft.declaration)
                    continue
                }
                let back = drafts[other.entity][other.relationship].relationship.destination
                guard lineage(entity).contains(back) else {
                    warn(
                        "\(label) names '\(inverse.name)' as its inverse, but that relationship points to '\(back)'; ignored",
                        line: draft.line, in: draft.declaration)
                    continue
                }
                drafts[entity][position].relationship.inverse = inverse.name
                declared.append((entity, position, other))
            }
        }
        // The other side of each declared inverse.
        for (entity, position, other) in declared {
            let name = drafts[entity][position].relationship.name
            let otherSide = drafts[other.entity][other.relationship]
            if otherSide.relationship.inverse == nil {
                drafts[other.entity][other.relationship].relationship.inverse = name
            } else if let taken = otherSide.relationship.inverse, taken != name {
                let draft = drafts[entity][position]
                let label = "'\(entities[entity].name).\(name)'"
                let otherLabel = "'\(entities[other.entity].name).\(otherSide.relationship.name)'"
                if otherSide.declaredInverse != nil {
                    warn(
                        "\(label) and \(otherLabel) name different inverses; the inverse of '\(name)' is ignored",
                        line: draft.line, in: draft.declaration)
                } else {
                    // Another relationship named the same inverse first: one relationship cannot be the inverse of two.
                    warn(
                        "\(label) names \(otherLabel) as its inverse, but so does '\(entities[entity].name).\(taken)', and a relationship has one inverse; the inverse of '\(name)' is ignored",
                        line: draft.line, in: draft.declaration)
                }
                drafts[entity][position].relationship.inverse = nil
            }
        }
        inferInverses(&drafts, entities: entities, entityIndex: entityIndex)
    }

    /// Pairs relationships without inverses when each is the only one pointing at
    /// the other's entity.
    private func inferInverses(_ drafts: inout [[RelationshipDraft]], entities: [Entity], entityIndex: [String: Int]) {
        // The relationships without inverses from each entity to each other entity.
        var open: [Int: [Int: [Int]]] = [:]
        for entity in drafts.indices {
            for (position, draft) in drafts[entity].enumerated() where draft.relationship.inverse == nil {
                guard let destination = entityIndex[draft.relationship.destination], destination != entity else { continue }
                open[entity, default: [:]][destination, default: []].append(position)
            }
        }
        for entity in open.keys.sorted() {
            for (destination, forward) in open[entity] ?? [:] where entity < destination {
                guard forward.count == 1, let backward = open[destination]?[entity], backward.count == 1,
                    let mine = forward.first, let theirs = backward.first
                else { continue }
                drafts[entity][mine].relationship.inverse = drafts[destination][theirs].relationship.name
                drafts[destination][theirs].relationship.inverse = drafts[entity][mine].relationship.name
            }
        }
    }
}
