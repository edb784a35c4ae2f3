// A Foundation predicate pq built, printed as the Swift source a developer
// pastes into an app: the captured values as `let`s, then a `#Predicate` whose
// expansion builds the same nodes (so it means the same), then the sort
// descriptors. `pq --emit swift` prints it.
//
// Each node type prints itself (`PredicateSourceNode`); a node pq never builds is
// an error naming it. Parentheses are kept around every operation, so the
// printed precedence is the tree's.

import Foundation

/// Swift source for a query: the `#Predicate` and the `[SortDescriptor]`.
public struct PredicateSource: Sendable {
    /// The captured values, one `let` a line, then `let predicate = #Predicate<…> { … }`.
    public var predicate: String
    /// `let sortDescriptors: [SortDescriptor<…>] = […]`, or nil without sort keys.
    public var sortDescriptors: String?
    /// Both, as one snippet.
    public var text: String { [predicate, sortDescriptors].compactMap { $0 }.joined(separator: "\n") }
}

struct PredicateSourcePrinter {
    /// The Swift source of captured dates that come from `now()` or `today()`, by
    /// the value the predicate holds (`CurrentDateSource`).
    var dateSources: [Date: String] = [:]
    private var captures: [String] = []
    private var names: [PredicateExpressions.VariableID: String] = [:]
    private var closureCount = 0

    /// The source of `predicate` over `Model`, whose objects are called `object`.
    static func print<Model>(_ predicate: Predicate<Model>, model: String, dateSources: [Date: String] = [:]) throws
        -> String
    {
        var printer = PredicateSourcePrinter(dateSources: dateSources)
        let variable: PredicateExpressions.Variable<Model> = predicate.variable
        printer.names[variable.key] = "object"
        let body = try printer.print(predicate.expression)
        let lets = printer.captures.map { $0 + "\n" }.joined()
        return "\(lets)let predicate = #Predicate<\(model)> { object in\n    \(body)\n}"
    }

    mutating func print(_ node: Any) throws -> String {
        guard let printable = node as? any PredicateSourceNode else {
            throw PredicateExportError(construct: "the node \(type(of: node))", reason: "pq has no Swift spelling for it")
        }
        return try printable.source(&self)
    }

    /// `(lhs op rhs)`: every operation in parentheses, so the tree's precedence is kept.
    mutating func binary(_ lhs: Any, _ op: String, _ rhs: Any) throws -> String {
        "(\(try print(lhs)) \(op) \(try print(rhs)))"
    }

    /// `node` printed with the variable `key` spelled `spelling`.
    mutating func printing(_ node: Any, naming key: PredicateExpressions.VariableID, _ spelling: String) throws -> String {
        let saved = names[key]
        names[key] = spelling
        defer { names[key] = saved }
        return try print(node)
    }

    /// A name for a closure's variable.
    mutating func bind(_ key: PredicateExpressions.VariableID) -> String {
        closureCount += 1
        let name = "element\(closureCount)"
        names[key] = name
        return name
    }

    func name(of key: PredicateExpressions.VariableID) throws -> String {
        guard let name = names[key] else {
            throw PredicateExportError(construct: "a variable", reason: "it is used outside its closure; this is a bug in pq")
        }
        return name
    }

    /// A captured value, declared before the predicate: `let value1: Date = …`.
    mutating func capture<T>(_ value: T) throws -> String {
        let name = "value\(captures.count + 1)"
        let source = (value as? Date).flatMap { dateSources[$0] }
        captures.append("let \(name): \(Self.typeName(T.self)) = \(try source ?? Self.literal(value))")
        return name
    }

    static func typeName(_ type: Any.Type) -> String {
        String(describing: type)
    }

