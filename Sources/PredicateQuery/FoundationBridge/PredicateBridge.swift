// Foundation's `#Predicate` and `SortDescriptor`, converted to pq's syntax tree.
//
// `#Predicate` builds a tree of `PredicateExpressions` values; each supported
// node type converts itself (PredicateExpressions+Bridge.swift) into the tree
// the parser would build for the same predicate. Supported:
//
//   Conjunction, Disjunction, Negation          &&  ||  !
//   Equal, NotEqual, Comparison                  ==  !=  <  <=  >  >=
//   Arithmetic, IntDivision, IntRemainder,       +  -  *  /  %  unary -
//     FloatDivision, UnaryMinus
//   Range, ClosedRange, RangeExpressionContains  (1...5).contains($0.x)
//   SequenceContains                             ["a", "b"].contains($0.name)
//   SequenceContainsWhere, SequenceAllSatisfy    $0.xs.contains { … }, allSatisfy
//   Filter (then .count)                         $0.xs.filter { … }.count
//   SequenceStartsWith                           $0.name.starts(with: "V")
//   CollectionContainsCollection                 $0.name.contains("Vac")
//   OptionalFlatMap, NilCoalesce, ForcedUnwrap   $0.budget?.name, ??, !
//   NilLiteral, Value (captured values),         nil, captured constants and
//     KeyPath, Variable                          enums, key paths through to-one
//
// Any other node (casts, type checks, the ternary operator, regex literals,
// subscripts, min/max of a sequence) is an error naming it. Where pq's meaning
// differs from Foundation's: a force unwrap of nil is nil in pq (Foundation
// traps), and strings compare by Unicode scalars (Swift's `==` compares
// canonically equivalent strings equal).

import Foundation

/// Why a Foundation predicate or sort descriptor could not be converted.
public struct PredicateBridgeError: Error, Sendable, CustomStringConvertible {
    /// What could not be converted, and why, in one sentence.
    public var message: String
    public var description: String { message }
}

/// Converts `#Predicate` and `SortDescriptor` values to pq's syntax tree.
public enum PredicateBridge {
    /// The condition a Foundation predicate states, as a builder condition.
    public static func condition<Input>(_ predicate: Predicate<Input>) throws(PredicateBridgeError) -> QueryCondition {
        var context = BridgeContext()
        let variable: PredicateExpressions.Variable<Input> = predicate.variable
        context.bind(variable.key, to: .object, components: [], afterOptional: false)
        let node = try context.convert(predicate.expression)
        return QueryCondition(try context.fragment(of: node))
    }

    /// A sort key for a Foundation sort descriptor: its key path and order, and a
    /// string comparator's case and diacritic options (pq sorts without a locale).
    public static func sortKey<Compared>(_ descriptor: SortDescriptor<Compared>) throws(PredicateBridgeError) -> SortKey {
        guard let keyPath = descriptor.keyPath else {
            throw PredicateBridgeError(message: "a SortDescriptor made from a comparator, not a key path, cannot be converted")
        }
        guard case .success(let components) = KeyPathNames.components(of: keyPath) else {
            throw PredicateBridgeError(message: KeyPathError(description: String(describing: keyPath)).message)
        }
        var options: StringOptions = []
        // The comparator's options are not public API on every platform; read them by reflection.
        if let comparator = descriptor.stringComparator,
            let compareOptions = Mirror(reflecting: comparator).children.first(where: { $0.label == "options" })?.value
                as? String.CompareOptions
        {
            if compareOptions.contains(.caseInsensitive) { options.insert(.caseInsensitive) }
            if compareOptions.contains(.diacriticInsensitive) { options.insert(.diacriticInsensitive) }
        }
        return SortKey(PropertyPath(root: .object, components), ascending: descriptor.order == .forward, options: options)
    }
}

extension ModelPredicate {
    /// A Foundation predicate over the model type, converted.
    public init(_ predicate: Predicate<Model>) throws(PredicateBridgeError) {
        self.init(try PredicateBridge.condition(predicate))
    }
}

extension ModelSort {
    /// A Foundation sort descriptor over the model type, converted.
    public init(_ descriptor: SortDescriptor<Model>) throws(PredicateBridgeError) {
        self.init(key: try PredicateBridge.sortKey(descriptor))
    }
}

extension ModelQuery {
    /// A query from a Foundation predicate and sort descriptors, as a
    /// `FetchDescriptor` holds them.
    public init(
        _ predicate: Predicate<Model>?, sortBy descriptors: [SortDescriptor<Model>] = [], limit: Int? = nil,
        offset: Int? = nil
    ) throws(PredicateBridgeError) {
        var sortKeys: [ModelSort<Model>] = []
        for descriptor in descriptors { sortKeys.append(try ModelSort(descriptor)) }
        self.init(
            where: try predicate.map { predicate throws(PredicateBridgeError) in try ModelPredicate(predicate) } ?? .always,
            sortedBy: sortKeys, limit: limit, offset: offset)
    }
}

