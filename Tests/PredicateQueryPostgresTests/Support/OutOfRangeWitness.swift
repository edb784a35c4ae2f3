// Which of pq's values PostgreSQL's numbers cannot give, found with the evaluator:
// the check that a PostgreSQL "value out of range" error is honest.
//
// PostgreSQL evaluates a WHERE clause in an order of its choosing, so the witness
// visits every arithmetic node and `@sum`/`@avg` of a query for every object the
// query ranges over (and every element of every collection), not only where the
// evaluator's short-circuit would look. It records what pq computes there that
// `PostgreSQLDialect+Numbers` says PostgreSQL raises for: an Int result outside
// Int's range (pq's answer a Double), a nonzero Double product or quotient
// underflowing to zero (of which PostgreSQL raises only for a tie), a partial sum
// of Doubles in `@sum`/`@avg` overflowing to infinity from finite values, and an
// `@sum` of Ints one of whose partial sums, in key order, leaves Int's range.
//
// PostgreSQL may also compute an operation for rows no object of the query reaches:
// a condition on one table alone is pushed down to that table's scan (`-owner.age`
// for every User once the join is made an inner one; `-pets.age` in a NOT EXISTS
// for every Pet, owned or not; `v1.pets.@sum.age` for every User, a child or not,
// where `children.filter { v1 in … }` joins the Users it reaches). So an operation,
// aggregate or quantifier whose free attributes and collections all start from one
// table is also visited for every object of that table (`visitTableWide`). Which
// plan PostgreSQL picks depends on its statistics, which autovacuum may gather part
// way through a run: the same query on the same data may compute the pushed-down
// condition in one run and not in the next.

import Foundation

@testable import PredicateQuery

struct OutOfRangeWitness {
    enum Cause: String, Hashable, CaseIterable {
        case intOverflow = "Int leaves Int's range"
        case intSumRange = "@sum of Ints leaves Int's range part way"
        case doubleOverflow = "Double overflows to infinity"
        case doubleUnderflow = "Double underflows to 0"

        /// The cause a PostgreSQL store's error names (`PostgresConnection.outOfRangeCause`).
        init?(message: String) {
            if message.contains("an Int computation") {
                self = .intOverflow
            } else if message.contains("an @sum of Ints") {
                self = .intSumRange
            } else if message.contains("Double computation overflows") {
                self = .doubleOverflow
            } else if message.contains("underflows") {
                self = .doubleUnderflow
            } else {
                return nil
            }
        }
    }

    let evaluator: Evaluator
    private(set) var causes: Set<Cause> = []
    /// The operations already visited for every object of their table.
    private var visitedTableWide: Set<String> = []

    /// The causes met anywhere in `query` over `graph`.
    static func causes(
        _ query: CheckedQuery, graph: ObjectGraph, parameters: [String: ParameterValue], environment: QueryEnvironment
    ) -> Set<Cause> {
        var witness = OutOfRangeWitness(
            evaluator: Evaluator(graph: graph, parameters: parameters, environment: environment))
        guard let predicate = query.predicate else { return [] }
        for id in graph.objects(of: query.entity.name) { witness.visit(predicate, [id]) }
        return witness.causes
    }

    private mutating func visit(_ expr: TypedExpr, _ scopes: [ObjectID]) {
        switch expr {
        case .quantified(_, let path, let body):
            visitTableWide(expr)
            for element in evaluator.elements(of: path, scopes) ?? [] {
                visit(body, Array(scopes.prefix(path.elementLevel)) + [element])
            }
            return
        case .aggregate(let function, let path, let filter, let value, _):
            visitTableWide(expr)
            aggregate(function, path, filter, value, scopes)
            return
        case .arithmetic(_, _, _, .int), .arithmetic(_, _, _, .double), .negate(_, .int):
            witness(expr, scopes)
            visitTableWide(expr)
        default:
            break
        }
        for child in expr.children { visit(child, scopes) }
    }

    /// The cause an Int or Double operation meets with `scopes` in scope, if any.
    private mutating func witness(_ operation: TypedExpr, _ scopes: [ObjectID]) {
        switch operation {
        case .arithmetic(let op, let lhs, let rhs, _):
            if let a = try? evaluator.value(lhs, scopes), let b = try? evaluator.value(rhs, scopes) {
                arithmetic(op, a, b)
            }
        case .negate(let operand, .int):
            if case .int(.min)? = try? evaluator.value(operand, scopes) { causes.insert(.intOverflow) }
        default:
            break
        }
    }

    /// An operation, aggregate or quantifier on one table, computed for every object
    /// of that table, as PostgreSQL may when it pushes the condition down to the
    /// table's scan. The rewritten expression reads that table's object at its own
    /// level with no to-one steps; every level up to the first it binds holds the
    /// object, so what the expression binds inside (an aggregate's elements) keeps
    /// its levels.
    private mutating func visitTableWide(_ operation: TypedExpr) {
        var tables: Set<AttributeSource> = []
        guard let alone = Self.onOneTable(operation, boundFrom: .max, &tables), tables.count == 1,
            let table = tables.first, visitedTableWide.insert(String(describing: alone)).inserted
        else { return }
        // Every level below the first one the expression binds holds the object.
        let levels = max(table.level + 1, Self.firstBoundLevel(alone) ?? 0)
        for id in evaluator.graph.objects(of: table.entity) {
            visit(alone, Array(repeating: id, count: levels))
        }
    }

    /// The lowest level an aggregate or quantifier in `expr` binds its elements at.
    private static func firstBoundLevel(_ expr: TypedExpr) -> Int? {
        var lowest: Int?
        switch expr {
        case .aggregate(_, let path, _, _, _), .quantified(_, let path, _): lowest = path.elementLevel
        default: break
        }
        for child in expr.children {
            if let level = firstBoundLevel(child) { lowest = min(lowest ?? level, level) }
        }
        return lowest
    }

