// Lowering: a checked query to SQL for one store mapping.
//
// The query's object is `t0`; each quantifier or aggregate becomes a correlated
// subquery whose elements get the next alias. To-one paths become LEFT JOINs in
// the SELECT of the level they start from, one per distinct path. Every value from
// the query becomes a binding; identifiers come from the mapping only.
//
// Meaning (SPEC §5) is kept two-valued: SQL's NULL must never change a result.
// Conditions are lowered in one of two modes. In a *lenient* position (the WHERE
// clause, and AND/OR below it) a NULL result may stand for false, because WHERE
// drops NULL rows and AND/OR treat NULL as between false and true; atoms stay raw
// there, so indexes still apply. Under NOT, and wherever a condition's exact value
// matters, the *exact* mode makes every atom 0 or 1: `COALESCE(a < b, 0)`.
// Equality is null-safe everywhere (`IS`, `IS NOT`), as `==` is in Swift.

/// Why a query could not be lowered for a mapping.
package struct LoweringError: Error, Sendable, CustomStringConvertible {
    public var message: String
    /// The diagnostic code the error is reported under.
    public var code: DiagnosticCode = .storeMismatch
    /// The string literal the error is about (a refused pattern), so its diagnostic can point at it.
    public var literal: String?
    public var description: String { message }
}

