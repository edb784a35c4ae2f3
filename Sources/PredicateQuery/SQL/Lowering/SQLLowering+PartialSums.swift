// Whether one of pq's partial sums of Ints leaves Int's range, for a database whose
// own sum is exact and cannot tell (PostgreSQL: `PostgreSQLDialect+Numbers`).
//
// pq adds an `@sum`'s values one at a time in the elements' key order; once a
// partial sum leaves Int's range, the result is a Double (`Aggregates.Sum`). So
// over the same elements, with the same filter:
//
//     EXISTS (SELECT 1 FROM <elements> e WHERE <owned> AND <filter(e)> AND NOT (
//       (SELECT sum(e2.x) FROM <elements> e2 WHERE <owned> AND <filter(e2)> AND e2.key <= e.key)
//       BETWEEN Int.min AND Int.max))
//
// Quadratic in the elements of one object, but the dialect runs it only where the
// positive or the negative values alone leave the range. The elements are owned by
// the object in scope, or, in an element pass's HAVING clause, by the group.

extension SQLLowering {
    /// The test that a partial sum of `value` over the elements of `path` (those
    /// passing `filter`), in key order, leaves Int's range; built beside the
    /// aggregate's own subquery, whose element scope is the innermost.
    mutating func partialSumLeavesRange(
        _ path: CollectionPath, filter: TypedExpr?, value: TypedExpr
    ) throws(LoweringError) -> SQLExpr {
        let saved = scopes
        let savedPass = elementPass
        defer {
            scopes = saved
            elementPass = savedPass
        }
        let groupOwner = savedPass.flatMap { $0.path == path ? $0.ownerColumn : nil }
        elementPass = nil
        scopes = Array(saved.prefix(path.elementLevel))
        let outer = try elementsOfOwner(path, filter: filter, value: value, groupOwner: groupOwner)
        let inner = try elementsOfOwner(path, filter: filter, value: value, groupOwner: groupOwner)
        let partial = SQLSelect(
            columns: [.function("sum", [inner.value])], from: inner.select.from, joins: inner.select.joins,
            filter: .and(inner.conditions + [.binary(inner.key, "<=", outer.key)]))
        let outside = SQLExpr.not(.between(.scalar(partial), .integer(Int.min), .integer(Int.max)))
        return .exists(
            SQLSelect(
                columns: [.integer(1)], from: outer.select.from, joins: outer.select.joins,
                filter: .and(outer.conditions + [outside])))
    }

    /// One reading of a collection's elements for `partialSumLeavesRange`: the FROM
    /// and JOINs, the WHERE terms, and the element's value and key.
    private mutating func elementsOfOwner(
        _ path: CollectionPath, filter: TypedExpr?, value: TypedExpr, groupOwner: SQLExpr?
    ) throws(LoweringError) -> (select: SQLSelect, conditions: [SQLExpr], value: SQLExpr, key: SQLExpr) {
        let source = try elementSource(path)
        scopes.append(Scope(entity: path.elementEntity, alias: source.alias))
        defer { scopes.removeLast() }
        var conditions = [SQLExpr.binary(source.ownerColumn, "=", groupOwner ?? source.ownerKey)] + source.entityConditions
        if let filter { conditions.append(try condition(filter, .lenient)) }
        let (number, _) = try self.value(value)
        let lowered = widened(number, value)
        let key = SQLExpr.column(alias: source.alias, name: try entityMapping(path.elementEntity).primaryKey)
        let select = SQLSelect(
            columns: [], from: source.from, joins: source.joins + scopes[scopes.count - 1].joins)
        return (select, conditions, lowered, key)
    }
}