/// What a Foundation expression converts to: a key path that may still be
/// extended, a captured value whose meaning depends on where it is used, or a
/// finished piece of tree.
enum BridgeNode {
    case path(root: PropertyPath.Root, components: [PathComponent], afterOptional: Bool)
    case value(Any)
    case range(QueryFragment, QueryFragment, RangeKind)
    case fragment(QueryFragment)
}

/// The state of one conversion: what each predicate variable stands for.
struct BridgeContext {
    private var variables: [AnyHashable: BridgeNode] = [:]
    /// How many closures enclose the expression being converted.
    private(set) var closureDepth = 0

    mutating func bind(_ key: AnyHashable, to root: PropertyPath.Root, components: [PathComponent], afterOptional: Bool) {
        variables[key] = .path(root: root, components: components, afterOptional: afterOptional)
    }

    func node(for key: AnyHashable) throws(PredicateBridgeError) -> BridgeNode {
        guard let node = variables[key] else {
            throw PredicateBridgeError(message: "the predicate uses a variable outside its scope")
        }
        return node
    }

    /// Converts a child expression.
    mutating func convert(_ expression: Any) throws(PredicateBridgeError) -> BridgeNode {
        guard let convertible = expression as? any BridgeConvertible else {
            throw PredicateBridgeError(message: "\(Self.name(of: expression)) is not supported by pq's #Predicate conversion")
        }
        return try convertible.bridged(&self)
    }

    /// Converts a child expression to a finished piece of tree.
    mutating func fragment(_ expression: Any) throws(PredicateBridgeError) -> QueryFragment {
        try fragment(of: try convert(expression))
    }

    /// A finished piece of tree for a node.
    func fragment(of node: BridgeNode) throws(PredicateBridgeError) -> QueryFragment {
        switch node {
        case .path(let root, let components, _):
            return QueryFragment(Expr(.keyPath(PropertyPath(root: root, components))))
        case .value(let value):
            return try Self.literal(value)
        case .range(let lower, let upper, let kind):
            return .combining([lower, upper]) { .range($0[0], $0[1], kind) }
        case .fragment(let fragment):
            return fragment
        }
    }

    /// Runs `body` inside a closure whose element variable is `key`; returns the
    /// closure's variable name and what `body` returned.
    mutating func inClosure<T>(binding key: AnyHashable, _ body: (inout BridgeContext) throws(PredicateBridgeError) -> T)
        throws(PredicateBridgeError) -> (String, T)
    {
        closureDepth += 1
        defer { closureDepth -= 1 }
        let variable = closureVariable(atDepth: closureDepth)
        bind(key, to: .variable(variable), components: [], afterOptional: false)
        return (variable, try body(&self))
    }

    /// A captured value as a literal (or a bound value, for dates and data that
    /// have no exact literal).
    static func literal(_ value: Any) throws(PredicateBridgeError) -> QueryFragment {
        if let queryValue = value as? any QueryValue { return queryValue.queryFragment }
        if let key = value as? any AnyObjectKey { return key.fragment }
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .optional {
            guard let wrapped = mirror.children.first?.value else { return QueryFragment(Expr(.literal(.null))) }
            return try literal(wrapped)
        }
        if let list = value as? any BridgeList { return try list.bridgedList() }
        if let enumValue = value as? any RawRepresentable {
            if let name = QueryValues.caseName(of: enumValue) { return QueryFragment(Expr(.enumCase(name))) }
            if let raw = enumValue.rawValue as? any QueryValue { return raw.queryFragment }
        }
        throw PredicateBridgeError(message: "a captured value of type \(type(of: value)) cannot be used in a query")
    }

    /// The name of a Foundation expression type, for messages.
    static func name(of expression: Any) -> String {
        let full = String(describing: type(of: expression))
        let base = full.prefix { $0 != "<" }
        return "PredicateExpressions.\(base)"
    }
}

/// A Foundation expression node pq can convert.
protocol BridgeConvertible {
    func bridged(_ context: inout BridgeContext) throws(PredicateBridgeError) -> BridgeNode
}

/// A captured array, converted to a list literal.
protocol BridgeList {
    func bridgedList() throws(PredicateBridgeError) -> QueryFragment
}

extension Array: BridgeList {
    func bridgedList() throws(PredicateBridgeError) -> QueryFragment {
        var elements: [QueryFragment] = []
        for element in self { elements.append(try BridgeContext.literal(element)) }
        return .combining(elements) { .list($0) }
    }
}

extension Set: BridgeList {
    func bridgedList() throws(PredicateBridgeError) -> QueryFragment {
        try Array(self).bridgedList()
    }
}

/// A captured range, converted to range syntax.
protocol BridgeRange {
    func bridgedRange() throws(PredicateBridgeError) -> BridgeNode
}

extension ClosedRange: BridgeRange {
    func bridgedRange() throws(PredicateBridgeError) -> BridgeNode {
        .range(try BridgeContext.literal(lowerBound), try BridgeContext.literal(upperBound), .closed)
    }
}

extension Range: BridgeRange {
    func bridgedRange() throws(PredicateBridgeError) -> BridgeNode {
        .range(try BridgeContext.literal(lowerBound), try BridgeContext.literal(upperBound), .halfOpen)
    }
}
