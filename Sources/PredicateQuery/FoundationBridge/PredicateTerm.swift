// The kit the export direction builds Foundation predicates with: a node under
// construction (`PredicateTerm`) that remembers the Swift type of its value, and
// generic functions that put terms together into `PredicateExpressions` nodes.
//
// Foundation's nodes are generic over the types of their operands, and which
// types those are is only known when a query is converted. Each function here
// opens the operands' existentials to their concrete node types and builds the
// node a `#Predicate` would have built for the same expression, so the result
// is made of Foundation's own node types only (what SwiftData reads).
//
// A node with a closure (`flatMap`, `contains(where:)`, `allSatisfy`, `filter`)
// makes its own variable and calls its builder once, synchronously, and the
// builder must return one concrete node type. `flatMap` and `sequenceClosure`
// learn that type by building the body once with a variable of their own (a dry
// run), then build the node with the body made again for the node's variable.
// A conversion remembers each dry run's node type, so that nested closures do
// not repeat theirs, and a predicate of a shape converted before runs none
// (ClosurePrototypes.swift); the exporter stops at
// `PredicateExporter.nodeBudget` nodes built.

import Foundation

/// A Foundation predicate node being built, and the Swift type of its value.
///
/// The node is kept as `any StandardPredicateExpression<Output>`, made while its
/// type is known statically, in a box of the class `TypedPredicateNode<Output>`:
/// `typed(T.self)` is then a cast to a class (one metadata comparison), not a
/// cast of `any StandardPredicateExpression` to `any StandardPredicateExpression<T>`,
/// which Swift's runtime resolves through mangled names each time (it was most
/// of the time spent building a predicate).
struct PredicateTerm {
    private let box: any TypedPredicateNodeBox
    /// The node's `Output`.
    let type: Any.Type
    /// Whether the node is a `nil` literal (`PredicateOptional.nilLiteral`): known when it is made,
    /// where asking the node afterwards is a dynamic cast.
    let isNilLiteral: Bool

    init<Node: StandardPredicateExpression>(_ node: Node) {
        self.box = TypedPredicateNode<Node.Output>(node)
        self.type = Node.Output.self
        self.isNilLiteral = false
    }

    /// A `nil` of the type `Wrapped?`.
    init<Wrapped>(nilOf _: Wrapped.Type) {
        self.box = TypedPredicateNode<Wrapped?>(PredicateExpressions.NilLiteral<Wrapped>())
        self.type = Wrapped?.self
        self.isNilLiteral = true
    }

    /// The node.
    var node: any StandardPredicateExpression { box.anyNode }

    /// What the export needs to know of the value's type (PredicateValueType.swift).
    var valueType: PredicateValueType { PredicateValueType.of(type) }

    /// The value's type as an `Optional`, when it is one.
    var optionalType: (any PredicateOptional.Type)? { valueType.optional }

    /// Whether the value is an `Optional`.
    var isOptional: Bool { valueType.optional != nil }

    /// The type the value has once unwrapped: `Int` for `Int?` and for `Int`.
    var unwrappedType: Any.Type { valueType.unwrapped }

    /// The node as the node type `Node`, or nil when it is another. The node is opened to its
    /// own type first: a cast between two concrete types that are the same is a copy, where a
    /// cast from the existential is a search of its conformances.
    func concreteNode<Node>(_: Node.Type) -> Node? {
        func open<Actual: StandardPredicateExpression>(_ node: Actual) -> Node? {
            Actual.self == Node.self ? node as? Node : nil
        }
        return open(box.anyNode)
    }

    /// The node, as a node whose value is a `T`.
    func typed<T>(_: T.Type) throws -> any StandardPredicateExpression<T> {
        // `box` is a `TypedPredicateNode<type>` (see `init`): comparing the types is
        // the whole check, and spares the run-time lookup of `TypedPredicateNode<T>`
        // that a conditional cast makes.
        guard type == T.self else {
            throw PredicateExportError.internalMismatch(expected: T.self, found: type)
        }
        return unsafeDowncast(box, to: TypedPredicateNode<T>.self).node
    }
}

