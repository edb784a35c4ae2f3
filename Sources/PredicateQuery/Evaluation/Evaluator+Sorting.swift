// Sorting in memory, as SQLite's ORDER BY does it: each key ascending or
// descending in the comparison order (nil first when ascending, last when
// descending), `[c]`/`[d]` keys folded first, and the key as the last tie-breaker,
// so the order is total and the same as the store's.

extension Evaluator {
    func sort(_ ids: [ObjectID], by keys: [CheckedSortKey]) throws -> [ObjectID] {
        var keyed: [(id: ObjectID, keys: [Value])] = []
        for id in ids {
            var values: [Value] = []
            for key in keys {
                var value = try value(.attribute(key.path, key.type), [id])
                if !key.options.isEmpty, case .string(let text) = value {
                    value = .string(StringFunctions.fold(text, key.options))
                }
                values.append(value)
            }
            keyed.append((id, values))
        }
        keyed.sort { lhs, rhs in
            for (index, key) in keys.enumerated() {
                let order = SQLiteSemantics.compare(lhs.keys[index], rhs.keys[index])
                if order != 0 { return key.isAscending ? order < 0 : order > 0 }
            }
            return lhs.id.key < rhs.id.key
        }
        return keyed.map(\.id)
    }
}