    /// A Swift expression for a captured value.
    static func literal(_ value: Any) throws -> String {
        switch value {
        case let text as String: return Printer.quoted(text, delimiter: "\"")
        case let flag as Bool: return String(flag)
        case let number as Int: return String(number)
        case let number as Int64: return String(number)
        case let number as Int32: return String(number)
        case let number as Int16: return String(number)
        case let number as Int8: return String(number)
        case let number as Double: return number.isFinite ? "\(number)" : (number > 0 ? ".infinity" : "-.infinity")
        case let number as Float: return number.isFinite ? "\(number)" : (number > 0 ? ".infinity" : "-.infinity")
        case let date as Date: return "Date(timeIntervalSinceReferenceDate: \(date.timeIntervalSinceReferenceDate))"
        case let uuid as UUID: return "UUID(uuidString: \"\(uuid.uuidString)\")!"
        case let url as URL: return "URL(string: \(Printer.quoted(url.absoluteString, delimiter: "\"")))!"
        case let data as Data: return "Data(base64Encoded: \"\(data.base64EncodedString())\")!"
        case let optional as any PredicateSourceOptional: return try optional.sourceLiteral()
        case let array as any PredicateSourceArray: return try array.sourceLiteral()
        default:
            throw PredicateExportError(construct: "the value \(value)", reason: "pq has no Swift spelling for a \(type(of: value))")
        }
    }

    /// The member a key path names: a declared property, an array's `count` or
    /// `isEmpty` (the two the exporter reads), or `rawValue`.
    static func member(_ keyPath: AnyKeyPath) throws -> String {
        if let name = KeyPathNames.name(of: keyPath) { return name }
        let keyPathType = type(of: keyPath)
        if keyPathType.rootType is any PredicateSourceArray.Type, keyPathType.valueType == Int.self { return "count" }
        if keyPathType.rootType is any PredicateSourceArray.Type, keyPathType.valueType == Bool.self { return "isEmpty" }
        if keyPathType.rootType is any QueryEnum.Type { return "rawValue" }
        throw PredicateExportError(construct: "the key path \(keyPath)", reason: "pq cannot name its member")
    }
}

/// A node type pq builds, printed as Swift.
protocol PredicateSourceNode {
    func source(_ printer: inout PredicateSourcePrinter) throws -> String
}

protocol PredicateSourceOptional {
    func sourceLiteral() throws -> String
}

extension Optional: PredicateSourceOptional {

    func sourceLiteral() throws -> String {
        switch self {
        case .none: "nil"
        case .some(let value): try PredicateSourcePrinter.literal(value)
        }
    }
}

protocol PredicateSourceArray {
    func sourceLiteral() throws -> String
}

extension Array: PredicateSourceArray {
    func sourceLiteral() throws -> String {
        "[" + (try map { try PredicateSourcePrinter.literal($0) }).joined(separator: ", ") + "]"
    }
}

// MARK: - The nodes

extension PredicateExpressions.Variable: PredicateSourceNode {
    func source(_ printer: inout PredicateSourcePrinter) throws -> String { try printer.name(of: key) }
}

extension PredicateExpressions.KeyPath: PredicateSourceNode {
    func source(_ printer: inout PredicateSourcePrinter) throws -> String {
        return "\(try printer.print(root)).\(try PredicateSourcePrinter.member(keyPath))"
    }
}

extension PredicateExpressions.Value: PredicateSourceNode {
    func source(_ printer: inout PredicateSourcePrinter) throws -> String { try printer.capture(value) }
}

extension PredicateExpressions.NilLiteral: PredicateSourceNode {
    func source(_ printer: inout PredicateSourcePrinter) throws -> String { "nil" }
}

extension PredicateExpressions.Equal: PredicateSourceNode {
    func source(_ printer: inout PredicateSourcePrinter) throws -> String {
        try printer.binary(lhs, "==", rhs)
    }
}

extension PredicateExpressions.NotEqual: PredicateSourceNode {
    func source(_ printer: inout PredicateSourcePrinter) throws -> String {
        try printer.binary(lhs, "!=", rhs)
    }
}

extension PredicateExpressions.Comparison: PredicateSourceNode {
    func source(_ printer: inout PredicateSourcePrinter) throws -> String {
        let spelling =
            switch op {
            case .lessThan: "<"
            case .lessThanOrEqual: "<="
            case .greaterThan: ">"
            case .greaterThanOrEqual: ">="
            }
        return try printer.binary(lhs, spelling, rhs)
    }
}

extension PredicateExpressions.Conjunction: PredicateSourceNode {
    func source(_ printer: inout PredicateSourcePrinter) throws -> String {
        try printer.binary(lhs, "&&", rhs)
    }
}