/// A node whose value type is known only at run time.
private protocol TypedPredicateNodeBox: AnyObject, Sendable {
    var anyNode: any StandardPredicateExpression { get }
}

/// A node whose value is an `Output`.
private final class TypedPredicateNode<Output>: TypedPredicateNodeBox {
    let node: any StandardPredicateExpression<Output>

    init<Node: StandardPredicateExpression>(_ node: Node) where Node.Output == Output {
        self.node = node
    }

    var anyNode: any StandardPredicateExpression { node }
}

/// Why a query could not become a Foundation predicate: the construct, and why.
struct PredicateExportError: Error {
    var construct: String
    var reason: String

    static func internalMismatch(expected: Any.Type, found: Any.Type) -> PredicateExportError {
        PredicateExportError(
            construct: "a value of type '\(found)'",
            reason: "pq expected a '\(expected)' there; this is a bug in pq's conversion, please report it")
    }
}

// MARK: - Leaves

enum PredicateNodes {
    /// `root.keyPath`: one key path step, as `#Predicate` makes one per member.
    static func keyPath<Root, Member>(_ root: PredicateTerm, _ keyPath: any KeyPath<Root, Member> & Sendable) throws
        -> PredicateTerm
    {
        func build<R: StandardPredicateExpression>(_ root: R) -> PredicateTerm where R.Output == Root {
            PredicateTerm(PredicateExpressions.KeyPath(root: root, keyPath: keyPath))
        }
        return build(try root.typed(Root.self))
    }

    /// A captured value.
    static func value<T: Codable & Sendable>(_ value: T) -> PredicateTerm {
        PredicateTerm(PredicateExpressions.Value(value))
    }

    // MARK: - Logic

    static func not(_ operand: PredicateTerm) throws -> PredicateTerm {
        func build<O: StandardPredicateExpression>(_ operand: O) -> PredicateTerm where O.Output == Bool {
            PredicateTerm(PredicateExpressions.Negation(operand))
        }
        return build(try operand.typed(Bool.self))
    }

    /// `&&` of every operand, as a balanced tree (a long list nests only log₂ n deep).
    static func and(_ operands: [PredicateTerm]) throws -> PredicateTerm {
        try balanced(operands[...], conjunction: true)
    }

    /// `||` of every operand, as a balanced tree.
    static func or(_ operands: [PredicateTerm]) throws -> PredicateTerm {
        try balanced(operands[...], conjunction: false)
    }

    private static func balanced(_ operands: ArraySlice<PredicateTerm>, conjunction: Bool) throws -> PredicateTerm {
        guard let first = operands.first else { return value(conjunction) }
        if operands.count == 1 { return first }
        let middle = operands.startIndex + operands.count / 2
        let lhs = try balanced(operands[..<middle], conjunction: conjunction)
        let rhs = try balanced(operands[middle...], conjunction: conjunction)
        func build<L: StandardPredicateExpression, R: StandardPredicateExpression>(_ lhs: L, _ rhs: R) -> PredicateTerm
        where L.Output == Bool, R.Output == Bool {
            conjunction
                ? PredicateTerm(PredicateExpressions.Conjunction(lhs: lhs, rhs: rhs))
                : PredicateTerm(PredicateExpressions.Disjunction(lhs: lhs, rhs: rhs))
        }
        return build(try lhs.typed(Bool.self), try rhs.typed(Bool.self))
    }

    /// `test ? whenTrue : whenFalse`, evaluating only the branch taken.
    static func conditional<T>(_ test: PredicateTerm, _ whenTrue: PredicateTerm, _ whenFalse: PredicateTerm, _: T.Type) throws
        -> PredicateTerm
    {
        func build<C: StandardPredicateExpression, A: StandardPredicateExpression, B: StandardPredicateExpression>(
            _ test: C, _ whenTrue: A, _ whenFalse: B
        ) -> PredicateTerm where C.Output == Bool, A.Output == T, B.Output == T {
            PredicateTerm(PredicateExpressions.Conditional(test: test, trueBranch: whenTrue, falseBranch: whenFalse))
        }
        return build(try test.typed(Bool.self), try whenTrue.typed(T.self), try whenFalse.typed(T.self))
    }

