// To-many conditions that narrow the query's objects, run as one pass over the
// elements.
//
// Where they stand, `any` and the aggregates are correlated subqueries
// (SQLLowering+Collections): SQLite runs them once per object, probing the
// elements' foreign-key index each time. When such a condition is a conjunct of
// the WHERE clause and no other conjunct can use an index, every object is
// visited anyway, and one pass over the elements is faster (Benchmarks/README.md
// measures it: about 3× for `any`, 1.4× for `@count`, over ten million elements):
//
//     Budget where any transactions.amount > 900
//       t0.Z_PK IN (SELECT t1.ZBUDGET FROM ZTRANSACTION t1 WHERE t1.ZAMOUNT > ?1)
//     Budget where transactions.@count > 14
//       t0.Z_PK IN (SELECT t1.ZBUDGET FROM ZTRANSACTION t1 GROUP BY t1.ZBUDGET HAVING count(*) > ?1)
//
// SQLite then reads the subquery once and looks the objects up by key.
//
// When each form is right:
// - A grouped pass sees only objects with at least one element, so an aggregate
//   condition takes it only if it is false for an object with none. The reference
//   evaluator decides, on an object with no elements: `@count < 3` holds there
//   and stays correlated; `@count > 3`, `@sum > 0` and `@avg > 1` do not.
// - The condition may depend on the object only through its collection: an `any`
//   (or `!none`, `!all`) body refers to the element (or deeper), an aggregate
//   condition to its one aggregate and constants. With a parameter in the
//   condition, its value (and so the condition's value for no elements) is known
//   only when the query runs: the compiled query is marked, and the binding step
//   lowers it again with the values in hand (`CompiledQuery.shapeDependsOnValues`),
//   so a parameter gets the plan the literal would.
// - Another conjunct that can use an index (`name beginswith 'Va'` with an index
//   on the name) picks out a few objects to probe, and a limit may stop the scan
//   early: either keeps every to-many conjunct correlated. Which columns are
//   indexed comes from the store (`StoreMapping.indexedColumns`).
//
// The pass is a top-level conjunct, a lenient position: `IN` yields NULL only
// where it would yield false, and WHERE drops both.

extension SQLLowering {
    /// An element pass being built: the collection it groups, and the WHERE terms
    /// its aggregate's filter adds.
    struct ElementPass {
        var path: CollectionPath
        /// The column the pass groups by: each group's owner.
        var ownerColumn: SQLExpr
        var conditions: [SQLExpr] = []
    }

    /// What a to-many conjunct becomes in a pass.
    private enum PassShape {
        /// `any path: body`: the elements the body holds for.
        case any(CollectionPath, body: TypedExpr)
        /// A condition on one aggregate over `path`: groups whose aggregate makes it hold.
        case aggregate(CollectionPath, condition: TypedExpr)
    }

    /// The WHERE terms for the query's predicate: its top-level to-many conjuncts as
    /// element passes when nothing else can narrow the scan, else the predicate as it stands.
    mutating func filterConditions(_ query: CheckedQuery) throws(LoweringError) -> [SQLExpr] {
        guard let predicate = query.predicate else { return [] }
        guard query.limit == nil else { return [try condition(predicate, .lenient)] }
        let conjuncts = Self.conjuncts(of: predicate)
        let shapes = conjuncts.map { passShape($0, of: query.entity.name) }
        if zip(conjuncts, shapes).contains(where: { $1 == nil && Self.mayTakePassGivenValues($0) }) {
            shapeDependsOnValues = true
        }
        let narrowing = zip(conjuncts, shapes).contains { conjunct, shape in shape == nil && mayUseIndex(conjunct) }
        guard !narrowing, shapes.contains(where: { $0 != nil }) else { return [try condition(predicate, .lenient)] }
        var lowered: [SQLExpr] = []
        for (conjunct, shape) in zip(conjuncts, shapes) {
            switch shape {
            case .any(let path, let body)?: lowered.append(try elementPass(path, having: nil, where: body))
            case .aggregate(let path, let condition)?: lowered.append(try elementPass(path, having: condition, where: nil))
            case nil: lowered.append(try condition(conjunct, .lenient))
            }
        }
        return lowered
    }

