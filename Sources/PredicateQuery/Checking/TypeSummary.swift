// What `pq --check` prints under the query: every name the query uses with the
// type the checker gave it, in pq's own words.
//
//     Transaction where amount > 10 && budget.name contains 'a' sort by date desc
//       amount: Double
//       budget.name: String, nil where budget is nil
//       date: Date
//       selects Transaction objects
//
// Names inside a closure or quantifier are spelled from the query's object
// (`transactions.amount`); a name is listed once, at its first use.

extension CheckedQuery {
    /// One line per name the query uses, with its type; then parameters; then what
    /// the query selects.
    public var typeSummary: [String] {
        var lines: [String] = []
        var seen: Set<String> = []
        func add(_ line: String, key: String) {
            if seen.insert(key).inserted { lines.append(line) }
        }
        /// The names of the levels in scope: level 0 is the query's object.
        func visit(_ expr: TypedExpr, _ prefixes: [Int: String]) {
            switch expr {
            case .attribute(let path, let type):
                let name = (prefixes[path.level] ?? "") + path.dottedName
                let optional = path.attribute.isOptional ? "?" : ""
                add(
                    "\(name): \(type)\(optional)\(Self.nilNote(path.steps.map(\.relationship), prefix: prefixes[path.level] ?? ""))",
                    key: name)
            case .quantified(_, let collection, let body):
                var inner = prefixes
                inner[collection.elementLevel] = describeCollection(collection, prefixes) + "."
                visit(body, inner)
            case .aggregate(_, let collection, let filter, let value, _):
                let name = describeCollection(collection, prefixes)
                add("\(name): [\(collection.elementEntity)]", key: name)
                var inner = prefixes
                inner[collection.elementLevel] = name + "."
                if let filter { visit(filter, inner) }
                if let value { visit(value, inner) }
            default:
                for child in expr.children { visit(child, prefixes) }
            }
        }
        func describeCollection(_ collection: CollectionPath, _ prefixes: [Int: String]) -> String {
            (prefixes[collection.level] ?? "") + (collection.steps.map(\.relationship.name) + [collection.relationship.relationship.name]).joined(separator: ".")
        }
        if let predicate { visit(predicate, [:]) }
        for key in sortKeys {
            let name = key.path.dottedName
            let optional = key.path.attribute.isOptional ? "?" : ""
            add("\(name): \(key.type)\(optional)\(Self.nilNote(key.path.steps.map(\.relationship), prefix: ""))", key: name)
        }
        for parameter in parameters { lines.append("$\(parameter.name): \(parameter.type) (a parameter)") }
        lines.append("selects \(entity.name) objects")
        return lines
    }

    /// ", nil where budget is nil" for a path through optional to-one relationships.
    static func nilNote(_ steps: [Relationship], prefix: String) -> String {
        var names: [String] = []
        var optional: [String] = []
        for step in steps {
            names.append(step.name)
            if step.isOptional { optional.append(prefix + names.joined(separator: ".")) }
        }
        guard !optional.isEmpty else { return "" }
        return ", nil where " + optional.joined(separator: " or ") + " is nil"
    }
}
