// To-many relationships, as Foundation nodes: `SequenceContainsWhere` (any),
// `SequenceAllSatisfy` (all), its negation (none), `Filter` and the array's
// `count` (`@count`, `filter { … }.count`, `isEmpty`).
//
// pq's meaning of a collection reached through a nil to-one: it is nil, not
// empty, so `any`, `all` and `none` (`isEmpty`) are false as conditions and nil as
// values, and `@count` is nil, as Swift's `$0.budget?.transactions.count` is. (The
// text's `none` quantifier checks to `!any`, true there.) An optional to-many property that
// is nil on an object it belongs to has no elements (the store keeps no nil
// collection), so there it is empty.

import Foundation

extension PredicateExporter {
    /// `any`/`all`/`none` as a condition: false over a nil collection.
    func quantified(_ quantifier: Quantifier, _ path: CollectionPath, _ body: TypedExpr, _ scopes: [PredicateTerm]) throws
        -> PredicateTerm
    {
        try nilIsFalse(quantifiedValue(quantifier, path, body, scopes))
    }

    /// `any`/`all`/`none` as a value: nil over a nil collection, as
    /// `$0.budget?.transactions.isEmpty` is in Swift (`none` is what `isEmpty` checks to).
    func quantifiedValue(_ quantifier: Quantifier, _ path: CollectionPath, _ body: TypedExpr, _ scopes: [PredicateTerm])
        throws -> PredicateTerm
    {
        if case .constant(.bool(true), _) = body, quantifier != .all {
            // `isEmpty` (none) and `any` with no condition: the array's own `isEmpty`, as
            // `#Predicate { $0.items.isEmpty }` reads it, with no closure to build.
            return try onElements(path, scopes, ifNil: Value.bool(quantifier != .any)) { elements, access in
                let empty = try access.isEmpty(elements)
                return quantifier == .none ? empty : try PredicateNodes.not(empty)
            }
        }
        let inner = Array(scopes.prefix(path.elementLevel))
        return try onElements(path, scopes, ifNil: Value.bool(quantifier != .any)) { elements, access in
            let test = { (element: PredicateTerm) in try self.condition(body, inner + [element]) }
            switch quantifier {
            case .any: return try access.containsWhere(elements, test)
            case .all: return try access.allSatisfy(elements, test)
            case .none: return try PredicateNodes.not(access.containsWhere(elements, test))
            }
        }
    }

    func aggregate(_ function: AggregateFunction, _ path: CollectionPath, _ filter: TypedExpr?, _ scopes: [PredicateTerm])
        throws -> PredicateTerm
    {
        guard function == .count else {
            throw PredicateExportError(
                construct: describe(.aggregate(function, path, filter: filter, value: nil, .int)),
                reason: "Foundation's predicates have no sum, average, minimum or maximum of a to-many relationship's values")
        }
        let inner = Array(scopes.prefix(path.elementLevel))
        return try onElements(path, scopes, ifNil: .int(0)) { elements, access in
            guard let filter else { return try access.count(elements) }
            let kept = try access.filter(elements) { element in try self.condition(filter, inner + [element]) }
            return try access.count(kept)
        }
    }

    /// `make` on the collection's array. Through a nil to-one the result is nil; an
    /// optional to-many that is nil gives `ifNil`, the value for no elements.
    private func onElements(
        _ path: CollectionPath, _ scopes: [PredicateTerm], ifNil emptyValue: Value,
        _ make: (PredicateTerm, PredicateElementAccess) throws -> PredicateTerm
    ) throws -> PredicateTerm {
        let owner = try object(level: path.level, steps: path.steps, scopes)
        let access = try property(path.relationship.relationship.name, of: path.relationship.source)
        guard let elements = access.elements else {
            throw PredicateExportError(
                construct: "'\(path.relationship.relationship.name)'", reason: "it is not declared as a to-many relationship")
        }
        return try readThroughOptional(owner) { ownerObject in
            let array = try access.read(ownerObject)
            guard let optional = array.optionalType else { return try make(array, elements) }
            let result = try optional.flatMap(array) { try make($0, elements) }
            let fallback = try scalarType(of: result, for: .constant(emptyValue, .int)).constant(emptyValue)
            return try result.optionalType?.coalesce(result, fallback) ?? result
        }
    }
}