    private static func conjuncts(of expr: TypedExpr) -> [TypedExpr] {
        guard case .and(let operands) = expr else { return [expr] }
        var conjuncts: [TypedExpr] = []
        conjuncts.reserveCapacity(operands.count)
        func add(_ expr: TypedExpr) {
            if case .and(let inner) = expr { inner.forEach(add) } else { conjuncts.append(expr) }
        }
        operands.forEach(add)
        return conjuncts
    }

    /// `owner IN (SELECT ownerColumn FROM elements WHERE … [GROUP BY ownerColumn HAVING …])`.
    private mutating func elementPass(
        _ path: CollectionPath, having: TypedExpr?, where body: TypedExpr?
    ) throws(LoweringError) -> SQLExpr {
        let source = try elementSource(path)
        scopes.append(Scope(entity: path.elementEntity, alias: source.alias))
        defer { scopes.removeLast() }
        var conditions = source.entityConditions
        if let body, !Self.isTrue(body) { conditions.append(try condition(body, .lenient)) }
        var havingCondition: SQLExpr?
        if let having {
            let outer = elementPass
            elementPass = ElementPass(path: path, ownerColumn: source.ownerColumn)
            defer { elementPass = outer }
            havingCondition = try condition(having, .lenient)
            conditions += elementPass?.conditions ?? []
            // Elements of no object make a group of their own, which no object's key
            // matches but whose aggregate is still computed, and can stop the query
            // (an Int sum out of PostgreSQL's range) for values pq never adds up.
            conditions.append(.not(.isNull(source.ownerColumn)))
        }
        let select = SQLSelect(
            columns: [source.ownerColumn], from: source.from, joins: source.joins + scopes[scopes.count - 1].joins,
            filter: conditions.isEmpty ? nil : .and(conditions),
            grouping: havingCondition == nil ? [] : [source.ownerColumn], having: havingCondition)
        return .binary(source.ownerKey, "IN", .scalar(select))
    }

    // MARK: - Which conjuncts take a pass

    /// How a conjunct runs as a pass, or nil if it must stay correlated.
    private func passShape(_ conjunct: TypedExpr, of entity: String) -> PassShape? {
        switch conjunct {
        // `!isEmpty` is `any` only where the collection cannot be nil, as a pass's is
        // (`isFromQueryObject`): through a nil to-one it is true and `any` false.
        case .quantified(.any, let path, let body), .not(.quantified(.none, let path, let body)):
            return Self.anyShape(path, body)
        case .not(.quantified(.all, let path, let body)):
            return Self.anyShape(path, .not(body))
        default:
            break
        }
        var aggregates: [(path: CollectionPath, parts: [TypedExpr])] = []
        guard Self.dependsOnlyOnAggregates(conjunct, &aggregates), aggregates.count == 1, let aggregate = aggregates.first,
            Self.isFromQueryObject(aggregate.path), !aggregate.parts.contains(where: Self.refersToQueryObject),
            isFalseWithoutElements(conjunct, entity: entity)
        else { return nil }
        return .aggregate(aggregate.path, condition: conjunct)
    }

    /// Whether anything inside a collection's body refers back to the query's object
    /// (as `$0.amount > limit` does in a closure): a pass would then be correlated
    /// and run once per object, the worst of both forms.
    private static func refersToQueryObject(_ expr: TypedExpr) -> Bool {
        switch expr {
        case .attribute(let path, _): return path.level == 0
        case .object(let path): return path.level == 0
        case .quantified(_, let path, _) where path.level == 0: return true
        case .aggregate(_, let path, _, _, _) where path.level == 0: return true
        default: return expr.anyChild(refersToQueryObject)
        }
    }

    private static func anyShape(_ path: CollectionPath, _ body: TypedExpr) -> PassShape? {
        guard isFromQueryObject(path), !refersToQueryObject(body) else { return nil }
        return .any(path, body: body)
    }

    private static func isFromQueryObject(_ path: CollectionPath) -> Bool {
        path.level == 0 && path.steps.isEmpty
    }

