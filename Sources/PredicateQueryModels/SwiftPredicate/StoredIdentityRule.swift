// `$0.id` in a #Predicate on a model that declares no `id`.
//
// What SwiftData does: a `@Model` class is a `PersistentModel`, which is
// `Identifiable` through an extension property, `var id: PersistentIdentifier
// { get }` (SwiftData's own interface): computed, not stored, so it is not in the
// model's schema. A predicate can only test stored properties; the fetch fails at
// run time (the same as any computed property, which the checker already refuses
// as an error in other models). The fix is `persistentModelID`, which SwiftData
// does translate. (eudi-app-ios-wallet-ui#381, once cited here, turned out to be
// a predicate moved off a generic model type: generic-model-key-path's evidence.)
//
// pq itself reads such an `id` as the object's identity (TypeChecker.isIdentity),
// so without this rule the query checks; a model that declares its own `id`
// (a stored UUID, say) is not touched, nor is a sort by `\.id` (see
// SwiftLintOwnLimits).

import PredicateQuery

extension DiagnosticCode {
    /// `$0.id` on a model that declares no `id`: SwiftData's computed identity, not a stored property.
    public static let swiftComputedIdentity: DiagnosticCode = "swift.computedIdentity"
}

enum StoredIdentityRule {
    static func check(_ predicate: Expr, schema: Schema, root: Entity) -> [Diagnostic] {
        var found: [Diagnostic] = []
        MemberResolver(schema: schema, root: root).forEachNode(of: predicate) { node, resolver in
            guard case .keyPath(let path) = node.kind, var entity = resolver.start(of: path) else { return }
            for component in path.components {
                if component.name == "id", schema.property(named: "id", of: entity) == nil {
                    found.append(
                        .error(
                            .swiftComputedIdentity,
                            "'\(entity.name)' declares no 'id': SwiftData's 'id' is the computed 'persistentModelID', which a predicate cannot test (the fetch fails at run time)",
                            at: component.span,
                            notes: [DiagnosticNote("compare the stored identity instead: persistentModelID")]))
                    return
                }
                guard case .relationship(let relationship) = schema.property(named: component.name, of: entity),
                    !relationship.isToMany, let next = schema.entity(named: relationship.destination)
                else { return }
                entity = next
            }
        }
        return found
    }
}