    // MARK: - Comparisons

    /// `lhs == rhs` (or `!=`), both of type `T`.
    static func equal<T: Equatable>(_ lhs: PredicateTerm, _ rhs: PredicateTerm, _: T.Type, negated: Bool) throws
        -> PredicateTerm
    {
        func build<L: StandardPredicateExpression, R: StandardPredicateExpression>(_ lhs: L, _ rhs: R) -> PredicateTerm
        where L.Output == T, R.Output == T {
            negated
                ? PredicateTerm(PredicateExpressions.NotEqual(lhs: lhs, rhs: rhs))
                : PredicateTerm(PredicateExpressions.Equal(lhs: lhs, rhs: rhs))
        }
        return build(try lhs.typed(T.self), try rhs.typed(T.self))
    }

    /// `lhs < rhs` and the other orderings, both of type `T`.
    static func compare<T: Comparable>(
        _ lhs: PredicateTerm, _ rhs: PredicateTerm, _: T.Type, _ op: PredicateExpressions.ComparisonOperator
    ) throws -> PredicateTerm {
        func build<L: StandardPredicateExpression, R: StandardPredicateExpression>(_ lhs: L, _ rhs: R) -> PredicateTerm
        where L.Output == T, R.Output == T {
            PredicateTerm(PredicateExpressions.Comparison(lhs: lhs, rhs: rhs, op: op))
        }
        return build(try lhs.typed(T.self), try rhs.typed(T.self))
    }

    /// `list.contains(element)`, the list a captured array.
    static func listContains<T: Equatable & Codable & Sendable>(_ list: [T], _ element: PredicateTerm) throws -> PredicateTerm {
        func build<E: StandardPredicateExpression>(_ element: E) -> PredicateTerm where E.Output == T {
            PredicateTerm(PredicateExpressions.SequenceContains(sequence: PredicateExpressions.Value(list), element: element))
        }
        return build(try element.typed(T.self))
    }

    // MARK: - Strings

    /// `text.contains(other)`.
    static func stringContains(_ text: PredicateTerm, _ other: PredicateTerm) throws -> PredicateTerm {
        func build<B: StandardPredicateExpression, O: StandardPredicateExpression>(_ base: B, _ other: O) -> PredicateTerm
        where B.Output == String, O.Output == String {
            PredicateTerm(PredicateExpressions.CollectionContainsCollection(base: base, other: other))
        }
        return build(try text.typed(String.self), try other.typed(String.self))
    }

    /// `text.starts(with: prefix)`.
    static func stringStarts(_ text: PredicateTerm, with prefix: PredicateTerm) throws -> PredicateTerm {
        func build<B: StandardPredicateExpression, P: StandardPredicateExpression>(_ base: B, _ prefix: P) -> PredicateTerm
        where B.Output == String, P.Output == String {
            PredicateTerm(PredicateExpressions.SequenceStartsWith(base: base, prefix: prefix))
        }
        return build(try text.typed(String.self), try prefix.typed(String.self))
    }

    // MARK: - Optionals

    /// `optional ?? fallback`.
    static func coalesce<T>(_ optional: PredicateTerm, _ fallback: PredicateTerm, _: T.Type) throws -> PredicateTerm {
        func build<L: StandardPredicateExpression, R: StandardPredicateExpression>(_ lhs: L, _ rhs: R) -> PredicateTerm
        where L.Output == T?, R.Output == T {
            PredicateTerm(PredicateExpressions.NilCoalesce(lhs: lhs, rhs: rhs))
        }
        return build(try optional.typed(T?.self), try fallback.typed(T.self))
    }

    /// A node that fails when evaluated (`nil!`): where pq's meaning cannot be
    /// computed in Foundation (an Int overflow, which Swift traps on), the predicate
    /// throws instead of crashing the app or answering differently.
    static func failure<T: Sendable>(_: T.Type) -> PredicateTerm {
        PredicateTerm(PredicateExpressions.ForcedUnwrap<PredicateExpressions.NilLiteral<T>, T>(PredicateExpressions.NilLiteral()))
    }