    /// Whether `expr` is built from constants and aggregates only; each aggregate's
    /// collection and its filter and value are collected in `found`. With
    /// `parameters`, parameters count as constants.
    private static func dependsOnlyOnAggregates(
        _ expr: TypedExpr, _ found: inout [(path: CollectionPath, parts: [TypedExpr])], parameters: Bool = false
    ) -> Bool {
        switch expr {
        case .aggregate(_, let path, _, _, _):
            found.append((path, expr.children))
            return true
        case .parameter:
            return parameters
        case .currentDate, .attribute, .object, .inParameterList, .quantified:
            return false
        default:
            return expr.allChildren { dependsOnlyOnAggregates($0, &found, parameters: parameters) }
        }
    }

    /// Whether an aggregate conjunct kept correlated because of a parameter might take
    /// a pass once the parameter's value is known.
    private static func mayTakePassGivenValues(_ conjunct: TypedExpr) -> Bool {
        func hasParameter(_ expr: TypedExpr) -> Bool {
            if case .parameter = expr { return true }
            return expr.anyChild(hasParameter)
        }
        guard hasParameter(conjunct) else { return false }
        var aggregates: [(path: CollectionPath, parts: [TypedExpr])] = []
        return dependsOnlyOnAggregates(conjunct, &aggregates, parameters: true) && aggregates.count == 1
    }

    /// Whether the reference evaluator finds the condition false for an object of
    /// `entity` with no elements (and no attributes, which it does not read).
    private func isFalseWithoutElements(_ condition: TypedExpr, entity: String) -> Bool {
        // An object the graph does not hold reads as one with no values and no related
        // objects (the evaluator reads every value and relationship through `graph[id]?`),
        // so the empty graph serves, without the cost of inserting one.
        let object = ObjectID(entity, 1)
        guard let holds = try? Evaluator(graph: ObjectGraph(schema: schema)).condition(condition, [object]) else {
            return false
        }
        return !holds
    }

    // MARK: - Which conjuncts can use an index

    /// Whether SQLite may answer the conjunct from an index on the query's objects
    /// (or on objects a to-one path joins), narrowing the objects to probe.
    private func mayUseIndex(_ conjunct: TypedExpr) -> Bool {
        switch conjunct {
        case .and(let operands): return operands.contains { mayUseIndex($0) }
        case .or(let operands): return !operands.isEmpty && operands.allSatisfy { mayUseIndex($0) }
        case .compare(let op, let lhs, let rhs, let options):
            guard options.isEmpty, op != .notEqual else { return false }
            return isIndexed(lhs) && Self.isKnownBeforeRunning(rhs) || isIndexed(rhs) && Self.isKnownBeforeRunning(lhs)
        case .stringTest(.beginsWith, let lhs, let rhs, let options):
            return options.isEmpty && isIndexed(lhs) && Self.isKnownBeforeRunning(rhs)
        case .inList(let element, let members):
            return isIndexed(element) && members.allSatisfy(Self.isKnownBeforeRunning)
        case .inParameterList(let element, _, _, let options):
            return options.isEmpty && isIndexed(element)
        case .inRange(let element, let lower, let upper, _):
            return isIndexed(element) && Self.isKnownBeforeRunning(lower) && Self.isKnownBeforeRunning(upper)
        case .isNil(let operand):
            return isIndexed(operand)
        default:
            return false
        }
    }

    /// Whether a value is a column that may lead an index: an attribute, or the
    /// foreign key of a to-one relationship tested for nil.
    private func isIndexed(_ operand: TypedExpr) -> Bool {
        switch operand {
        case .attribute(let path, _):
            guard let entity = mapping.entity(path.entity), let column = entity.columns[path.attribute.name] else {
                return true
            }
            return mapping.mayHaveIndex(table: entity.table, column: column)
        case .object(let path):
            guard let last = path.steps.last else { return false }
            guard case .foreignKey(let column)? = mapping.relationship(last.relationship.name, of: last.source),
                let owner = mapping.entity(last.source)
            else { return true }
            return mapping.mayHaveIndex(table: owner.table, column: column)
        default:
            return false
        }
    }

    /// A value SQLite knows before it reads a row: a constant, parameter or date, or arithmetic on them.
    private static func isKnownBeforeRunning(_ expr: TypedExpr) -> Bool {
        switch expr {
        case .constant, .parameter, .currentDate: return true
        case .negate(let operand, _), .toDouble(let operand): return isKnownBeforeRunning(operand)
        case .arithmetic(_, let lhs, let rhs, _): return isKnownBeforeRunning(lhs) && isKnownBeforeRunning(rhs)
        default: return false
        }
    }
}
