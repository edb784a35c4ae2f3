// A checked query, converted to Foundation's `Predicate`: the mirror of
// PredicateBridge.swift, which converts a `Predicate` into pq's tree.
//
// The exporter walks the typed IR and builds, for each construct, the nodes a
// `#Predicate` would hold for it (PredicateExporter+Comparisons, +Arithmetic,
// +Collections: a file per node family). What it builds means what pq's query
// means on every object, with the differences of Swift's own String and Double
// semantics documented in README.md ("Filters in a SwiftData app"); what
// Foundation cannot say the same way is refused, naming the construct and why.
//
// pq's meaning of nil carries over through Swift's optionals: a path through an
// optional to-one is a `flatMap` per step, an ordering test or string test with
// a nil operand is false (`?? false`), and `==`/`!=` compare optionals as Swift
// does, which is pq's rule (nil equals nil).

import Foundation

struct PredicateExporter {
    /// How many nodes one conversion may build: the first conversion of a shape builds a closure's
    /// body at nesting depth k k + 1 times (ClosurePrototypes.swift), so a huge query is refused
    /// before it is slow.
    static let nodeBudget = 200_000

    let schema: Schema
    let parameters: [String: ParameterValue]
    let environment: QueryEnvironment
    /// Each entity's declared properties, by name.
    let properties: [String: [String: PredicatePropertyAccess]]
    private let budget = Budget()

    private final class Budget {
        var remaining = PredicateExporter.nodeBudget
    }

    init(
        model: any QueryModel.Type, schema: Schema, parameters: [String: ParameterValue], environment: QueryEnvironment
    ) {
        self.schema = schema
        self.parameters = parameters
        self.environment = environment
        self.properties = Self.properties(reachableFrom: model)
    }

    /// The declared properties of every model reachable from `model`, by entity and
    /// name, made once per model type.
    static func properties(reachableFrom model: any QueryModel.Type) -> [String: [String: PredicatePropertyAccess]] {
        let key = ObjectIdentifier(model)
        if let known = accessCache.withLock({ $0[key] }) { return known }
        var properties: [String: [String: PredicatePropertyAccess]] = [:]
        var pending: [any QueryModel.Type] = [model]
        while let next = pending.popLast() {
            guard properties[next.entityName] == nil else { continue }
            properties[next.entityName] = next.predicateAccessByName
            pending += next.relatedModels
        }
        accessCache.withLock { $0[key] = properties }
        return properties
    }

    private static let accessCache = Locked<[ObjectIdentifier: [String: [String: PredicatePropertyAccess]]]>([:])

    /// The predicate of `query` over objects of `Model`.
    func predicate<Model>(_ query: CheckedQuery, _: Model.Type) throws -> Predicate<Model> {
        let unbound = query.parameters.map(\.name).filter { parameters[$0] == nil }
        if !unbound.isEmpty {
            throw PredicateExportError(
                construct: unbound.map { "'$\($0)'" }.joined(separator: ", "),
                reason: "a Foundation predicate holds values, not parameters: give \(unbound.count == 1 ? "its value" : "their values") first")
        }
        guard let expr = query.predicate else { return Predicate<Model> { _ in PredicateExpressions.Value(true) } }
        // A shape converted before: its closure nodes' types are known. Should they not fit after all, the
        // conversion is made again from scratch (ClosurePrototypes.swift).
        let record = ClosurePrototypes(shape: {
            ClosurePrototypes.Shape(model: ObjectIdentifier(Model.self), expression: expr.shapeHash)
        })
        do {
            let predicate = try build(expr, Model.self, prototypes: record)
            if !record.isReplaying, let shape = record.shape { ClosurePrototypes.remember(record.prototypes, for: shape) }
            return predicate
        } catch where record.isReplaying {
            budget.remaining = Self.nodeBudget
            let fresh = ClosurePrototypes(shape: nil)
            let predicate = try build(expr, Model.self, prototypes: fresh)
            if let shape = record.shape { ClosurePrototypes.remember(fresh.prototypes, for: shape) }
            return predicate
        }
    }

