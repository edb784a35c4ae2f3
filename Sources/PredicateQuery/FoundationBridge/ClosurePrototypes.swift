// The node types of a predicate's closure bodies, remembered so that a closure
// node is built without its dry run.
//
// A closure node (`flatMap`, `contains(where:)`, `allSatisfy`, `filter`) learns
// its body's node type by building the body once with a variable of its own
// (PredicateTerm.swift). Nested, the dry runs multiply: a `contains(where:)`
// inside the `flatMap` of an optional to-many built its body four times. Two
// things cut that:
//
// - Within one conversion, each closure node gets the next number, in the order
//   the nodes are entered, and its dry run's result is kept under that number.
//   A dry run's nested nodes are numbered as the real build will number them
//   (the count is set back after the dry run), so the real build finds their
//   types and runs no dry run of its own. A body at nesting depth k is still
//   built once per enclosing closure's build plus its own dry run (k + 1
//   times), so the cost grows with the square of the depth, not as 4^depth.
// - Across conversions, the numbered types of a predicate are kept under its
//   shape: the model type and the typed IR without its constants' values, so
//   that a search field's predicate, rebuilt at each keystroke, is built once
//   per keystroke with no dry run at all.
//
// A remembered type is only ever used as the type the real body must have: the
// node is always the real build, checked to have that type (`rebuild`). A shape
// whose types differ after all (two queries that hash alike, a nil constant
// where the first had a value) fails that check, and the conversion is made
// again from scratch; nothing remembered ends up in a predicate.

import Foundation

/// The dry-run results of one conversion's closure nodes, by number.
final class ClosurePrototypes: @unchecked Sendable {
    // Unchecked: one conversion uses it, on the thread that builds the predicate.

    /// The conversion in progress on this thread, if it remembers prototypes.
    static var current: ClosurePrototypes? {
        guard let pointer = pthread_getspecific(threadKey) else { return nil }
        return Unmanaged<ClosurePrototypes>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// `body`, with `self` as the thread's conversion in progress. A conversion runs synchronously, on one
    /// thread, inside `Predicate.init`; a thread-local is what finds it from the nodes' static builders.
    func during<Result>(_ body: () throws -> Result) rethrows -> Result {
        let outer = pthread_getspecific(Self.threadKey)
        pthread_setspecific(Self.threadKey, Unmanaged.passUnretained(self).toOpaque())
        defer { pthread_setspecific(Self.threadKey, outer) }
        return try withExtendedLifetime(self) { try body() }
    }

    private static let threadKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// The prototypes, by number.
    private(set) var prototypes: [PredicateTerm?] = []
    private var next = 0
    /// The predicate's shape, made when its first closure node is met (a predicate with none is not hashed).
    private var makeShape: (() -> Shape)?
    /// The shape, once made.
    private(set) var shape: Shape?
    /// Whether the prototypes are those remembered for the shape.
    private(set) var isReplaying = false

    /// A record that looks up the prototypes remembered for the predicate's shape (made by `shape`) at
    /// its first closure node, or starts empty (nil).
    init(shape: (() -> Shape)?) {
        self.makeShape = shape
    }

    /// The prototype of the next closure node's body: the remembered one, or `dryRun()`'s, remembered.
    func prototype(_ dryRun: () throws -> PredicateTerm) rethrows -> PredicateTerm {
        if let makeShape {
            self.makeShape = nil
            let shape = makeShape()
            self.shape = shape
            if let known = Self.remembered(shape) {
                prototypes = known
                isReplaying = true
            }
        }
        let number = next
        next += 1
        if number < prototypes.count, let known = prototypes[number] { return known }
        while prototypes.count <= number { prototypes.append(nil) }
        let made = try dryRun()
        prototypes[number] = made
        // The real build numbers the body's closure nodes again, from here.
        next = number + 1
        return made
    }

    // MARK: - Across conversions

    /// A predicate's shape: its model type and its typed IR's hash without the constants' values.
    struct Shape: Hashable {
        var model: ObjectIdentifier
        var expression: Int
    }

    /// The most shapes remembered; past that, all are forgotten.
    static let capacity = 256

    private static let byShape = Locked<[Shape: [PredicateTerm?]]>([:])

    /// The prototypes remembered for `shape`.
    static func remembered(_ shape: Shape) -> [PredicateTerm?]? {
        byShape.withLock { $0[shape] }
    }

    /// Remembers the prototypes of a conversion that succeeded.
    static func remember(_ prototypes: [PredicateTerm?], for shape: Shape) {
        byShape.withLock { known in
            if known.count >= capacity { known.removeAll(keepingCapacity: true) }
            known[shape] = prototypes
        }
    }
}

extension TypedExpr {
    /// A hash of what decides the types of the Foundation nodes built for the expression: its constructs,
    /// operators, options, paths and value types, but not the values of its constants. A cheap hash, not
    /// Swift's `Hasher` (which cost as much as a small predicate's closures): two shapes that collide are
    /// told apart when a remembered type does not fit.
    var shapeHash: Int {
        var hash = ShapeHash()
        hash.add(self)
        return Int(truncatingIfNeeded: hash.value)
    }
}

/// FNV-1a over the parts of an expression's shape.
private struct ShapeHash {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func add(_ number: Int) {
        value = (value ^ UInt64(truncatingIfNeeded: number)) &* 0x100_0000_01b3
    }

