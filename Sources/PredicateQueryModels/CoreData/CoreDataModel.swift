// A Core Data model as its sources describe it, before it becomes a `Schema`:
// entities with their attributes and relationships, in Core Data's own terms
// (attribute type codes, min/max counts, delete rule numbers). The Xcode model
// reader (XML) and the compiled model reader (keyed archives) both produce it, so
// one mapping (`CoreDataModel+Schema`) turns either into the same `Schema`.

/// A Core Data managed object model, in Core Data's terms.
struct CoreDataModel: Sendable, Equatable {
    var entities: [Entity]

    struct Entity: Sendable, Equatable {
        var name: String
        var parent: String?
        var isAbstract = false
        /// Core Data's `renamingIdentifier` (Xcode's "Renaming ID", `elementID` in XML).
        var renamingIdentifier: String?
        var attributes: [Attribute] = []
        var relationships: [Relationship] = []
        /// Single-property uniqueness constraints.
        var uniqueProperties: Set<String> = []
        /// Properties the model has but pq skips (fetched properties), for warnings.
        var skipped: [(name: String, reason: String)] = []

        static func == (lhs: Entity, rhs: Entity) -> Bool {
            lhs.name == rhs.name && lhs.parent == rhs.parent && lhs.isAbstract == rhs.isAbstract
                && lhs.renamingIdentifier == rhs.renamingIdentifier && lhs.attributes == rhs.attributes
                && lhs.relationships == rhs.relationships && lhs.uniqueProperties == rhs.uniqueProperties
        }
    }

    struct Attribute: Sendable, Equatable {
        var name: String
        /// `NSAttributeType`'s raw value (100 Int16 … 2100 Composite).
        var typeCode: Int
        var isOptional = true
        var isTransient = false
        var renamingIdentifier: String?
        /// The default, spelled as Swift would (`false`, `0`, `"text"`).
        var defaultValue: String?
        /// The class of a transformable value, or the transformer's name.
        var className: String?
        /// A composite attribute's elements (fields of a SwiftData Codable struct).
        var elements: [Attribute] = []
        /// A composite attribute's type name, when the model names one.
        var compositeName: String?
        var allowsExternalStorage = false
    }

    struct Relationship: Sendable, Equatable {
        var name: String
        var destination: String
        var inverse: String?
        var isToMany: Bool
        var isOptional = true
        var isOrdered = false
        /// `NSDeleteRule`'s raw value: 0 no action, 1 nullify, 2 cascade, 3 deny.
        var deleteRule = 1
        var renamingIdentifier: String?
    }
}

/// Core Data's `NSAttributeType` raw values.
enum CoreDataAttributeType {
    static let undefined = 0
    static let integer16 = 100
    static let integer32 = 200
    static let integer64 = 300
    static let decimal = 400
    static let double = 500
    static let float = 600
    static let string = 700
    static let boolean = 800
    static let date = 900
    static let binary = 1000
    static let uuid = 1100
    static let uri = 1200
    static let transformable = 1800
    static let objectID = 2000
    static let composite = 2100

    /// The codes by the names Xcode writes in a model's XML (`attributeType="Integer 16"`).
    static let byXMLName: [String: Int] = [
        "Undefined": undefined, "Integer 16": integer16, "Integer 32": integer32, "Integer 64": integer64,
        "Decimal": decimal, "Double": double, "Float": float, "String": string, "Boolean": boolean, "Date": date,
        "Binary": binary, "UUID": uuid, "URI": uri, "Transformable": transformable, "ObjectID": objectID,
        "Composite": composite,
    ]
}
