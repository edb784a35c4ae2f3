// To-many relationships in memory: quantifiers and aggregates, with SQLite's
// aggregate rules (the store's SQL uses SQLite's aggregates, so the reference must
// agree with them): elements are visited in key order; nil values are skipped;
// `@sum` follows `Aggregates.sum` (exact for Ints, a Double when that overflows,
// 0 for no values); `@avg` is the Double sum over the count, nil
// for no values; `@min`/`@max` use the comparison order and are nil for none.

extension Evaluator {
    /// The elements of a collection reached from the objects in scope, in key order.
    func elements(of path: CollectionPath, _ scopes: [ObjectID]) -> [ObjectID] {
        guard let owner = object(at: path.level, path.steps, scopes) else { return [] }
        return graph[owner]?.toMany[path.relationship.relationship.name] ?? []
    }

    func quantified(_ quantifier: Quantifier, _ path: CollectionPath, _ body: TypedExpr, _ scopes: [ObjectID]) throws -> Bool {
        let inner = scopes.prefix(path.elementLevel)
        for element in elements(of: path, scopes) {
            let holds = try condition(body, Array(inner) + [element])
            switch quantifier {
            case .any where holds: return true
            case .none where holds: return false
            case .all where !holds: return false
            default: continue
            }
        }
        return quantifier != .any
    }

    func aggregate(
        _ function: AggregateFunction, _ path: CollectionPath, filter: TypedExpr?, value element: TypedExpr?,
        _ scopes: [ObjectID]
    ) throws -> Value {
        let inner = Array(scopes.prefix(path.elementLevel))
        var values: [Value] = []
        var count: Int64 = 0
        for item in elements(of: path, scopes) {
            let itemScopes = inner + [item]
            if let filter, try !condition(filter, itemScopes) { continue }
            count += 1
            if let element {
                let value = SQLiteSemantics.stored(try value(element, itemScopes))
                if !value.isNull { values.append(value) }
            }
        }
        switch function {
        case .count: return .int(count)
        case .sum: return Aggregates.sum(values)
        case .avg:
            guard !values.isEmpty else { return .null }
            let total = values.reduce(0.0) { $0 + (SQLiteSemantics.number($1) ?? 0) }
            let average = total / Double(values.count)
            return average.isNaN ? .null : .double(average)
        case .min, .max:
            guard var best = values.first else { return .null }
            for value in values.dropFirst() {
                let order = SQLiteSemantics.compare(value, best)
                if function == .min ? order < 0 : order > 0 { best = value }
            }
            return best
        }
    }
}