    mutating func add(_ text: String) {
        for byte in text.utf8 { value = (value ^ UInt64(byte)) &* 0x100_0000_01b3 }
        add(0xff)
    }

    mutating func add(_ type: ValueType) {
        switch type {
        case .bool: add(1)
        case .int: add(2)
        case .double: add(3)
        case .string: add(4)
        case .date: add(5)
        case .uuid: add(6)
        case .data: add(7)
        case .url: add(8)
        case .duration: add(9)
        case .enumeration(let enumType):
            add(10)
            add(enumType.name)
        case .opaque(let name):
            add(11)
            add(name)
        case .null: add(12)
        case .list(let element):
            add(13)
            add(element)
        case .object(let entity):
            add(14)
            add(entity)
        }
    }

    mutating func add(level: Int, steps: [RelationshipStep]) {
        add(level)
        add(steps.count)
        for step in steps { add(step.relationship.name) }
    }

    mutating func add(_ path: CollectionPath) {
        add(level: path.level, steps: path.steps)
        add(path.relationship.relationship.name)
    }

    mutating func add(_ expr: TypedExpr) {
        switch expr {
        case .constant(_, let type):
            add(20)
            add(type)
        case .parameter(_, let type):
            add(21)
            add(type)
        case .currentDate(let function):
            add(22)
            add(function.rawValue)
        case .attribute(let path, let type):
            add(23)
            add(level: path.level, steps: path.steps)
            add(path.attribute.name)
            add(type)
        case .object(let path):
            add(24)
            add(level: path.level, steps: path.steps)
        case .isNil(let operand):
            add(25)
            add(operand)
        case .not(let operand):
            add(26)
            add(operand)
        case .and(let operands):
            add(27)
            add(operands.count)
            for operand in operands { add(operand) }
        case .or(let operands):
            add(28)
            add(operands.count)
            for operand in operands { add(operand) }
        case .compare(let op, let lhs, let rhs, let options):
            add(29)
            add(op.rawValue)
            add(Int(options.rawValue))
            add(lhs)
            add(rhs)
        case .stringTest(let op, let lhs, let rhs, let options):
            add(30)
            add(op.rawValue)
            add(Int(options.rawValue))
            add(lhs)
            add(rhs)
        case .inList(let element, let members):
            add(31)
            add(members.count)
            add(element)
            for member in members { add(member) }
        case .inParameterList(let element, let name, let type, let options):
            add(32)
            add(name)
            add(type)
            add(Int(options.rawValue))
            add(element)
        case .inRange(let element, let lower, let upper, let kind):
            add(33)
            add(kind == .closed ? 1 : 0)
            add(element)
            add(lower)
            add(upper)
        case .arithmetic(let op, let lhs, let rhs, let type):
            add(34)
            add(op.rawValue)
            add(type)
            add(lhs)
            add(rhs)
        case .negate(let operand, let type):
            add(35)
            add(type)
            add(operand)
        case .coalesce(let lhs, let rhs, let type):
            add(36)
            add(type)
            add(lhs)
            add(rhs)
        case .toDouble(let operand):
            add(37)
            add(operand)
        case .quantified(let quantifier, let path, let body):
            add(38)
            add(quantifier.rawValue)
            add(path)
            add(body)
        case .aggregate(let function, let path, let filter, let value, let type):
            add(39)
            add(function.rawValue)
            add(path)
            add(type)
            if let filter { add(filter) } else { add(0) }
            if let value { add(value) } else { add(0) }
        }
    }
}
