// Attributes: the stored values of an entity, and their types.

/// A stored (or `@Transient`) property holding a value.
public struct Attribute: Sendable, Hashable {
    /// The name, as in the model: `limit`.
    public var name: String
    /// The type of its value.
    public var type: AttributeType
    /// Declared optional (`String?`): the value may be nil.
    public var isOptional: Bool
    /// The default as written in the model (`false`, `.swift`, `Date()`), if any.
    public var defaultValue: String?
    /// `@Attribute(.unique)`.
    public var isUnique: Bool
    /// `@Attribute(originalName: "name")`: the stored column keeps this name.
    public var originalName: String?
    /// `@Transient` or `@Attribute(.transient)`: never stored, so never queryable.
    public var isTransient: Bool
    /// `@Attribute(.externalStorage)`: large data kept beside the store.
    public var isExternalStorage: Bool

    /// An attribute `name` of `type`; the flags say how the model declares it.
    public init(
        _ name: String, _ type: AttributeType, optional: Bool = false, defaultValue: String? = nil,
        unique: Bool = false, originalName: String? = nil, transient: Bool = false,
        externalStorage: Bool = false
    ) {
        self.name = name
        self.type = type
        self.isOptional = optional
        self.defaultValue = defaultValue
        self.isUnique = unique
        self.originalName = originalName
        self.isTransient = transient
        self.isExternalStorage = externalStorage
    }

    /// The name the store uses for this attribute: the original name if it was renamed.
    public var storedName: String { originalName ?? name }
}

/// The type of an attribute's value.
public enum AttributeType: Sendable, Hashable, CustomStringConvertible {
    /// `Bool`.
    case bool
    /// An integer of the given width in bits (8, 16, 32 or 64); `Int` is 64.
    case integer(bits: Int)
    /// `Double`.
    case double
    /// `Float`, compared as a Double.
    case float
    /// `Decimal`, compared as a Double.
    case decimal
    /// `String`.
    case string
    /// `Date`.
    case date
    /// `UUID`.
    case uuid
    /// `Data`: bytes, only equal or unequal.
    case data
    /// `URL`, compared as its string.
    case url
    /// A type declared by name in the schema: an enum or a Codable struct.
    case named(String)
    /// A value stored through a `ValueTransformer`; opaque to queries.
    case transformable(String)

    /// The Swift spelling of the type.
    public var description: String {
        switch self {
        case .bool: "Bool"
        case .integer(let bits): bits == 64 ? "Int" : "Int\(bits)"
        case .double: "Double"
        case .float: "Float"
        case .decimal: "Decimal"
        case .string: "String"
        case .date: "Date"
        case .uuid: "UUID"
        case .data: "Data"
        case .url: "URL"
        case .named(let name): name
        case .transformable(let name): name
        }
    }

    /// The type for a Swift type name: `Int16`, `String`, `Genre`, …
    public init(swiftName name: String) {
        switch name {
        case "Bool": self = .bool
        case "Int", "Int64", "UInt", "UInt64": self = .integer(bits: 64)
        case "Int32", "UInt32": self = .integer(bits: 32)
        case "Int16", "UInt16": self = .integer(bits: 16)
        case "Int8", "UInt8": self = .integer(bits: 8)
        case "Double", "CGFloat", "TimeInterval": self = .double
        case "Float": self = .float
        case "Decimal": self = .decimal
        case "String": self = .string
        case "Date": self = .date
        case "UUID": self = .uuid
        case "Data": self = .data
        case "URL": self = .url
        default: self = .named(name)
        }
    }
}

/// A computed property of a model class: known to the schema, never queryable.
public struct ComputedProperty: Sendable, Hashable {
    /// The name, as in the model.
    public var name: String
    /// The declared type, as written: `Genre`, `UIImage?`.
    public var typeName: String
    /// The stored properties its getter reads, to suggest one in diagnostics.
    public var dependencies: [String]

    /// A computed property `name` of the type written `typeName`, whose getter reads `dependencies`.
    public init(_ name: String, typeName: String, dependencies: [String] = []) {
        self.name = name
        self.typeName = typeName
        self.dependencies = dependencies
    }
}