    /// The predicate of `expr` over objects of `Model`, its closure nodes' types taken from `prototypes`.
    private func build<Model>(_ expr: TypedExpr, _: Model.Type, prototypes: ClosurePrototypes) throws -> Predicate<Model> {
        var failure: (any Error)?
        let predicate = prototypes.during {
            Predicate<Model> { (object: PredicateExpressions.Variable<Model>) -> any StandardPredicateExpression<Bool> in
                do {
                    return try condition(expr, [PredicateTerm(object)]).typed(Bool.self)
                } catch {
                    failure = error
                    return PredicateExpressions.Value(false)
                }
            }
        }
        if let failure { throw failure }
        return predicate
    }

    // MARK: - Conditions and values

    /// A condition: a term whose value is a `Bool`, never nil.
    func condition(_ expr: TypedExpr, _ scopes: [PredicateTerm]) throws -> PredicateTerm {
        try spend()
        if isConstant(expr) { return PredicateNodes.value(try constantCondition(expr)) }
        switch expr {
        case .not(let operand): return try PredicateNodes.not(condition(operand, scopes))
        case .and(let operands): return try PredicateNodes.and(operands.map { try condition($0, scopes) })
        case .or(let operands): return try PredicateNodes.or(operands.map { try condition($0, scopes) })
        case .isNil(let operand): return try isNil(operand, scopes)
        case .compare(let op, let lhs, let rhs, let options): return try compare(op, lhs, rhs, options, scopes)
        case .stringTest(let op, let lhs, let rhs, let options): return try stringTest(op, lhs, rhs, options, scopes)
        case .inList(let element, let members): return try inList(element, members, scopes)
        case .inParameterList(let element, let name, let type, let options):
            guard options.isEmpty else { throw PredicateExportError.folding("'in\(options.spelling)'") }
            return try inParameterList(element, name, type, scopes)
        case .inRange(let element, let lower, let upper, let kind):
            return try PredicateNodes.and([
                compare(.greaterOrEqual, element, lower, [], scopes),
                compare(kind == .closed ? .lessOrEqual : .less, element, upper, [], scopes),
            ])
        case .quantified(let quantifier, let path, let body): return try quantified(quantifier, path, body, scopes)
        default:
            // A Bool-valued attribute or coalesce: true when it is true (nil is false).
            let term = try value(expr, scopes)
            guard term.unwrappedType == Bool.self else {
                throw PredicateExportError(construct: describe(expr), reason: "it is not a condition")
            }
            if term.isOptional { return try PredicateNodes.equal(term, PredicateNodes.value(Bool?.some(true)), Bool?.self, negated: false) }
            return term
        }
    }

    /// A value: a term of the Swift type the model declares (optional where it can be nil).
    func value(_ expr: TypedExpr, _ scopes: [PredicateTerm]) throws -> PredicateTerm {
        try spend()
        switch expr {
        case .attribute(let path, _): return try attribute(path, scopes)
        case .object(let path): return try object(level: path.level, steps: path.steps, scopes)
        case .arithmetic(let op, let lhs, let rhs, _): return try arithmetic(op, lhs, rhs, scopes)
        case .negate(let operand, _): return try negate(operand, scopes)
        case .coalesce(let lhs, let rhs, _): return try coalesce(lhs, rhs, scopes)
        case .aggregate(let function, let path, let filter, _, _): return try aggregate(function, path, filter, scopes)
        case .toDouble(let operand):
            throw PredicateExportError(
                construct: "the Int value \(describe(operand)) used as a Double",
                reason: "Foundation's predicates have no conversion from Int to Double; compare it with a number, or make both Double")
        case .quantified(let quantifier, let path, let body): return try quantifiedValue(quantifier, path, body, scopes)
        case .isNil, .not, .and, .or, .compare, .stringTest, .inList, .inParameterList, .inRange:
            return try condition(expr, scopes)
        case .constant, .parameter, .currentDate:
            throw PredicateExportError(
                construct: describe(expr), reason: "a value with nothing to compare it with has no Swift type to take")
        }
    }