    /// `value as? T`: a non-optional value as an optional one.
    static func wrapped<T>(_ value: PredicateTerm, _: T.Type) throws -> PredicateTerm {
        func build<V: StandardPredicateExpression>(_ value: V) -> PredicateTerm where V.Output == T {
            PredicateTerm(PredicateExpressions.ConditionalCast<V, T>(value))
        }
        return build(try value.typed(T.self))
    }

    // MARK: - Closures

    /// `wrapped.flatMap { body($0) }`; a body whose value is optional is flattened,
    /// as Swift's optional chaining flattens it (`a?.b?.c` is one optional).
    static func flatMap<Wrapped>(
        _ wrapped: PredicateTerm, _: Wrapped.Type, body: (PredicateTerm) throws -> PredicateTerm
    ) throws -> PredicateTerm {
        let dryRun = try prototype(Wrapped.self, body)
        if let optional = dryRun.optionalType {
            return try optional.flattenedFlatMap(wrapped, Wrapped.self, dryRun: dryRun, body: body)
        }
        func build<L: StandardPredicateExpression, B: StandardPredicateExpression>(_ lhs: L, _ prototype: B) throws
            -> PredicateTerm
        where L.Output == Wrapped? {
            var failure: (any Error)?
            let node = PredicateExpressions.OptionalFlatMap(lhs) { (variable: PredicateExpressions.Variable<Wrapped>) -> B in
                rebuild(body, variable, prototype, &failure)
            }
            if let failure { throw failure }
            return PredicateTerm(node)
        }
        return try build(try wrapped.typed(Wrapped?.self), dryRun.node)
    }

    /// `wrapped.flatMap { $0[keyPath: keyPath] }` built in one go: the body's node type
    /// is known here, so `flatMap`'s dry run is not needed. The node is the one
    /// `flatMap` builds (and `fused` reads); for an optional `Member`, the flattened
    /// one (`budget?.note`, a `String?`, is a `String?`, not a `String??`). Nil only if
    /// the run-time cast of `keyPath` to the optional's own type failed, which the types
    /// rule out; a caller then reads through `flatMap`, as it would without this.
    static func memberOfOptional<Root, Member>(_ keyPath: any KeyPath<Root, Member> & Sendable)
        -> ((PredicateTerm) throws -> PredicateTerm)?
    {
        if let optional = Member.self as? any PredicateOptional.Type {
            return optional.flattenedMember(keyPath, of: Root.self)
        }
        return plainMemberOfOptional(keyPath)
    }

    /// `memberOfOptional` for a `Member` known not to be optional (an enum's raw value):
    /// no flattening to decide, so always a node.
    static func plainMemberOfOptional<Root, Member>(_ keyPath: any KeyPath<Root, Member> & Sendable)
        -> (PredicateTerm) throws -> PredicateTerm
    {
        { wrapped in
            func build<L: StandardPredicateExpression>(_ lhs: L) -> PredicateTerm where L.Output == Root? {
                PredicateTerm(
                    PredicateExpressions.OptionalFlatMap(lhs) { (object: PredicateExpressions.Variable<Root>) in
                        PredicateExpressions.KeyPath(root: object, keyPath: keyPath)
                    })
            }
            return build(try wrapped.typed(Root?.self))
        }
    }

    /// The closures over a to-many relationship's elements.
    enum SequenceClosure {
        case containsWhere, allSatisfy, filter
    }

