// Typed queries as values: predicates and sort orders built in code, combined at
// run time, and compiled like text.
//
//     let query = Budget.filter { $0.limit > 100 && $0.name.contains("Vac") }
//         .sorted(by: \.name)
//         .limit(10)
//
//     var predicate = ModelPredicate<Transaction>.always
//     if let minimum { predicate = predicate && ModelPredicate { $0.amount >= minimum } }
//     if onlyWithReceipts { predicate = predicate && ModelPredicate { $0.hasReceipt == true } }
//     let filtered = ModelQuery(where: predicate)

import Foundation

/// A predicate over one model type, as a value.
public struct ModelPredicate<Model: QueryModel>: Sendable {
    /// The condition an object must meet, as the typed builder wrote it.
    public let condition: QueryCondition

    /// A predicate that holds where `condition` holds.
    public init(_ condition: QueryCondition) {
        self.condition = condition
    }

    /// The predicate `test` writes, with `$0` the model object.
    public init(_ test: (ModelReference<Model>) -> QueryCondition) {
        condition = test(.object)
    }

    /// Every object.
    public static var always: ModelPredicate { ModelPredicate(QueryCondition.always) }
    /// No object.
    public static var never: ModelPredicate { ModelPredicate(QueryCondition.never) }

    /// A predicate that holds where both `lhs` and `rhs` hold: `&&`.
    public static func && (lhs: ModelPredicate, rhs: ModelPredicate) -> ModelPredicate {
        if lhs.isAlways { return rhs }
        if rhs.isAlways { return lhs }
        return ModelPredicate(lhs.condition && rhs.condition)
    }

    /// A predicate that holds where `lhs`, `rhs` or both hold: `||`.
    public static func || (lhs: ModelPredicate, rhs: ModelPredicate) -> ModelPredicate {
        ModelPredicate(lhs.condition || rhs.condition)
    }

    /// A predicate that holds where `operand` does not: `!`.
    public static prefix func ! (operand: ModelPredicate) -> ModelPredicate {
        ModelPredicate(!operand.condition)
    }

    /// Every predicate holds.
    public static func all(of predicates: [ModelPredicate]) -> ModelPredicate {
        ModelPredicate(QueryCondition.all(of: predicates.filter { !$0.isAlways }.map(\.condition)))
    }

    /// Some predicate holds.
    public static func any(of predicates: [ModelPredicate]) -> ModelPredicate {
        ModelPredicate(QueryCondition.any(of: predicates.map(\.condition)))
    }

    private var isAlways: Bool {
        if case .literal(.bool(true)) = condition.fragment.expr.kind { return true }
        return false
    }
}

/// One sort key of a model query.
public struct ModelSort<Model: QueryModel>: Sendable {
    let key: SortKey
    let problems: [String]

    init(key: SortKey) {
        self.key = key
        self.problems = []
    }

    /// Sorts by `keyPath` (through to-one relationships too: `\.budget?.name`).
    /// `.forward` is ascending, with nil first; `options` compares folded strings.
    public init<V: QueryValue>(_ keyPath: KeyPath<Model, V>, order: SortOrder = .forward, options: StringOptions = []) {
        switch KeyPathNames.components(of: keyPath) {
        case .success(let components):
            key = SortKey(PropertyPath(root: .object, components), ascending: order == .forward, options: options)
            problems = []
        case .failure(let error):
            key = SortKey(PropertyPath(root: .object, []), ascending: true)
            problems = [error.message]
        }
    }
}

/// A whole typed query: the predicate, the order, the page.
public struct ModelQuery<Model: QueryModel>: Sendable {
    /// The filter: which objects the query selects.
    public var predicate: ModelPredicate<Model> { didSet { checkedFromText = nil } }
    /// The order of the results, most significant key first; empty for the store's order.
    public var sortKeys: [ModelSort<Model>] { didSet { checkedFromText = nil } }
    /// At most this many results (`limit n`), or nil for all of them.
    public var limit: Int? { didSet { checkedFromText = nil } }
    /// How many results to skip before the first one returned (`offset n`), or nil for none.
    public var offset: Int? { didSet { checkedFromText = nil } }
    /// Values for the query's `$name` parameters, given with `binding(_:)`.
    public var parameterValues: [String: ParameterValue] = [:]
    /// The text the query was parsed from, which its diagnostics point into.
    var sourceText: String?
    /// The query as `init(parsing:)` checked it against `Model`'s schema, with the
    /// standard limits: what checking `syntax` again gives, kept so that
    /// `foundationPredicate()` does not check the query a second time. Any change to
    /// the predicate, sort keys, limit or offset drops it (parameter values are not
    /// part of the check).
    var checkedFromText: CheckedQuery?