/// Lowers checked queries to SQL.
package struct SQLLowering {
    let schema: Schema
    let mapping: StoreMapping
    let dialect: any SQLDialect
    var bindings: [SQLBinding] = []
    /// How often appending a binding moved the `bindings` array other than to grow it:
    /// each move copies every binding so far, so a count that grows with the
    /// literals makes lowering quadratic (`BindingStorageTests` holds it to zero).
    var bindingCopies = 0
    /// pq's own String constants bound so far (`constant(_:)`), each with the index
    /// of the first binding equal to it: a handful per query, so found by a short
    /// scan, not by hashing texts some kilobytes long on every use.
    var ownConstants: [(text: String, index: Int)] = []
    /// The SELECT being built at each level: index 0 is the query's object.
    var scopes: [Scope] = []
    var aliasCount = 0
    /// The element pass whose HAVING clause is being lowered, if any.
    var elementPass: ElementPass?
    /// Whether the SQL's shape would differ with the parameters' values in hand.
    var shapeDependsOnValues = false
    /// The columns of a result row of the query's entity (none for a count).
    var rootResultColumns: [ResultColumn] = []

    /// The SELECT of one level under construction.
    struct Scope {
        var entity: String
        var alias: String
        var joins: [SQLJoin] = []
        /// The alias joined for each to-one path from this level, keyed by the path.
        var joinedPaths: [String: String] = [:]
    }

    /// Lowers `query` for `mapping`. With `count`, the statement returns the number
    /// of matches. With `summaries`, each row also carries a label for every to-one
    /// relationship, a count for every to-many one and the value of each of the
    /// query's display paths, for display.
    public static func lower(
        _ query: CheckedQuery, mapping: StoreMapping, count: Bool = false, summaries: Bool = false
    ) throws(LoweringError) -> CompiledQuery {
        try lower(query, mapping: mapping, dialect: mapping.database.dialect, count: count, summaries: summaries)
    }

    /// Lowers `query` for `mapping` in a given SQL dialect.
    static func lower(
        _ query: CheckedQuery, mapping: StoreMapping, dialect: any SQLDialect, count: Bool, summaries: Bool = false
    ) throws(LoweringError) -> CompiledQuery {
        try lowerKeepingState(query, mapping: mapping, dialect: dialect, count: count, summaries: summaries).compiled
    }

    /// `lower`, with the lowering's final state, for tests of how it got there.
    static func lowerKeepingState(
        _ query: CheckedQuery, mapping: StoreMapping, dialect: any SQLDialect, count: Bool, summaries: Bool = false
    ) throws(LoweringError) -> (compiled: CompiledQuery, lowering: SQLLowering) {
        let (select, columns, lowering) = try statement(
            query, mapping: mapping, dialect: dialect, count: count, summaries: summaries)
        let renderer = SQLRenderer(dialect: lowering.dialect)
        let text = renderer.render(select)
        // Most statements have too few parentheses to come near the parser's limit;
        // the others are walked once more, into the measure.
        if !SQLParserDepth.fitsUnmeasured(openingParentheses: text.openingParentheses) {
            var parser = SQLParserDepth.ofStatement()
            renderer.render(select, into: &parser)
            let depth = parser.deepest
            guard depth <= SQLParserDepth.budget else {
                throw LoweringError(
                    message:
                        "the query is nested too deeply for SQLite's parser (about \(depth) levels of its stack of \(SQLParserDepth.budget)); nest fewer negations, parentheses or quantifiers",
                    code: .sqlTooDeep)
            }
        }
        let compiled = CompiledQuery(
            text: text, bindings: lowering.bindings, columns: columns, isCount: count, query: query,
            mapping: mapping, hasSummaries: summaries, shapeDependsOnValues: lowering.shapeDependsOnValues)
        return (compiled, lowering)
    }

    /// The SQL of `query` (its slots as markers) and the depth SQLite's parser needs
    /// to read it (`SQLParserDepth`), whether or not that fits: for tests of the measure.
    static func measuredStatement(
        _ query: CheckedQuery, mapping: StoreMapping, count: Bool = false, summaries: Bool = false
    ) throws(LoweringError) -> (sql: String, parserDepth: Int) {
        let (select, _, lowering) = try statement(
            query, mapping: mapping, dialect: mapping.database.dialect, count: count, summaries: summaries)
        let renderer = SQLRenderer(dialect: lowering.dialect)
        var parser = SQLParserDepth.ofStatement()
        renderer.render(select, into: &parser)
        return (renderer.render(select).marked, parser.deepest)
    }

    /// The SELECT statement of `query`, its result columns, and the lowering's final state.
    private static func statement(
        _ query: CheckedQuery, mapping: StoreMapping, dialect: any SQLDialect, count: Bool, summaries: Bool
    ) throws(LoweringError) -> (SQLSelect, [ResultColumn], SQLLowering) {
        try dialect.checkSupported(query)
        var lowering = SQLLowering(schema: query.schema, mapping: mapping, dialect: dialect)
        var select = try lowering.lowerSelect(query, count: count)
        var columns = lowering.rootResultColumns
        if summaries, !count {
            let (summaryColumns, expressions) = try lowering.summaryColumns(of: query.entity)
            columns += summaryColumns
            select.columns += expressions
            // Display paths join their to-one relationships as filters and sort keys do.
            for path in query.displayPaths {
                columns.append(.displayPath(path))
                select.columns.append(try lowering.column(of: path))
            }
            select.joins = lowering.scopes[0].joins
        }
        return (select, columns, lowering)
    }

    private mutating func lowerSelect(_ query: CheckedQuery, count: Bool) throws(LoweringError) -> SQLSelect {
        let entity = try entityMapping(query.entity.name)
        scopes = [Scope(entity: query.entity.name, alias: newAlias("t"))]
        var conditions = entityFilter(entity, alias: scopes[0].alias)
        conditions += try filterConditions(query)
        var ordering: [SQLOrdering] = []
        for key in query.sortKeys {
            var (expr, nullable) = try value(.attribute(key.path, key.type))
            if !key.options.isEmpty { expr = folded(expr, key.options) }
            ordering.append(SQLOrdering(expr: expr, isAscending: key.isAscending, isNullable: nullable))
        }
        let primaryKey = SQLExpr.column(alias: scopes[0].alias, name: entity.primaryKey)
        ordering.append(SQLOrdering(expr: primaryKey, isAscending: true, isNullable: false))
        let limit = query.limit.map { bind(count: $0) }
        let offset = query.offset.map { bind(count: $0) }
        let root = scopes[0]
        if !count { rootResultColumns = try resultColumns(of: query.entity) }
        var select = SQLSelect(
            columns: count ? [.countRows] : try resultExpressions(rootResultColumns, of: query.entity, alias: root.alias),
            from: SQLTableReference(table: entity.table, alias: root.alias), joins: root.joins,
            filter: conditions.isEmpty ? nil : .and(conditions), ordering: count ? [] : ordering,
            limit: limit, offset: offset)
        if count, limit != nil || offset != nil {
            // A count of a page: count the rows of the paged selection.
            select.columns = [primaryKey]
            select.ordering = ordering
            select = SQLSelect(
                columns: [.countRows],
                from: SQLTableReference(table: entity.table, alias: "c"),
                filter: .binary(.column(alias: "c", name: entity.primaryKey), "IN", .scalar(select)))
        }
        return select
    }

    private mutating func bind(count: CheckedCount) -> SQLExpr {
        switch count {
        case .literal(let value): bind(.constant(.int(value), .int))
        case .parameter(let name): bind(.count(name))
        }
    }

    // MARK: - Bindings, aliases, mappings

    mutating func bind(_ binding: SQLBinding) -> SQLExpr {
        let hadRoom = bindings.count < bindings.capacity
        let before = bindings.withUnsafeBufferPointer { $0.baseAddress }
        bindings.append(binding)
        if hadRoom, before != bindings.withUnsafeBufferPointer({ $0.baseAddress }) { bindingCopies += 1 }
        return .binding(bindings.count - 1)
    }

    mutating func newAlias(_ prefix: String) -> String {
        defer { aliasCount += 1 }
        return "\(prefix)\(aliasCount)"
    }

    func entityMapping(_ name: String) throws(LoweringError) -> EntityMapping {
        guard let entity = mapping.entity(name) else {
            throw LoweringError(message: "the store has no table for entity '\(name)'")
        }
        return entity
    }

    func relationshipMapping(_ step: RelationshipStep) throws(LoweringError) -> RelationshipMapping {
        guard let relationship = mapping.relationship(step.relationship.name, of: step.source) else {
            throw LoweringError(message: "the store has no mapping for relationship '\(step.source).\(step.relationship.name)'")
        }
        return relationship
    }

    /// `alias.Z_ENT IN (…)` when the entity shares its table with others.
    func entityFilter(_ entity: EntityMapping, alias: String) -> [SQLExpr] {
        guard let column = entity.entityColumn, let numbers = entity.entityNumbers else { return [] }
        return [.inList(.column(alias: alias, name: column), numbers.map { .integer($0) })]
    }

    /// The alias of the object reached from `level` through the to-one `steps`,
    /// joining each step once per level.
    mutating func objectAlias(level: Int, steps: [RelationshipStep]) throws(LoweringError) -> String {
        var alias = scopes[level].alias
        var key = ""
        for step in steps {
            key += "." + step.source + "." + step.relationship.name
            if let joined = scopes[level].joinedPaths[key] {
                alias = joined
                continue
            }
            guard case .foreignKey(let column) = try relationshipMapping(step) else {
                throw LoweringError(message: "relationship '\(step.relationship.name)' is not stored as a foreign key")
            }
            let destination = try entityMapping(step.relationship.destination)
            let joinedAlias = newAlias("t")
            let condition = SQLExpr.binary(
                .column(alias: joinedAlias, name: destination.primaryKey), "=", .column(alias: alias, name: column))
            scopes[level].joins.append(
                SQLJoin(table: SQLTableReference(table: destination.table, alias: joinedAlias), condition: condition))
            scopes[level].joinedPaths[key] = joinedAlias
            alias = joinedAlias
        }
        return alias
    }

    /// The column holding an attribute reached by `path`.
    mutating func column(of path: AttributePath) throws(LoweringError) -> SQLExpr {
        let alias = try objectAlias(level: path.level, steps: path.steps)
        guard let name = try entityMapping(path.entity).columns[path.attribute.name] else {
            if let dot = path.attribute.name.firstIndex(of: ".") {
                let whole = path.attribute.name[..<dot]
                throw LoweringError(
                    message:
                        "the store keeps '\(path.entity).\(whole)' whole in one column, so its fields cannot be compared one by one; test it with '== nil' or '!= nil'"
                )
            }
            throw LoweringError(message: "the store has no column for '\(path.entity).\(path.attribute.name)'")
        }
        if try entityMapping(path.entity).columnsReadAsText?.contains(name) == true {
            return .castToText(.column(alias: alias, name: name))
        }
        switch path.attribute.type {
        case .double, .float, .decimal: return dialect.storedDouble(.column(alias: alias, name: name))
        default: return .column(alias: alias, name: name)
        }
    }

    // MARK: - Result rows

    /// The to-one relationships of an entity (its own and inherited), in declaration order.
    func toOneRelationships(of entity: Entity) -> [Relationship] {
        var relationships: [Relationship] = []
        for owner in lineageOldestFirst(of: entity) {
            for relationship in owner.relationships where !relationship.isToMany { relationships.append(relationship) }
        }
        return relationships
    }

    /// The attributes a result row holds. A Codable struct kept as one column per
    /// field (`author.person`, as Core Data lays out composite attributes) has no
    /// column of its own: its fields take its place, named by path (`author.person`),
    /// as the checker names them in queries.
    func storedAttributes(of entity: Entity) -> [Attribute] {
        let columns = mapping.entity(entity.name)?.columns ?? [:]
        var stored: [Attribute] = []
        // Each entity's own attributes, inherited ones first (`Schema.allProperties(of:)`'s
        // order), walked in place: this runs on every compile.
        for owner in lineageOldestFirst(of: entity) {
            for attribute in owner.attributes where !attribute.isTransient {
                guard columns[attribute.name] == nil, case .named(let typeName) = attribute.type,
                    let composite = schema.composite(named: typeName)
                else {
                    stored.append(attribute)
                    continue
                }
                for field in composite.fields {
                    var part = field
                    part.name = attribute.name + "." + field.name
                    part.isOptional = field.isOptional || attribute.isOptional
                    part.originalName = nil
                    if columns[part.name] != nil { stored.append(part) }
                }
            }
        }
        return stored
    }

    /// The entity and its ancestors, the root ancestor first.
    private func lineageOldestFirst(of entity: Entity) -> [Entity] {
        entity.parent == nil ? [entity] : schema.lineage(of: entity).reversed()
    }

    func resultColumns(of entity: Entity) throws(LoweringError) -> [ResultColumn] {
        let mapped = try entityMapping(entity.name)
        let attributes = storedAttributes(of: entity)
        let relationships = toOneRelationships(of: entity)
        var columns: [ResultColumn] = [.primaryKey]
        columns.reserveCapacity(2 + attributes.count + relationships.count)
        if mapped.entityColumn != nil { columns.append(.entityNumber) }
        for attribute in attributes { columns.append(.attribute(attribute)) }
        for relationship in relationships { columns.append(.toOne(relationship)) }
        return columns
    }

    /// The label attribute of an entity: a String attribute called `name` or
    /// `title`, else the first whose name contains one of those, else the first String.
    func labelAttribute(of entity: Entity) -> Attribute? {
        let strings = storedAttributes(of: entity).filter { $0.type == .string && !$0.name.contains(".") }
        return strings.first { $0.name == "name" || $0.name == "title" }
            ?? strings.first { $0.name.lowercased().contains("name") || $0.name.lowercased().contains("title") }
            ?? strings.first
    }

    /// Display columns: a label per to-one relationship, a count per to-many one.
    mutating func summaryColumns(of entity: Entity) throws(LoweringError) -> ([ResultColumn], [SQLExpr]) {
        var columns: [ResultColumn] = []
        var expressions: [SQLExpr] = []
        let alias = scopes[0].alias
        for property in schema.allProperties(of: entity) {
            guard case .relationship(let relationship) = property,
                let destination = schema.entity(named: relationship.destination)
            else { continue }
            if relationship.isToMany {
                let path = CollectionPath(
                    level: 0, steps: [], relationship: RelationshipStep(source: entity.name, relationship: relationship),
                    elementEntity: destination.name, elementLevel: 1)
                let (count, _) = try aggregate(.count, path, filter: nil, value: nil)
                columns.append(.toManyCount(relationship))
                expressions.append(count)
            } else if let label = labelAttribute(of: destination),
                case .foreignKey(let column)? = mapping.relationship(relationship.name, of: entity.name)
            {
                let target = try entityMapping(destination.name)
                guard let labelColumn = target.columns[label.name] else { continue }
                let labelAlias = newAlias("d")
                let select = SQLSelect(
                    columns: [.column(alias: labelAlias, name: labelColumn)],
                    from: SQLTableReference(table: target.table, alias: labelAlias),
                    filter: .binary(.column(alias: labelAlias, name: target.primaryKey), "=", .column(alias: alias, name: column))
                )
                columns.append(.toOneLabel(relationship))
                expressions.append(.scalar(select))
            }
        }
        return (columns, expressions)
    }

    /// The SQL of each result column (`resultColumns`), read from `alias`.
    private func resultExpressions(
        _ resultColumns: [ResultColumn], of entity: Entity, alias: String
    ) throws(LoweringError) -> [SQLExpr] {
        let mapped = try entityMapping(entity.name)
        var columns: [SQLExpr] = []
        columns.reserveCapacity(resultColumns.count)
        for column in resultColumns {
            switch column {
            case .primaryKey: columns.append(.column(alias: alias, name: mapped.primaryKey))
            case .entityNumber:
                if let entityColumn = mapped.entityColumn { columns.append(.column(alias: alias, name: entityColumn)) }
            case .attribute(let attribute):
                guard let name = mapped.columns[attribute.name] else {
                    throw LoweringError(message: "the store has no column for '\(entity.name).\(attribute.name)'")
                }
                columns.append(.column(alias: alias, name: name))
            case .toOne(let relationship):
                guard case .foreignKey(let column)? = mapping.relationship(relationship.name, of: entity.name) else {
                    throw LoweringError(
                        message: "relationship '\(entity.name).\(relationship.name)' is not stored as a foreign key")
                }
                columns.append(.column(alias: alias, name: column))
            case .toOneLabel, .toManyCount, .displayPath:
                break
            }
        }
        return columns
    }
}
