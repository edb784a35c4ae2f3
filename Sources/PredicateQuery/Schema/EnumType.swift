// Enums with raw values, as SwiftData stores them: one column holding the raw
// value. Implicit raw values follow Swift: an `Int` case without one is the
// previous case's value plus one (the first is 0); a `String` case without one is
// its own name.

/// An enum whose cases are stored as their raw values.
public struct EnumType: Sendable, Hashable {
    /// The raw value types SwiftData can store.
    public enum RawType: String, Sendable, Hashable, Codable {
        /// Cases stored as integers.
        case int = "Int"
        /// Cases stored as strings.
        case string = "String"
    }

    /// A raw value.
    public enum RawValue: Sendable, Hashable, CustomStringConvertible {
        /// An integer raw value.
        case int(Int64)
        /// A string raw value.
        case string(String)

        public var description: String {
            switch self {
            case .int(let value): String(value)
            case .string(let value): Printer.quoted(value)
            }
        }
    }

    /// A case and its (explicit or implied) raw value.
    public struct Case: Sendable, Hashable {
        /// The case's name, as written after the dot: `kids` in `.kids`.
        public var name: String
        /// The raw value the store keeps for the case.
        public var rawValue: RawValue
    }

    /// The enum's name, as in the model: `Genre`.
    public var name: String
    /// Whether the raw values are integers or strings.
    public var rawType: RawType
    /// The cases in declaration order, with raw values resolved.
    public private(set) var cases: [Case]

    /// Declares an enum; cases with a nil raw value get the implicit one.
    public init(_ name: String, rawType: RawType, cases: [(name: String, rawValue: RawValue?)]) {
        self.name = name
        self.rawType = rawType
        var resolved: [Case] = []
        var next: Int64 = 0
        for (caseName, explicit) in cases {
            let value: RawValue
            switch (rawType, explicit) {
            case (_, .some(let explicit)): value = explicit
            case (.int, .none): value = .int(next)
            case (.string, .none): value = .string(caseName)
            }
            if case .int(let number) = value { next = number &+ 1 }
            resolved.append(Case(name: caseName, rawValue: value))
        }
        self.cases = resolved
    }

    /// An `Int` enum whose cases count up from `start`: `Genre: Int { case action = 1, kids, horror }`.
    public static func int(_ name: String, _ caseNames: [String], startingAt start: Int64 = 0) -> EnumType {
        EnumType(
            name, rawType: .int,
            cases: caseNames.enumerated().map { index, caseName in
                (caseName, index == 0 ? .int(start) : nil)
            })
    }

    /// A `String` enum whose raw values are the case names.
    public static func string(_ name: String, _ caseNames: [String]) -> EnumType {
        EnumType(name, rawType: .string, cases: caseNames.map { ($0, nil) })
    }

    /// The case with this name.
    public func enumCase(named name: String) -> Case? {
        cases.first { $0.name == name }
    }

    /// The case with this raw value.
    public func enumCase(rawValue: RawValue) -> Case? {
        cases.first { $0.rawValue == rawValue }
    }
}

/// A Codable struct stored inline in its owner's table, one column per stored property.
public struct CompositeType: Sendable, Hashable {
    /// The struct's name, as in the model.
    public var name: String
    /// Its stored properties, each kept in a column of its own.
    public var fields: [Attribute]

    /// A Codable struct `name` with the stored properties `fields`.
    public init(_ name: String, fields: [Attribute]) {
        self.name = name
        self.fields = fields
    }
}
