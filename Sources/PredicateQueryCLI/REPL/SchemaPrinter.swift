// `.entities`, `.schema [Entity]` and `.schema --mermaid`: the model as text, and
// as an entity-relationship diagram in Mermaid.

import PredicateQuery

struct SchemaPrinter {
    let schema: Schema

    /// Each entity with its object count.
    func entities(counts: [String: Int64]) -> String {
        schema.entities.map(\.name).sorted().map { name in
            let count = counts[name].map { "  (\($0) objects)" } ?? ""
            return name + count
        }.joined(separator: "\n") + "\n"
    }

    /// Entities with their attributes (type, optionality, unique, stored name),
    /// relationships (cardinality, inverse, delete rule), computed and transient
    /// properties marked; then the enums with their cases and raw values.
    func schemaText(only entityName: String? = nil) -> String {
        var lines: [String] = []
        let entities = schema.entities.filter { entityName == nil || $0.name == entityName }.sorted { $0.name < $1.name }
        for entity in entities {
            lines.append(entity.parent.map { "\(entity.name): \($0)" } ?? entity.name)
            for property in schema.allProperties(of: entity) {
                lines.append("  " + describe(property))
            }
        }
        let usedEnums = Set(
            entities.flatMap { schema.allProperties(of: $0) }.compactMap { property -> String? in
                guard case .attribute(let attribute) = property, case .named(let name) = attribute.type else { return nil }
                return name
            })
        for enumType in schema.enums.filter({ usedEnums.contains($0.name) }).sorted(by: { $0.name < $1.name }) {
            let cases = enumType.cases.map { "\($0.name) = \($0.rawValue)" }.joined(separator: ", ")
            lines.append("enum \(enumType.name): \(enumType.rawType.rawValue) { \(cases) }")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func describe(_ property: Property) -> String {
        switch property {
        case .attribute(let attribute):
            var text = "\(attribute.name): \(attribute.type)\(attribute.isOptional ? "?" : "")"
            var notes: [String] = []
            if attribute.isTransient { notes.append("transient, not queryable") }
            if attribute.isUnique { notes.append("unique") }
            if attribute.isExternalStorage { notes.append("external storage") }
            if case .transformable = attribute.type { notes.append("transformable, nil tests only") }
            if attribute.type == .data { notes.append("nil tests only") }
            if let original = attribute.originalName { notes.append("stored as '\(original)'") }
            if !notes.isEmpty { text += "  (" + notes.joined(separator: ", ") + ")" }
            return text
        case .relationship(let relationship):
            let type =
                relationship.isToMany
                ? "[\(relationship.destination)]\(relationship.isOptional ? "?" : "")"
                : "\(relationship.destination)\(relationship.isOptional ? "?" : "")"
            var notes = [relationship.isToMany ? "to-many" : "to-one"]
            if let inverse = relationship.inverse {
                if relationship.isToMany, isToMany(relationship.destination, inverse) { notes[0] = "many-to-many" }
                notes.append("inverse \(relationship.destination).\(inverse)")
            }
            if relationship.deleteRule != .nullify { notes.append("delete rule \(relationship.deleteRule.rawValue)") }
            return "\(relationship.name): \(type)  (" + notes.joined(separator: ", ") + ")"
        case .computed(let computed):
            let from = computed.dependencies.isEmpty ? "" : ", from \(computed.dependencies.joined(separator: ", "))"
            return "\(computed.name): \(computed.typeName)  (computed, not queryable\(from))"
        }
    }

    private func isToMany(_ entity: String, _ relationship: String) -> Bool {
        guard let destination = schema.entity(named: entity),
            case .relationship(let back)? = schema.property(named: relationship, of: destination)
        else { return false }
        return back.isToMany
    }

    /// An `erDiagram` in Mermaid: entities with their stored attributes, and one
    /// line per relationship (both ends of an inverse pair drawn once).
    func mermaid() -> String {
        var lines = ["erDiagram"]
        var drawn: Set<String> = []
        for entity in schema.entities.sorted(by: { $0.name < $1.name }) {
            for relationship in entity.relationships {
                let key = [entity.name + "." + relationship.name, relationship.destination + "." + (relationship.inverse ?? "")]
                    .sorted().joined(separator: "|")
                guard relationship.inverse == nil || drawn.insert(key).inserted else { continue }
                let backIsMany = relationship.inverse.map { isToMany(relationship.destination, $0) } ?? false
                let left = relationship.inverse == nil ? "||" : (backIsMany ? "}o" : "|o")
                let right = relationship.isToMany ? "o{" : "o|"
                lines.append("    \(entity.name) \(left)--\(right) \(relationship.destination) : \(relationship.name)")
            }
        }
        for entity in schema.entities.sorted(by: { $0.name < $1.name }) {
            lines.append("    \(entity.name) {")
            for attribute in entity.attributes where !attribute.isTransient {
                let type = attribute.type.description.replacingOccurrences(of: " ", with: "_")
                lines.append("        \(type) \(attribute.name)\(attribute.isUnique ? " UK" : "")")
            }
            lines.append("    }")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
