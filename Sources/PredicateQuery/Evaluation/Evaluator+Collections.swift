// To-many relationships in memory: quantifiers and aggregates, with SQLite's
// aggregate rules (the store's SQL uses SQLite's aggregates, so the reference must
// agree with them): elements are visited in key order; nil values are skipped;
// `@sum` follows `Aggregates.sum` (exact for Ints, a Double when that overflows,
// 0 for no values); `@avg` is the Double sum over the count, nil
// for no values; `@min`/`@max` use the comparison order and are nil for none.
// Every aggregate of a nil collection (one reached through a nil to-one) is nil.

extension Evaluator {
    /// The elements of a collection reached from the objects in scope, in key order;
    /// nil when a to-one relationship on the way is nil (the collection is then nil,
    /// not empty, as `$0.budget?.transactions` is in Swift).
    func elements(of path: CollectionPath, _ scopes: [ObjectID]) -> [ObjectID]? {
        guard let owner = object(at: path.level, path.steps, scopes) else { return nil }
        return graph[owner]?.toMany[path.relationship.relationship.name] ?? []
    }

    /// `any`/`all`/`none`; over a nil collection each is false. The typed `none` is
    /// `isEmpty` (the text's `none` quantifier is `!any`, true over a nil collection),
    /// and `$0.budget?.transactions.isEmpty` is nil in Swift, not true.
    func quantified(_ quantifier: Quantifier, _ path: CollectionPath, _ body: TypedExpr, _ scopes: [ObjectID]) throws -> Bool {
        let inner = scopes.prefix(path.elementLevel)
        guard let elements = elements(of: path, scopes) else { return false }
        for element in elements {
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
        guard let elements = elements(of: path, scopes) else { return .null }
        for item in elements {
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
