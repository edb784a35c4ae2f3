// `$0` in a typed predicate: a model object, reached from the query's object, a
// closure's element, or through to-one relationships. Its members are the
// model's properties, by key path, typed as Swift types them:
//
//     $0.limit              QueryExpression<Double>
//     $0.budget?.name       QueryExpression<String>? (optional to-one: use ?.)
//     $0.transactions       ToManyReference<Transaction>

/// A model object inside a typed predicate.
@dynamicMemberLookup
public struct ModelReference<Model: QueryModel>: Sendable {
    let root: PropertyPath.Root
    let components: [PathComponent]
    /// How many closures enclose this reference (for naming closure variables).
    let closureDepth: Int
    /// Reached through an optional to-one, so the next step is written `?.`.
    let afterOptional: Bool
    let problems: [String]

    init(
        root: PropertyPath.Root, components: [PathComponent] = [], closureDepth: Int, afterOptional: Bool = false,
        problems: [String] = []
    ) {
        self.root = root
        self.components = components
        self.closureDepth = closureDepth
        self.afterOptional = afterOptional
        self.problems = problems
    }

    /// The query's own object.
    static var object: ModelReference { ModelReference(root: .object, closureDepth: 0) }

    /// The path and problems after following `keyPath` from here.
    private func following(_ keyPath: AnyKeyPath) -> (components: [PathComponent], problems: [String]) {
        switch KeyPathNames.components(of: keyPath) {
        case .success(var steps):
            if afterOptional { steps[0].isOptionalChained = true }
            return (components + steps, problems)
        case .failure(let error):
            return (components, problems + [error.message])
        }
    }

    private func reference<D: QueryModel>(_ keyPath: AnyKeyPath, afterOptional: Bool) -> ModelReference<D> {
        let (path, problems) = following(keyPath)
        return ModelReference<D>(
            root: root, components: path, closureDepth: closureDepth, afterOptional: afterOptional, problems: problems)
    }

    /// An attribute.
    public subscript<V: QueryValue>(dynamicMember keyPath: KeyPath<Model, V>) -> QueryExpression<V> {
        let (path, problems) = following(keyPath)
        let expr = Expr(.keyPath(PropertyPath(root: root, path)))
        return QueryExpression(QueryFragment(expr, problems: problems))
    }

    /// A to-one relationship that is never nil.
    public subscript<D: QueryModel>(dynamicMember keyPath: KeyPath<Model, D>) -> ModelReference<D> {
        reference(keyPath, afterOptional: false)
    }

    /// An optional to-one relationship: follow it with `?.`. Nil-safe: a path through
    /// a nil relationship is nil, and a comparison with it is false.
    public subscript<D: QueryModel>(dynamicMember keyPath: KeyPath<Model, D?>) -> ModelReference<D>? {
        reference(keyPath, afterOptional: true)
    }

    /// A to-many relationship.
    public subscript<D: QueryModel>(dynamicMember keyPath: KeyPath<Model, [D]>) -> ToManyReference<D> {
        let (path, problems) = following(keyPath)
        return ToManyReference(
            QueryFragment(Expr(.keyPath(PropertyPath(root: root, path))), problems: problems), closureDepth: closureDepth)
    }

    /// An optional to-many relationship.
    public subscript<D: QueryModel>(dynamicMember keyPath: KeyPath<Model, [D]?>) -> ToManyReference<D> {
        let (path, problems) = following(keyPath)
        return ToManyReference(
            QueryFragment(Expr(.keyPath(PropertyPath(root: root, path))), problems: problems), closureDepth: closureDepth)
    }

    /// The relationship itself, for nil tests: `$0.budget == nil`.
    var fragment: QueryFragment {
        QueryFragment(Expr(.keyPath(PropertyPath(root: root, components))), problems: problems)
    }
}

/// The name the builder gives the element of a closure at `depth` (1 for the
/// outermost): `$0`, then `e2`, `e3`, … so that inner closures can still name an
/// outer element.
func closureVariable(atDepth depth: Int) -> String {
    depth <= 1 ? "0" : "e\(depth)"
}

/// A to-many relationship inside a typed predicate.
public struct ToManyReference<Element: QueryModel>: Sendable {
    let fragment: QueryFragment
    let closureDepth: Int

    init(_ fragment: QueryFragment, closureDepth: Int) {
        self.fragment = fragment
        self.closureDepth = closureDepth
    }

    private func closure(_ test: (ModelReference<Element>) -> QueryCondition) -> (Closure, QueryFragment) {
        let depth = closureDepth + 1
        let variable = closureVariable(atDepth: depth)
        let body = test(ModelReference(root: .variable(variable), closureDepth: depth)).fragment
        return (Closure(variable: variable, body: body.expr), body)
    }

    /// Whether some element passes `test` (`any`, `contains(where:)`, SUBQUERY).
    public func contains(where test: (ModelReference<Element>) -> QueryCondition) -> QueryCondition {
        let (closure, body) = self.closure(test)
        return QueryCondition(.combining([fragment, body]) { parts in .elementTest(.any, parts[0], closure) })
    }

    /// Whether every element passes `test`; true for no elements.
    public func allSatisfy(_ test: (ModelReference<Element>) -> QueryCondition) -> QueryCondition {
        let (closure, body) = self.closure(test)
        return QueryCondition(.combining([fragment, body]) { parts in .elementTest(.all, parts[0], closure) })
    }

    /// The elements that pass `test`, to count or aggregate.
    public func filter(_ test: (ModelReference<Element>) -> QueryCondition) -> ToManyReference<Element> {
        let (closure, body) = self.closure(test)
        return ToManyReference(.combining([fragment, body]) { parts in .filter(parts[0], closure) }, closureDepth: closureDepth)
    }

    /// The number of elements (`@count`).
    public var count: QueryExpression<Int> {
        QueryExpression(.combining([fragment]) { parts in .aggregate(.count, parts[0], []) })
    }

    /// Whether there are no elements.
    public var isEmpty: QueryCondition {
        QueryCondition(.combining([fragment]) { parts in .isEmpty(parts[0]) })
    }

    private func aggregate<V>(_ function: AggregateFunction, _ keyPath: AnyKeyPath) -> QueryExpression<V> {
        switch KeyPathNames.components(of: keyPath) {
        case .success(let steps):
            return QueryExpression(.combining([fragment]) { parts in .aggregate(function, parts[0], steps) })
        case .failure(let error):
            return QueryExpression(.problem(error.message))
        }
    }

    /// The sum of a numeric attribute over the elements (`@sum`); 0 for none.
    public func sum<V: QueryValue & Numeric>(_ keyPath: KeyPath<Element, V>) -> QueryExpression<V> {
        aggregate(.sum, keyPath)
    }

    /// The average of a numeric attribute (`@avg`). With no elements it is nil, and
    /// every comparison with it is false.
    public func average<V: QueryValue & Numeric>(_ keyPath: KeyPath<Element, V>) -> QueryExpression<Double> {
        aggregate(.avg, keyPath)
    }

    /// The smallest value of an attribute (`@min`); nil (comparisons false) for none.
    public func min<V: QueryValue & Comparable>(_ keyPath: KeyPath<Element, V>) -> QueryExpression<V> {
        aggregate(.min, keyPath)
    }

    /// The largest value of an attribute (`@max`); nil (comparisons false) for none.
    public func max<V: QueryValue & Comparable>(_ keyPath: KeyPath<Element, V>) -> QueryExpression<V> {
        aggregate(.max, keyPath)
    }
}