extension PredicateExpressions.Disjunction: PredicateSourceNode {
    func source(_ printer: inout PredicateSourcePrinter) throws -> String {
        try printer.binary(lhs, "||", rhs)
    }
}

extension PredicateExpressions.Negation: PredicateSourceNode {
    func source(_ printer: inout PredicateSourcePrinter) throws -> String { "!\(try printer.print(wrapped))" }
}

extension PredicateExpressions.NilCoalesce: PredicateSourceNode {
    func source(_ printer: inout PredicateSourcePrinter) throws -> String {
        try printer.binary(lhs, "??", rhs)
    }
}

extension PredicateExpressions.OptionalFlatMap: PredicateSourceNode {
    func source(_ printer: inout PredicateSourcePrinter) throws -> String {
        let wrappedSource = try printer.print(wrapped)
        // `x.flatMap { v in v.member… }` is Swift's optional chain `x?.member…`, the
        // form people write and the compiler type-checks quickly.
        let placeholder = "\u{1}"
        let saved = printer
        if let chained = try? printer.printing(transform, naming: variable.key, placeholder),
            chained.hasPrefix(placeholder + "."), chained.filter({ $0 == "\u{1}" }).count == 1
        {
            // Inside a chain that reads a non-optional member (`a?.name`), the chain goes on
            // (`a?.name.contains(x)`); after an optional value, it needs its own `?`.
            let continuesChain = (wrapped as? any PredicateSourceMemberOfOptional)?.nonOptionalMember != nil
            return wrappedSource + (continuesChain ? "" : "?") + chained.dropFirst(placeholder.count)
        }
        printer = saved
        // `x?.m` then a test of it: `x.flatMap { (u: U) -> R in test(u.m) }`, one closure.
        if let inner = wrapped as? any PredicateSourceMemberOfOptional, let member = inner.nonOptionalMember {
            let name = printer.bind(inner.variableKey)
            let body = try printer.printing(transform, naming: variable.key, "\(name).\(member)")
            let base = try printer.print(inner.wrappedNode)
            return "\(base).flatMap { (\(name): \(PredicateSourcePrinter.typeName(inner.wrappedType))) -> \(PredicateSourcePrinter.typeName(RHS.Output.self)) in \(body) }"
        }
        let name = printer.bind(variable.key)
        // `a?.b.flatMap` would continue the optional chain into `b`: parenthesize it.
        let receiver = wrappedSource.contains("?.") ? "(\(wrappedSource))" : wrappedSource
        return "\(receiver).flatMap { (\(name): \(PredicateSourcePrinter.typeName(Wrapped.self))) -> \(PredicateSourcePrinter.typeName(RHS.Output.self)) in \(try printer.print(transform)) }"
    }
}

/// A `flatMap` that reads one member of its variable: `x?.m`.
protocol PredicateSourceMemberOfOptional {
    var wrappedNode: Any { get }
    var wrappedType: Any.Type { get }
    var variableKey: PredicateExpressions.VariableID { get }
    /// The member's name, when it is read from the variable and is not optional.
    var nonOptionalMember: String? { get }
}

extension PredicateExpressions.OptionalFlatMap: PredicateSourceMemberOfOptional {
    var wrappedNode: Any { wrapped }
    var wrappedType: Any.Type { Wrapped.self }
    var variableKey: PredicateExpressions.VariableID { variable.key }
    var nonOptionalMember: String? {
        guard !(RHS.Output.self is any PredicateOptional.Type), let keyPath = transform as? any PredicateSourceKeyPathOnVariable,
            keyPath.isOnVariable(variable.key)
        else { return nil }
        return try? keyPath.memberName()
    }
}

/// A `KeyPath` node read from a variable, for printing `?.`.
protocol PredicateSourceKeyPathOnVariable {
    func isOnVariable(_ key: PredicateExpressions.VariableID) -> Bool
    func memberName() throws -> String
}

extension PredicateExpressions.KeyPath: PredicateSourceKeyPathOnVariable {
    func isOnVariable(_ key: PredicateExpressions.VariableID) -> Bool {
        (root as? any PredicateSourceVariable)?.variableKey == key
    }

    func memberName() throws -> String { try PredicateSourcePrinter.member(keyPath) }
}

