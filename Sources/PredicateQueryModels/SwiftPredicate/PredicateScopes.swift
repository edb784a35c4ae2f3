// Visiting every node of a predicate with the closure variables in scope, for the
// lint rules that look at key paths: `$0.tags.contains { $0.owner == nil }` binds
// the inner `$0` to a `Tag`, so a rule resolves `owner` on `Tag`.

import PredicateQuery

extension MemberResolver {
    /// Calls `visit` with every node of `expr` (the root first) and the resolver whose
    /// `variables` are the closure variables in scope at that node.
    func forEachNode(of expr: Expr, _ visit: (Expr, MemberResolver) -> Void) {
        visit(expr, self)
        switch expr.kind {
        case .elementTest(_, let collection, let closure), .filter(let collection, let closure):
            forEachNode(of: collection, visit)
            inside(closure, over: collection).forEachNode(of: closure.body, visit)
        default:
            for child in expr.children { forEachNode(of: child, visit) }
        }
    }

    /// The resolver for the body of `closure`, run over the elements of `collection`: its variable
    /// bound to their entity (unbound when `collection` is no to-many key path pq resolves).
    func inside(_ closure: Closure, over collection: Expr) -> MemberResolver {
        var inner = self
        if case .keyPath(let path) = collection.kind, let (entity, _) = destination(of: path) {
            inner.variables[closure.variable] = entity
        } else {
            inner.variables[closure.variable] = nil
        }
        return inner
    }

    /// The entity a key path starts from.
    func start(of path: PropertyPath) -> Entity? {
        switch path.root {
        case .object: root
        case .variable(let name): variables[name]
        }
    }

    /// The relationships a path made only of relationships steps through, in order (a to-many
    /// one leads on to its elements' entity); nil when a step is not a relationship whose
    /// destination the schema has, or the path is empty.
    func relationships(along path: PropertyPath) -> [Relationship]? {
        guard var entity = start(of: path), !path.components.isEmpty else { return nil }
        var steps: [Relationship] = []
        for component in path.components {
            guard case .relationship(let relationship) = schema.property(named: component.name, of: entity),
                let next = schema.entity(named: relationship.destination)
            else { return nil }
            steps.append(relationship)
            entity = next
        }
        return steps
    }

    /// Whether the attribute a path ends at can be nil: an optional attribute, or one reached
    /// through an optional to-one relationship. Nil when the path does not end at an attribute
    /// reached through to-one relationships only.
    func attributeOptionality(of path: PropertyPath) -> Bool? {
        guard var entity = start(of: path), !path.components.isEmpty else { return nil }
        var optional = false
        for (position, component) in path.components.enumerated() {
            switch schema.property(named: component.name, of: entity) {
            case .relationship(let relationship):
                guard !relationship.isToMany, let next = schema.entity(named: relationship.destination) else { return nil }
                optional = optional || relationship.isOptional
                entity = next
            case .attribute(let attribute):
                return position + 1 == path.components.count ? optional || attribute.isOptional : nil
            default:
                return nil
            }
        }
        return nil
    }
}
