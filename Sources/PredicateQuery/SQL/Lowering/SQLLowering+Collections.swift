// To-many relationships: quantifiers as EXISTS / NOT EXISTS and aggregates as
// scalar subqueries, correlated with the owning object; never JOIN + DISTINCT.
//
//     any xs: EXISTS (SELECT 1 FROM <elements> WHERE <owned> AND <condition>)
//     none:   NOT EXISTS (…same…)
//     all:    NOT EXISTS (SELECT 1 FROM <elements> WHERE <owned> AND NOT <exact condition>)
//
// so `any` over no elements is false and `all` is true. `@sum` and `@avg` are
// spelled by the dialect: on SQLite `@sum` is pq's own aggregate, `pq_sum` (see
// `Aggregates`): 0 for no elements, and no overflow error. `@avg`/`@min`/`@max`
// of none are NULL, as SQL's aggregates give.
//
// A collection reached through a to-one relationship (`budget.transactions`) is
// nil, not empty, when that relationship is nil, as `$0.budget?.transactions` is in
// Swift: its aggregates are nil, and `all` and `none` (the typed IR's `isEmpty`)
// over it are false (`any` is false without help, since EXISTS finds nothing; the
// text's `none` quantifier is `NOT any`, so it stays true there).

extension SQLLowering {
    /// The elements of a collection: the FROM, JOINs and WHERE terms that select them,
    /// and the column on the element's side that holds its owner's key.
    struct ElementSource {
        var from: SQLTableReference
        var joins: [SQLJoin]
        /// The element's column holding the owner's key (the foreign key, or the join table's).
        var ownerColumn: SQLExpr
        /// The owner's key, in the scope the collection is reached from.
        var ownerKey: SQLExpr
        /// Terms that select the element entity's rows in a shared table.
        var entityConditions: [SQLExpr]
        var alias: String
    }

    mutating func elementSource(_ path: CollectionPath) throws(LoweringError) -> ElementSource {
        let ownerAlias = try objectAlias(level: path.level, steps: path.steps)
        let owner = try entityMapping(path.relationship.source)
        let ownerKey = SQLExpr.column(alias: ownerAlias, name: owner.primaryKey)
        let element = try entityMapping(path.elementEntity)
        let alias = newAlias("t")
        let elementKey = SQLExpr.column(alias: alias, name: element.primaryKey)
        let table = SQLTableReference(table: element.table, alias: alias)
        switch try relationshipMapping(path.relationship) {
        case .inverseForeignKey(let column):
            return ElementSource(
                from: table, joins: [], ownerColumn: .column(alias: alias, name: column), ownerKey: ownerKey,
                entityConditions: entityFilter(element, alias: alias), alias: alias)
        case .joinTable(let joinTable, let sourceColumn, let destinationColumn):
            let joinAlias = newAlias("j")
            let link = SQLJoin(
                table: table, condition: .binary(elementKey, "=", .column(alias: joinAlias, name: destinationColumn)),
                isLeft: false)
            return ElementSource(
                from: SQLTableReference(table: joinTable, alias: joinAlias), joins: [link],
                ownerColumn: .column(alias: joinAlias, name: sourceColumn), ownerKey: ownerKey,
                entityConditions: entityFilter(element, alias: alias), alias: alias)
        case .foreignKey:
            throw LoweringError(
                message: "to-many relationship '\(path.relationship.relationship.name)' is stored as a foreign key")
        }
    }

    /// Builds the correlated subquery over a collection's elements; `body` lowers the
    /// parts that refer to the element, with the element's level in scope.
    private mutating func subquery(
        _ path: CollectionPath, _ body: (inout SQLLowering) throws(LoweringError) -> (columns: [SQLExpr], conditions: [SQLExpr])
    ) throws(LoweringError) -> SQLSelect {
        let source = try elementSource(path)
        scopes.append(Scope(entity: path.elementEntity, alias: source.alias))
        defer { scopes.removeLast() }
        let (columns, conditions) = try body(&self)
        let scope = scopes[scopes.count - 1]
        let correlation = SQLExpr.binary(source.ownerColumn, "=", source.ownerKey)
        return SQLSelect(
            columns: columns, from: source.from, joins: source.joins + scope.joins,
            filter: .and([correlation] + source.entityConditions + conditions))
    }