protocol PredicateSourceVariable {
    var variableKey: PredicateExpressions.VariableID { get }
}

extension PredicateExpressions.Variable: PredicateSourceVariable {
    var variableKey: PredicateExpressions.VariableID { key }
}

extension PredicateExpressions.SequenceContains: PredicateSourceNode {
    func source(_ printer: inout PredicateSourcePrinter) throws -> String {
        "\(try printer.print(sequence)).contains(\(try printer.print(element)))"
    }
}

extension PredicateExpressions.SequenceContainsWhere: PredicateSourceNode {
    func source(_ printer: inout PredicateSourcePrinter) throws -> String {
        let base = try printer.print(sequence)
        let name = printer.bind(variable.key)
        return "\(base).contains { (\(name): \(PredicateSourcePrinter.typeName(Element.self))) -> Bool in \(try printer.print(test)) }"
    }
}

extension PredicateExpressions.SequenceAllSatisfy: PredicateSourceNode {
    func source(_ printer: inout PredicateSourcePrinter) throws -> String {
        let base = try printer.print(sequence)
        let name = printer.bind(variable.key)
        return "\(base).allSatisfy { (\(name): \(PredicateSourcePrinter.typeName(Element.self))) -> Bool in \(try printer.print(test)) }"
    }
}

extension PredicateExpressions.Filter: PredicateSourceNode {
    func source(_ printer: inout PredicateSourcePrinter) throws -> String {
        let base = try printer.print(sequence)
        let name = printer.bind(variable.key)
        return "\(base).filter { (\(name): \(PredicateSourcePrinter.typeName(Element.self))) -> Bool in \(try printer.print(filter)) }"
    }
}

extension PredicateExpressions.CollectionContainsCollection: PredicateSourceNode {
    func source(_ printer: inout PredicateSourcePrinter) throws -> String {
        "\(try printer.print(base)).contains(\(try printer.print(other)))"
    }
}

extension PredicateExpressions.SequenceStartsWith: PredicateSourceNode {
    func source(_ printer: inout PredicateSourcePrinter) throws -> String {
        "\(try printer.print(base)).starts(with: \(try printer.print(prefix)))"
    }
}

extension PredicateExpressions.Arithmetic: PredicateSourceNode {
    func source(_ printer: inout PredicateSourcePrinter) throws -> String {
        let spelling =
            switch op {
            case .add: "+"
            case .subtract: "-"
            case .multiply: "*"
            }
        return try printer.binary(lhs, spelling, rhs)
    }
}

extension PredicateExpressions.IntDivision: PredicateSourceNode {
    func source(_ printer: inout PredicateSourcePrinter) throws -> String {
        try printer.binary(lhs, "/", rhs)
    }
}

extension PredicateExpressions.FloatDivision: PredicateSourceNode {
    func source(_ printer: inout PredicateSourcePrinter) throws -> String {
        try printer.binary(lhs, "/", rhs)
    }
}

extension PredicateExpressions.IntRemainder: PredicateSourceNode {
    func source(_ printer: inout PredicateSourcePrinter) throws -> String {
        try printer.binary(lhs, "%", rhs)
    }
}

extension PredicateExpressions.UnaryMinus: PredicateSourceNode {
    func source(_ printer: inout PredicateSourcePrinter) throws -> String { "-\(try printer.print(wrapped))" }
}

extension PredicateExpressions.Conditional: PredicateSourceNode {
    func source(_ printer: inout PredicateSourcePrinter) throws -> String {
        "(\(try printer.print(test)) ? \(try printer.print(trueBranch)) : \(try printer.print(falseBranch)))"
    }
}

extension PredicateExpressions.ForcedUnwrap: PredicateSourceNode {
    func source(_ printer: inout PredicateSourcePrinter) throws -> String {
        // `nil!` does not type-check in Swift; a typed capture of nil does.
        if inner is any PredicateNilLiteral { return "\(try printer.capture(Wrapped?.none))!" }
        return "\(try printer.print(inner))!"
    }
}

extension PredicateExpressions.ConditionalCast: PredicateSourceNode {
    func source(_ printer: inout PredicateSourcePrinter) throws -> String {
        "(\(try printer.print(input)) as? \(PredicateSourcePrinter.typeName(Desired.self)))"
    }
}
