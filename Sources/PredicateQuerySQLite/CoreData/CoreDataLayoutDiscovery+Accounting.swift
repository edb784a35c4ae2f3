// Every column of every entity table and join table must be accounted for: a
// property's column, a system column (`Z_PK`, `Z_ENT`, `Z_OPT`), a hidden key of a
// to-many relationship with no inverse, an order column (`Z_FOK_…`), or the
// entity-number column Core Data keeps beside a to-one key whose destination
// shares its table with other entities (`Z1_BOOK` beside `ZBOOK`). A column holding
// values only in rows of entities the model does not have belongs to them. What is
// left is reported in one warning: the model may be older than the store, or pq may
// have missed a rule.

import PredicateQuery

extension CoreDataLayoutDiscovery {
    mutating func reportUnaccountedColumns() throws(StoreError) {
        var entityTables: [String] = []
        for table in StoreMapping.coreDataOrder(schema).compactMap({ tables[$0.name] }) where !entityTables.contains(table) {
            entityTables.append(table)
        }
        let modelled = Set(stored.values.map(\.number))
        var unaccounted: [String] = []
        for table in entityTables + joinTables {
            let known = accounted[table.uppercased()] ?? []
            let keys = known.filter { !$0.hasPrefix("Z_") }
            for column in try catalog.columns(of: table) {
                let name = column.name.uppercased()
                if known.contains(name) || ["Z_PK", "Z_ENT", "Z_OPT"].contains(name) { continue }
                if joinTables.contains(table), name.hasPrefix("Z_FOK_") { continue }
                if Self.isEntityNumberColumn(name, besideAnyOf: keys) { continue }
                if !joinTables.contains(table) {
                    let values = try catalog.entityNumbersWithValues(in: column.name, of: table)
                    if !values.isEmpty, values.isDisjoint(with: modelled) { continue }
                }
                unaccounted.append("\(table).\(column.name)")
            }
        }
        if !unaccounted.isEmpty {
            let count = unaccounted.count
            warnings.append(
                "\(count == 1 ? "a column" : "\(count) columns") of the store that no property of the model accounts for: \(StoreVerifier.list(unaccounted)); pq does not read \(count == 1 ? "it" : "them")"
            )
        }
    }

    /// `Z<digits>_<NAME>` beside a key column `Z<NAME>`.
    private static func isEntityNumberColumn(_ column: String, besideAnyOf keys: Set<String>) -> Bool {
        guard column.hasPrefix("Z"), let underscore = column.firstIndex(of: "_") else { return false }
        let digits = column[column.index(after: column.startIndex)..<underscore]
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return false }
        return keys.contains("Z" + column[column.index(after: underscore)...])
    }
}