    /// A query for `Model` objects that meet `predicate`, in the order of `sortKeys`,
    /// with an optional page (`limit`, `offset`). The defaults select every object.
    public init(
        where predicate: ModelPredicate<Model> = .always, sortedBy sortKeys: [ModelSort<Model>] = [], limit: Int? = nil,
        offset: Int? = nil
    ) {
        self.predicate = predicate
        self.sortKeys = sortKeys
        self.limit = limit
        self.offset = offset
    }

    /// Adds a condition (with `&&`).
    public func filter(_ test: (ModelReference<Model>) -> QueryCondition) -> ModelQuery {
        filter(ModelPredicate(test))
    }

    /// Adds a predicate (with `&&`).
    public func filter(_ other: ModelPredicate<Model>) -> ModelQuery {
        var query = self
        query.predicate = predicate && other
        return query
    }

    /// Appends a sort key.
    public func sorted<V: QueryValue>(by keyPath: KeyPath<Model, V>, _ order: SortOrder = .forward, options: StringOptions = [])
        -> ModelQuery
    {
        sorted(by: [ModelSort(keyPath, order: order, options: options)])
    }

    /// Appends sort keys.
    public func sorted(by keys: [ModelSort<Model>]) -> ModelQuery {
        var query = self
        query.sortKeys += keys
        return query
    }

    /// At most `count` objects.
    public func limit(_ count: Int?) -> ModelQuery {
        var query = self
        query.limit = count
        return query
    }

    /// Skips the first `count` objects.
    public func offset(_ count: Int?) -> ModelQuery {
        var query = self
        query.offset = count
        return query
    }

    /// The syntax tree: the same one the text of this query parses to.
    public var syntax: Query {
        var predicate: Expr? = self.predicate.condition.fragment.expr
        if case .literal(.bool(true))? = predicate?.kind { predicate = nil }
        return Query(
            entity: Name(Model.entityName), predicate: predicate, sortKeys: sortKeys.map { $0.key },
            limit: limit.map { QueryCount(.literal(Int64($0))) }, offset: offset.map { QueryCount(.literal(Int64($0))) })
    }

    /// The values of the parameters the builder introduced for values that have no
    /// exact literal (see `QueryFragment`); pass them with the query's own parameters.
    public var boundValues: [String: ParameterValue] {
        predicate.condition.fragment.boundValues.mapValues { .single($0) }
    }

    /// What the builder could not express, if anything.
    public var problems: [String] {
        // Closures, not key paths: a key path into a generic type is made at run time, each time.
        predicate.condition.fragment.problems + sortKeys.flatMap { $0.problems }
    }

    /// The query as text in pq's language.
    public var text: String { Printer.print(syntax) }

    /// Checks and lowers the query. Diagnostics point into `text`, the query as pq
    /// writes it, so they render with a caret like those of typed text.
    public func compile(
        schema: Schema, mapping: StoreMapping, count: Bool = false, summaries: Bool = false, limits: Limits = .standard
    ) -> CompileResult {
        if !problems.isEmpty {
            let diagnostics = problems.map { Diagnostic.error(.unsupportedConstruct, $0, at: .point(0)) }
            return CompileResult(compiled: nil, checked: nil, diagnostics: diagnostics)
        }
        let syntax = self.syntax
        let result = QueryCompiler.compile(
            syntax, schema: schema, mapping: mapping, count: count, summaries: summaries, limits: limits)
        guard !result.diagnostics.isEmpty, !result.diagnostics.contains(where: { $0.code.rawValue.hasPrefix("limit.") }) else {
            return result
        }
        // Checked again from the text, the diagnostics get spans in `text`.
        let fromText = QueryCompiler.compile(
            text, schema: schema, mapping: mapping, count: count, summaries: summaries, limits: limits)
        return CompileResult(compiled: result.compiled, checked: result.checked, diagnostics: fromText.diagnostics)
    }
}

extension QueryModel {
    /// A query for objects of this type that pass `test`.
    public static func filter(_ test: (ModelReference<Self>) -> QueryCondition) -> ModelQuery<Self> {
        ModelQuery(where: ModelPredicate(test))
    }

    /// A query for every object of this type.
    public static var all: ModelQuery<Self> { ModelQuery() }
}