    /// Where an attribute or collection is read from: the object in scope and the
    /// to-one steps after it.
    private struct AttributeSource: Hashable {
        var level: Int
        var steps: [RelationshipStep]
        var entity: String
    }

    /// `expr` with every free attribute and collection (one that starts from a level
    /// below `boundFrom`, which the expression does not bind itself) read from the
    /// object at its level, without steps, the sources it read them from gathered in
    /// `tables`; nil where it holds anything but attributes, values, arithmetic,
    /// comparisons, aggregates and quantifiers.
    private static func onOneTable(
        _ expr: TypedExpr, boundFrom: Int, _ tables: inout Set<AttributeSource>
    ) -> TypedExpr? {
        func free(_ level: Int, _ steps: [RelationshipStep], _ entity: String) -> Bool {
            guard level < boundFrom else { return false }
            tables.insert(AttributeSource(level: level, steps: steps, entity: entity))
            return true
        }
        func each(_ operands: [TypedExpr]) -> [TypedExpr]? {
            var rewritten: [TypedExpr] = []
            for operand in operands {
                guard let r = onOneTable(operand, boundFrom: boundFrom, &tables) else { return nil }
                rewritten.append(r)
            }
            return rewritten
        }
        switch expr {
        case .constant, .parameter, .currentDate:
            return expr
        case .attribute(var path, let type):
            if free(path.level, path.steps, path.entity) { path.steps = [] }
            return .attribute(path, type)
        case .arithmetic(let op, let lhs, let rhs, let type):
            return each([lhs, rhs]).map { .arithmetic(op, $0[0], $0[1], type) }
        case .negate(let operand, let type):
            return onOneTable(operand, boundFrom: boundFrom, &tables).map { .negate($0, type) }
        case .coalesce(let lhs, let rhs, let type):
            return each([lhs, rhs]).map { .coalesce($0[0], $0[1], type) }
        case .toDouble(let operand):
            return onOneTable(operand, boundFrom: boundFrom, &tables).map { .toDouble($0) }
        case .compare(let op, let lhs, let rhs, let options):
            return each([lhs, rhs]).map { .compare(op, $0[0], $0[1], options) }
        case .not(let operand):
            return onOneTable(operand, boundFrom: boundFrom, &tables).map { .not($0) }
        case .and(let operands):
            return each(operands).map { .and($0) }
        case .or(let operands):
            return each(operands).map { .or($0) }
        case .aggregate(let function, var path, let filter, let value, let type):
            if free(path.level, path.steps, path.relationship.source) { path.steps = [] }
            let inner = min(boundFrom, path.elementLevel)
            var rewrittenFilter: TypedExpr?
            var rewrittenValue: TypedExpr?
            if let filter {
                guard let r = onOneTable(filter, boundFrom: inner, &tables) else { return nil }
                rewrittenFilter = r
            }
            if let value {
                guard let r = onOneTable(value, boundFrom: inner, &tables) else { return nil }
                rewrittenValue = r
            }
            return .aggregate(function, path, filter: rewrittenFilter, value: rewrittenValue, type)
        case .quantified(let quantifier, var path, let body):
            if free(path.level, path.steps, path.relationship.source) { path.steps = [] }
            return onOneTable(body, boundFrom: min(boundFrom, path.elementLevel), &tables)
                .map { .quantified(quantifier, path, $0) }
        default:
            return nil
        }
    }

    private mutating func arithmetic(_ op: ArithmeticOperator, _ a: Value, _ b: Value) {
        let result = SQLiteSemantics.arithmetic(op, a, b)
        switch (a, b, result) {
        case (.int, .int, .double):
            causes.insert(.intOverflow)
        case (.double(let x), .double(let y), .double(let z)):
            // PostgreSQL raises here only past the guard's budget (`SQLRenderer+Doubles`).
            if x.isFinite, y.isFinite, z.isInfinite { causes.insert(.doubleOverflow) }
            if op == .multiply || op == .divide, x != 0, y != 0, z == 0 { causes.insert(.doubleUnderflow) }
        default:
            break
        }
    }

    private mutating func aggregate(
        _ function: AggregateFunction, _ path: CollectionPath, _ filter: TypedExpr?, _ value: TypedExpr?,
        _ scopes: [ObjectID]
    ) {
        var values: [Value] = []
        for element in evaluator.elements(of: path, scopes) ?? [] {
            let inner = Array(scopes.prefix(path.elementLevel)) + [element]
            if let filter {
                visit(filter, inner)
                guard (try? evaluator.condition(filter, inner)) == true else { continue }
            }
            guard let value else { continue }
            visit(value, inner)
            if let number = try? evaluator.value(value, inner), !number.isNull { values.append(number) }
        }
        guard function == .sum || function == .avg, value?.type == .int || value?.type == .double else { return }
        if function == .sum, value?.type == .int {
            // pq's sum is a Double once a partial sum, in key order, leaves Int's range.
            if case .double = Aggregates.sum(values) { causes.insert(.intSumRange) }
            return
        }
        var sum: Double?
        for number in values.compactMap(SQLiteSemantics.number) {
            guard let partial = sum else {
                sum = number
                continue
            }
            if partial.isFinite, number.isFinite, (partial + number).isInfinite { causes.insert(.doubleOverflow) }
            sum = partial + number
        }
        if function == .avg, let sum, sum != 0, sum.isFinite, sum / Double(values.count) == 0 {
            causes.insert(.doubleUnderflow)
        }
    }
}