    /// `sequence.contains { body($0) }`, `sequence.allSatisfy { … }` or `sequence.filter { … }`.
    static func sequenceClosure<Element>(
        _ kind: SequenceClosure, _ sequence: PredicateTerm, _: Element.Type, body: (PredicateTerm) throws -> PredicateTerm
    ) throws -> PredicateTerm {
        let dryRun = try prototype(Element.self, body)
        func build<L: StandardPredicateExpression, B: StandardPredicateExpression>(_ lhs: L, _ prototype: B) throws
            -> PredicateTerm
        where L.Output == [Element], B.Output == Bool {
            var failure: (any Error)?
            let test = { (variable: PredicateExpressions.Variable<Element>) -> B in
                rebuild(body, variable, prototype, &failure)
            }
            let node: PredicateTerm
            switch kind {
            case .containsWhere: node = PredicateTerm(PredicateExpressions.SequenceContainsWhere(lhs, builder: test))
            case .allSatisfy: node = PredicateTerm(PredicateExpressions.SequenceAllSatisfy(lhs, builder: test))
            case .filter: node = PredicateTerm(PredicateExpressions.Filter(lhs, test))
            }
            if let failure { throw failure }
            return node
        }
        return try build(try sequence.typed([Element].self), try dryRun.typed(Bool.self))
    }

    /// The body as built for a variable of its own (a dry run), for its node type: remembered by the
    /// conversion in progress, when it remembers (ClosurePrototypes.swift).
    static func prototype<Bound>(_: Bound.Type, _ body: (PredicateTerm) throws -> PredicateTerm) throws
        -> PredicateTerm
    {
        func dryRun() throws -> PredicateTerm { try body(PredicateTerm(PredicateExpressions.Variable<Bound>())) }
        guard let record = ClosurePrototypes.current else { return try dryRun() }
        return try record.prototype(dryRun)
    }

    /// The body made again for `variable`, as the dry run's node type; on a
    /// failure, the dry run's node (never used: the failure is thrown).
    static func rebuild<Bound, Body>(
        _ body: (PredicateTerm) throws -> PredicateTerm, _ variable: PredicateExpressions.Variable<Bound>,
        _ prototype: Body, _ failure: inout (any Error)?
    ) -> Body {
        do {
            let built = try body(PredicateTerm(variable))
            if let typed = built.concreteNode(Body.self) { return typed }
            failure = PredicateExportError.internalMismatch(expected: Body.self, found: type(of: built.node))
        } catch {
            failure = error
        }
        return prototype
    }
}

/// `Optional`, seen through a type known only at run time.
protocol PredicateOptional {
    static var wrappedType: Any.Type { get }
    /// `term.flatMap { body($0) }`, `term` of this optional type.
    static func flatMap(_ term: PredicateTerm, body: (PredicateTerm) throws -> PredicateTerm) throws -> PredicateTerm
    /// `term == nil`.
    static func isNil(_ term: PredicateTerm) throws -> PredicateTerm
    /// `term ?? fallback`, the fallback of the wrapped type.
    static func coalesce(_ term: PredicateTerm, _ fallback: PredicateTerm) throws -> PredicateTerm
    /// `wrapped.flatMap { body($0) }` where the body's value is of this optional type.
    static func flattenedFlatMap<Outer>(
        _ wrapped: PredicateTerm, _: Outer.Type, dryRun: PredicateTerm, body: (PredicateTerm) throws -> PredicateTerm
    ) throws -> PredicateTerm
    /// `wrapped.flatMap { $0[keyPath: keyPath] }` for a `keyPath` from `Root` to this
    /// optional type, flattened, built in one go (see `PredicateNodes.memberOfOptional`);
    /// nil when `keyPath` does not reach this type.
    static func flattenedMember<Root>(_ keyPath: AnyKeyPath, of _: Root.Type) -> ((PredicateTerm) throws -> PredicateTerm)?
    /// A constant nil of this type.
    static var nilLiteral: PredicateTerm { get }
}

extension Optional: PredicateOptional {
    static var wrappedType: Any.Type { Wrapped.self }

    static func flatMap(_ term: PredicateTerm, body: (PredicateTerm) throws -> PredicateTerm) throws -> PredicateTerm {
        try PredicateNodes.flatMap(term, Wrapped.self, body: body)
    }

