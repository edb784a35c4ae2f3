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
            var inner = self
            if case .keyPath(let path) = collection.kind, let (entity, _) = destination(of: path) {
                inner.variables[closure.variable] = entity
            } else {
                inner.variables[closure.variable] = nil
            }
            inner.forEachNode(of: closure.body, visit)
        default:
            for child in expr.children { forEachNode(of: child, visit) }
        }
    }

    /// The entity a key path starts from.
    func start(of path: PropertyPath) -> Entity? {
        switch path.root {
        case .object: root
        case .variable(let name): variables[name]
        }
    }
}