    mutating func quantified(
        _ quantifier: Quantifier, _ path: CollectionPath, _ condition: TypedExpr
    )
        throws(LoweringError) -> SQLExpr
    {
        let ownerPresent = try ownerPresence(path)
        // `all` of a body that is always true holds for every object, with or without
        // elements; the shortcut below (no condition) would make it "has no elements".
        if quantifier == .all, Self.isTrue(condition) {
            if let ownerPresent { return ownerPresent }
            return try self.condition(condition, .exact)
        }
        let select = try subquery(path) { lowering throws(LoweringError) in
            if Self.isTrue(condition) { return ([.integer(1)], []) }
            let lowered: SQLExpr =
                switch quantifier {
                case .all: .not(try lowering.condition(condition, .exact))
                case .any, .none: try lowering.condition(condition, .lenient)
                }
            return ([.integer(1)], [lowered])
        }
        switch quantifier {
        case .any: return .exists(select)
        case .none, .all: return ownerPresent.map { .and([$0, .not(.exists(select))]) } ?? .not(.exists(select))
        }
    }

    /// For a collection reached through to-one relationships, the test that the object
    /// owning it is there (`t1."Z_PK" IS NOT NULL`); nil when the query's object (or a
    /// closure's element) owns it directly and is always there.
    mutating func ownerPresence(_ path: CollectionPath) throws(LoweringError) -> SQLExpr? {
        guard !path.steps.isEmpty else { return nil }
        let ownerAlias = try objectAlias(level: path.level, steps: path.steps)
        let owner = try entityMapping(path.relationship.source)
        return .not(.isNull(.column(alias: ownerAlias, name: owner.primaryKey)))
    }

    static func isTrue(_ condition: TypedExpr) -> Bool {
        if case .constant(.bool(true), _) = condition { return true }
        return false
    }

    mutating func aggregate(
        _ function: AggregateFunction, _ path: CollectionPath, filter: TypedExpr?, value element: TypedExpr?
    ) throws(LoweringError) -> (SQLExpr, nullable: Bool) {
        let nullable = function != .count
        if let pass = elementPass, pass.path == path {
            // In an element pass's HAVING clause: the aggregate of the group itself.
            if let filter {
                let lowered = try condition(filter, .lenient)
                elementPass?.conditions.append(lowered)
            }
            return (try aggregateFunction(function, element, path: path, filter: filter), nullable)
        }
        let ownerPresent = try ownerPresence(path)
        let select = try subquery(path) { lowering throws(LoweringError) in
            let conditions = try filter.map { filter throws(LoweringError) in [try lowering.condition(filter, .lenient)] } ?? []
            return ([try lowering.aggregateFunction(function, element, path: path, filter: filter)], conditions)
        }
        if let ownerPresent { return (.nullUnless(ownerPresent, .scalar(select)), true) }
        return (.scalar(select), nullable)
    }

    /// `count(*)`, or the aggregate of an element's value; the element is in scope.
    private mutating func aggregateFunction(
        _ function: AggregateFunction, _ element: TypedExpr?, path: CollectionPath, filter: TypedExpr?
    ) throws(LoweringError) -> SQLExpr {
        guard let element else { return .countRows }
        let (value, _) = try value(element)
        let lowered = function == .sum || function == .avg ? widened(value, element) : value
        let scope = scopes[scopes.count - 1]
        let key = SQLExpr.column(alias: scope.alias, name: try entityMapping(scope.entity).primaryKey)
        // The test lowers the filter twice more: not where the filter holds
        // aggregates, whose own tests would multiply the SQL at each level.
        let partialSums =
            dialect.needsPartialSumTest && function == .sum && element.type == .int
                && !(filter.map(Self.holdsAggregate) ?? false)
            ? try partialSumLeavesRange(path, filter: filter, value: element) : nil
        return dialect.aggregate(function, of: lowered, type: element.type, order: key, partialSumLeavesRange: partialSums)
    }

    static func holdsAggregate(_ expr: TypedExpr) -> Bool {
        if case .aggregate = expr { return true }
        return expr.anyChild(holdsAggregate)
    }
}