    static func isNil(_ term: PredicateTerm) throws -> PredicateTerm {
        if let equatable = PredicateValueType.of(Self.self).equatableOptional {
            return try equatable.equalsNil(term)
        }
        // `term.flatMap { _ in false } ?? true`, for a wrapped type that is not Equatable.
        let isSome = try PredicateNodes.flatMap(term, Wrapped.self) { _ in PredicateNodes.value(false) }
        return try PredicateNodes.coalesce(isSome, PredicateNodes.value(true), Bool.self)
    }

    static func coalesce(_ term: PredicateTerm, _ fallback: PredicateTerm) throws -> PredicateTerm {
        try PredicateNodes.coalesce(term, fallback, Wrapped.self)
    }

    static func flattenedFlatMap<Outer>(
        _ wrapped: PredicateTerm, _: Outer.Type, dryRun: PredicateTerm, body: (PredicateTerm) throws -> PredicateTerm
    ) throws -> PredicateTerm {
        func build<L: StandardPredicateExpression, B: StandardPredicateExpression>(_ lhs: L, _ prototype: B) throws
            -> PredicateTerm
        where L.Output == Outer?, B.Output == Wrapped? {
            var failure: (any Error)?
            let node: PredicateExpressions.OptionalFlatMap<L, Outer, B, Wrapped> = PredicateExpressions.OptionalFlatMap(lhs) {
                variable -> B in
                PredicateNodes.rebuild(body, variable, prototype, &failure)
            }
            if let failure { throw failure }
            return PredicateTerm(node)
        }
        return try build(try wrapped.typed(Outer?.self), try dryRun.typed(Wrapped?.self))
    }

    static func flattenedMember<Root>(_ keyPath: AnyKeyPath, of _: Root.Type) -> ((PredicateTerm) throws -> PredicateTerm)? {
        guard let typed = keyPath as? KeyPath<Root, Self> else { return nil }
        let member = sendableKeyPath(typed)
        return { wrapped in
            func build<L: StandardPredicateExpression>(_ lhs: L) -> PredicateTerm where L.Output == Root? {
                let node: PredicateExpressions.OptionalFlatMap<L, Root, PredicateExpressions.KeyPath<PredicateExpressions.Variable<Root>, Self>, Wrapped> =
                    PredicateExpressions.OptionalFlatMap(lhs) { object in PredicateExpressions.KeyPath(root: object, keyPath: member) }
                return PredicateTerm(node)
            }
            return build(try wrapped.typed(Root?.self))
        }
    }

    static var nilLiteral: PredicateTerm { PredicateTerm(nilOf: Wrapped.self) }
}

/// An optional whose wrapped type is Equatable: `x == nil` is an `Equal` node, as
/// `#Predicate` writes it.
protocol PredicateEquatableOptional {
    static func equalsNil(_ term: PredicateTerm) throws -> PredicateTerm
}

extension Optional: PredicateEquatableOptional where Wrapped: Equatable {
    static func equalsNil(_ term: PredicateTerm) throws -> PredicateTerm {
        try PredicateNodes.equal(term, nilLiteral, Self.self, negated: false)
    }
}

/// `x.flatMap { v in v.member }` with a member that is not optional: a test of the
/// member can go inside that one closure (`x.flatMap { v in test(v.member) }`), as
/// Swift's `x?.member.test()` does, rather than in a second `flatMap` around it.
protocol PredicateMemberOfOptional {
    /// `x.flatMap { v in body(v.member) }`, or nil when this is another `flatMap`.
    func fused(_ body: (PredicateTerm) throws -> PredicateTerm) throws -> PredicateTerm?
}

extension PredicateExpressions.OptionalFlatMap: PredicateMemberOfOptional where LHS: StandardPredicateExpression {
    func fused(_ body: (PredicateTerm) throws -> PredicateTerm) throws -> PredicateTerm? {
        guard !(RHS.Output.self is any PredicateOptional.Type),
            let member = transform as? PredicateExpressions.KeyPath<PredicateExpressions.Variable<Wrapped>, RHS.Output>,
            member.root.key == variable.key
        else { return nil }
        return try PredicateNodes.flatMap(PredicateTerm(wrapped), Wrapped.self) { object in
            try body(PredicateNodes.keyPath(object, member.keyPath))
        }
    }
}
