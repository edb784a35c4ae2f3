// `count` and `isEmpty` after a relationship, decided with the models.
//
// The parser reads `$0.trips.count` as the number of trips and `$0.name.isEmpty`
// as an empty test, as Swift does for a collection or a string. After a to-one
// relationship, Swift sees an object, so `$0.partner.count` (or `partner?.count`)
// is the partner's own property `count` when its model has one: the query then
// reads the attribute, as the text `partner.\`count\`` does. A to-many
// relationship is an array in Swift, so its `count` stays the number of elements
// even when the element model has a `count` property (`trips.count`), and a
// to-one without such a property keeps the count, for the checker to refuse.

import PredicateQuery

extension SwiftPredicate {
    /// The query with `x.count` and `x.isEmpty` after a to-one relationship read as that object's properties,
    /// where its model has them. `entity` is the model filtered when the query does not name it.
    public static func resolveMembers(_ query: Query, schema: Schema, entity: String? = nil) -> Query {
        guard let name = query.entity?.text ?? entity, let root = schema.entity(named: name),
            let predicate = query.predicate
        else { return query }
        var resolved = query
        var resolver = MemberResolver(schema: schema, root: root)
        resolved.predicate = resolver.resolve(predicate)
        return resolved
    }
}

/// Walks a predicate with the entity each closure variable stands for.
struct MemberResolver {
    let schema: Schema
    let root: Entity
    var variables: [String: Entity] = [:]

    init(schema: Schema, root: Entity) {
        self.schema = schema
        self.root = root
    }

    /// The entity a path ends at, and whether its last step is a to-one relationship; nil when it ends elsewhere.
    func destination(of path: PropertyPath) -> (entity: Entity, toOne: Bool)? {
        var entity: Entity?
        switch path.root {
        case .object: entity = root
        case .variable(let name): entity = variables[name]
        }
        var toOne = false
        for component in path.components {
            guard let current = entity,
                case .relationship(let relationship) = schema.property(named: component.name, of: current)
            else { return nil }
            entity = schema.entity(named: relationship.destination)
            toOne = !relationship.isToMany
        }
        return entity.map { ($0, toOne) }
    }

    /// `path.member` as a key path, when the path ends at a to-one relationship whose model has `member`.
    /// `whole` is the span of `path.member` as written; the member's name ends it.
    func property(_ member: String, after expr: Expr, whole: SourceSpan) -> Expr? {
        guard case .keyPath(var path) = expr.kind, !path.components.isEmpty, let (entity, toOne) = destination(of: path),
            toOne, schema.property(named: member, of: entity) != nil
        else { return nil }
        let nameSpan = SourceSpan(start: max(whole.start, whole.end - member.utf8.count), end: whole.end)
        path.components.append(PathComponent(member, span: nameSpan))
        path.span = whole
        return Expr(.keyPath(path), span: whole)
    }

    mutating func resolve(_ expr: Expr) -> Expr {
        var copy = expr
        switch expr.kind {
        case .aggregate(.count, let base, let components) where components.isEmpty:
            if let member = property("count", after: base, whole: expr.span) { return member }
            copy.kind = .aggregate(.count, resolve(base), [])
        case .isEmpty(let base):
            if let member = property("isEmpty", after: base, whole: expr.span) { return member }
            copy.kind = .isEmpty(resolve(base))
        case .aggregate(let function, let base, let components): copy.kind = .aggregate(function, resolve(base), components)
        case .not(let inner): copy.kind = .not(resolve(inner))
        case .negate(let inner): copy.kind = .negate(resolve(inner))
        case .quantified(let quantifier, let inner): copy.kind = .quantified(quantifier, resolve(inner))
        case .member(let inner, let component): copy.kind = .member(resolve(inner), component)
        case .and(let parts): copy.kind = .and(parts.map { resolve($0) })
        case .or(let parts): copy.kind = .or(parts.map { resolve($0) })
        case .list(let parts): copy.kind = .list(parts.map { resolve($0) })
        case .call(let function, let parts): copy.kind = .call(function, parts.map { resolve($0) })
        case .range(let a, let b, let kind): copy.kind = .range(resolve(a), resolve(b), kind)
        case .arithmetic(let op, let a, let b): copy.kind = .arithmetic(op, resolve(a), resolve(b))
        case .comparison(let op, let a, let b, let options): copy.kind = .comparison(op, resolve(a), resolve(b), options)
        case .stringTest(let op, let a, let b, let options): copy.kind = .stringTest(op, resolve(a), resolve(b), options)
        case .membership(let a, let b, let options): copy.kind = .membership(resolve(a), resolve(b), options)
        case .coalesce(let a, let b): copy.kind = .coalesce(resolve(a), resolve(b))
        case .elementTest(let quantifier, let collection, let closure):
            copy.kind = .elementTest(quantifier, resolve(collection), inside(closure, over: collection))
        case .filter(let collection, let closure):
            copy.kind = .filter(resolve(collection), inside(closure, over: collection))
        case .literal, .enumCase, .keyPath, .parameter, .invalid:
            break
        }
        return copy
    }

    /// A closure's body, with its variable standing for an element of `collection`.
    mutating func inside(_ closure: Closure, over collection: Expr) -> Closure {
        let saved = variables
        defer { variables = saved }
        if case .keyPath(let path) = collection.kind, let (entity, _) = destination(of: path) {
            variables[closure.variable] = entity
        }
        return Closure(variable: closure.variable, body: resolve(closure.body))
    }
}