    private func spend() throws {
        budget.remaining -= 1
        if budget.remaining < 0 {
            throw PredicateExportError(
                construct: "the query",
                reason: "it nests too many closures (optional chains, quantifiers) to build as a Foundation predicate")
        }
    }

    // MARK: - Paths

    /// The object reached from the one in scope at `level` through to-one `steps`.
    func object(level: Int, steps: [RelationshipStep], _ scopes: [PredicateTerm]) throws -> PredicateTerm {
        guard level < scopes.count else {
            throw PredicateExportError(construct: "an object at level \(level)", reason: "it is not in scope; this is a bug in pq")
        }
        var current = scopes[level]
        for step in steps {
            let access = try property(step.relationship.name, of: step.source)
            current = try read(access, of: current)
        }
        return current
    }

    /// `read(term)`, or `term.flatMap { read($0) }` when the term is optional.
    func readThroughOptional(_ term: PredicateTerm, _ read: (PredicateTerm) throws -> PredicateTerm) throws
        -> PredicateTerm
    {
        if let optional = term.optionalType {
            return try optional.flatMap(term, body: read)
        }
        return try read(term)
    }

    /// The property `access` reads, of `owner` (through it, when it is optional).
    private func read(_ access: PredicatePropertyAccess, of owner: PredicateTerm) throws -> PredicateTerm {
        if owner.isOptional, let readFromOptional = access.readFromOptional { return try readFromOptional(owner) }
        return try readThroughOptional(owner) { try access.read($0) }
    }

    func attribute(_ path: AttributePath, _ scopes: [PredicateTerm]) throws -> PredicateTerm {
        let owner = try object(level: path.level, steps: path.steps, scopes)
        let access = try property(path.attribute.name, of: path.entity)
        return try read(access, of: owner)
    }

    func property(_ name: String, of entity: String) throws -> PredicatePropertyAccess {
        guard let access = properties[entity]?[name] else {
            throw PredicateExportError(
                construct: "'\(entity).\(name)'",
                reason: "no QueryModel type in reach declares it in its queryProperties, so pq has no key path for it")
        }
        return access
    }

    // MARK: - Constants

    /// Whether the expression reads nothing of an object: literals, parameters, `now()`.
    func isConstant(_ expr: TypedExpr) -> Bool { expr.readsNoObject }

    /// The value of a constant expression, computed as pq computes it.
    func constantValue(_ expr: TypedExpr) throws -> Value {
        // A literal is its value (as the evaluator reads it), without an evaluator.
        if case .constant(let value, _) = expr { return value }
        return try evaluatingConstant(expr) { try $0.value(expr, []) }
    }

    func constantCondition(_ expr: TypedExpr) throws -> Bool {
        try evaluatingConstant(expr) { try $0.condition(expr, []) }
    }

    /// `body` with pq's evaluator (on no objects: the expression reads none).
    private func evaluatingConstant<T>(_ expr: TypedExpr, _ body: (Evaluator) throws -> T) throws -> T {
        let evaluator = Evaluator(graph: ObjectGraph(schema: schema), parameters: parameters, environment: environment)
        do {
            return try body(evaluator)
        } catch {
            throw PredicateExportError(construct: describe(expr), reason: "\(error)")
        }
    }

    /// A constant as a value of the Swift type `like` has (or its optional, for nil).
    func constant(_ expr: TypedExpr, like term: PredicateTerm, optionalLikeIt: Bool = false) throws -> PredicateTerm {
        let value = try constantValue(expr)
        if value.isNull {
            if let optional = term.optionalType { return optional.nilLiteral }
            return try scalarType(of: term, for: expr).optionalConstant(value)
        }
        let scalar = try scalarType(of: term, for: expr)
        return optionalLikeIt && term.isOptional ? try scalar.optionalConstant(value) : try scalar.constant(value)
    }

    func scalarType(of term: PredicateTerm, for expr: TypedExpr) throws -> any PredicateScalar.Type {
        let valueType = term.valueType
        if valueType.isModel {
            throw PredicateExportError(
                construct: "the object comparison \(describe(expr))",
                reason: "pq compares objects by their store key, which a Swift object does not carry")
        }
        guard let scalar = valueType.scalar else {
            throw PredicateExportError(
                construct: describe(expr), reason: "values of the Swift type '\(term.unwrappedType)' cannot be compared in a predicate")
        }
        return scalar
    }

    /// Both operands as terms of one Swift type: a constant takes the other's type, and
    /// with `optionalConstants` its optionality too (`x?.name == "a"` compares optionals).
    /// `built` is a term already made for one side (`lhs` or `rhs`), so as not to make it twice.
    func operands(
        _ lhs: TypedExpr, _ rhs: TypedExpr, _ scopes: [PredicateTerm],
        built: (left: PredicateTerm?, right: PredicateTerm?) = (nil, nil), optionalConstants: Bool = false
    ) throws -> (PredicateTerm, PredicateTerm) {
        if isConstant(lhs) {
            let right = try built.right ?? value(rhs, scopes)
            return (try constant(lhs, like: right, optionalLikeIt: optionalConstants), right)
        }
        let left = try built.left ?? value(lhs, scopes)
        let right =
            isConstant(rhs)
            ? try constant(rhs, like: left, optionalLikeIt: optionalConstants) : try built.right ?? value(rhs, scopes)
        guard left.unwrappedType == right.unwrappedType else {
            throw PredicateExportError(
                construct: "\(describe(lhs)) and \(describe(rhs))",
                reason: "their Swift types differ ('\(left.unwrappedType)' and '\(right.unwrappedType)'), and Foundation's predicates do not convert between them")
        }
        return (left, right)
    }

    /// `body` on the operands unwrapped: each optional one is `flatMap`ped, so a nil
    /// operand makes the result nil.
    func lifted(_ terms: [PredicateTerm], _ body: ([PredicateTerm]) throws -> PredicateTerm) throws -> PredicateTerm {
        guard let index = terms.firstIndex(where: \.isOptional), let optional = terms[index].optionalType
        else { return try body(terms) }
        let rest = { (unwrapped: PredicateTerm) -> PredicateTerm in
            var operands = terms
            operands[index] = unwrapped
            return try lifted(operands, body)
        }
        // `budget?.name` then a test: one closure, `budget.flatMap { b in test(b.name) }`.
        if let member = terms[index].node as? any PredicateMemberOfOptional, let fused = try member.fused(rest) {
            return fused
        }
        return try optional.flatMap(terms[index], body: rest)
    }

    /// A condition that is nil when an operand was: nil is false.
    func nilIsFalse(_ term: PredicateTerm) throws -> PredicateTerm {
        term.isOptional ? try PredicateNodes.coalesce(term, PredicateNodes.value(false), Bool.self) : term
    }

    /// What the message calls an expression.
    func describe(_ expr: TypedExpr) -> String {
        switch expr {
        case .attribute(let path, _): "'\(path.dottedName)'"
        case .parameter(let name, _): "'$\(name)'"
        case .constant(let value, _): "the value \(value)"
        case .currentDate(let function): "'\(function.rawValue)()'"
        case .aggregate(let function, let path, _, _, _):
            "'\((path.steps.map(\.relationship.name) + [path.relationship.relationship.name]).joined(separator: ".")).@\(function.rawValue)'"
        default: "this expression"
        }
    }
}

extension QueryModel {
    /// The Foundation readers of this type's declared properties, by name.
    static var predicateAccessByName: [String: PredicatePropertyAccess] {
        var result: [String: PredicatePropertyAccess] = [:]
        for property in queryProperties {
            if let access = property.predicateAccess { result[property.name] = access }
        }
        return result
    }
}
