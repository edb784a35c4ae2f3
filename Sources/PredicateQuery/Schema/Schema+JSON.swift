// The JSON form of a schema.
//
//     { "entities": [ { "name": "Budget",
//                       "attributes": [ { "name": "limit", "type": "Double", "optional": true } ],
//                       "relationships": [ { "name": "transactions", "destination": "Transaction",
//                                            "toMany": true, "inverse": "budget", "deleteRule": "cascade" } ] } ],
//       "enums": [ { "name": "Genre", "rawType": "Int",
//                    "cases": [ { "name": "action", "rawValue": 1 }, { "name": "kids" } ] } ] }
//
// Types are Swift type names. Flags that are false, and empty lists, may be left
// out, and are left out when encoding. Enum cases without a raw value get Swift's
// implicit one.

import Foundation

extension Schema: Codable {
    private enum CodingKeys: String, CodingKey { case entities, enums, composites, otherNames }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            entities: try container.decode([Entity].self, forKey: .entities),
            enums: try container.decodeIfPresent([EnumType].self, forKey: .enums) ?? [],
            composites: try container.decodeIfPresent([CompositeType].self, forKey: .composites) ?? [])
        otherEntityNames = try container.decodeIfPresent([String: String].self, forKey: .otherNames) ?? [:]
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(entities, forKey: .entities)
        if !enums.isEmpty { try container.encode(enums, forKey: .enums) }
        if !composites.isEmpty { try container.encode(composites, forKey: .composites) }
        if !otherEntityNames.isEmpty { try container.encode(otherEntityNames, forKey: .otherNames) }
    }

    /// Decodes a schema from its JSON form.
    public static func fromJSON(_ data: Data) throws -> Schema {
        try JSONDecoder().decode(Schema.self, from: data)
    }

    /// The JSON form, with sorted keys so equal schemas give equal bytes.
    public func jsonData(prettyPrinted: Bool = true) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = prettyPrinted ? [.prettyPrinted, .sortedKeys] : [.sortedKeys]
        return try encoder.encode(self)
    }
}

extension Entity: Codable {
    private enum CodingKeys: String, CodingKey {
        case name, attributes, relationships, computed, parent, originalName, abstract, otherNames
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            try container.decode(String.self, forKey: .name),
            attributes: try container.decodeIfPresent([Attribute].self, forKey: .attributes) ?? [],
            relationships: try container.decodeIfPresent([Relationship].self, forKey: .relationships) ?? [],
            computedProperties: try container.decodeIfPresent([ComputedProperty].self, forKey: .computed) ?? [],
            parent: try container.decodeIfPresent(String.self, forKey: .parent),
            originalName: try container.decodeIfPresent(String.self, forKey: .originalName),
            abstract: try container.decodeIfPresent(Bool.self, forKey: .abstract) ?? false)
        otherNames = try container.decodeIfPresent([String: String].self, forKey: .otherNames) ?? [:]
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        if !attributes.isEmpty { try container.encode(attributes, forKey: .attributes) }
        if !relationships.isEmpty { try container.encode(relationships, forKey: .relationships) }
        if !computedProperties.isEmpty { try container.encode(computedProperties, forKey: .computed) }
        try container.encodeIfPresent(parent, forKey: .parent)
        try container.encodeIfPresent(originalName, forKey: .originalName)
        if isAbstract { try container.encode(true, forKey: .abstract) }
        if !otherNames.isEmpty { try container.encode(otherNames, forKey: .otherNames) }
    }
}

extension Attribute: Codable {
    private enum CodingKeys: String, CodingKey {
        case name, type, optional, `default`, unique, originalName, transient, externalStorage, transformable
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let typeName = try container.decode(String.self, forKey: .type)
        let flag = { (key: CodingKeys) in try container.decodeIfPresent(Bool.self, forKey: key) ?? false }
        self.init(
            try container.decode(String.self, forKey: .name),
            try flag(.transformable) ? .transformable(typeName) : AttributeType(swiftName: typeName),
            optional: try flag(.optional),
            defaultValue: try container.decodeIfPresent(String.self, forKey: .default),
            unique: try flag(.unique),
            originalName: try container.decodeIfPresent(String.self, forKey: .originalName),
            transient: try flag(.transient),
            externalStorage: try flag(.externalStorage))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(type.description, forKey: .type)
        let flags: [(CodingKeys, Bool)] = [
            (.optional, isOptional), (.unique, isUnique), (.transient, isTransient),
            (.externalStorage, isExternalStorage),
        ]
        for (key, value) in flags where value { try container.encode(true, forKey: key) }
        if case .transformable = type { try container.encode(true, forKey: .transformable) }
        try container.encodeIfPresent(defaultValue, forKey: .default)
        try container.encodeIfPresent(originalName, forKey: .originalName)
    }
}

extension Relationship: Codable {
    private enum CodingKeys: String, CodingKey {
        case name, destination, toMany, optional, inverse, deleteRule, originalName, ordered
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let name = try container.decode(String.self, forKey: .name)
        let destination = try container.decode(String.self, forKey: .destination)
        let toMany = try container.decodeIfPresent(Bool.self, forKey: .toMany) ?? false
        let optional = try container.decodeIfPresent(Bool.self, forKey: .optional) ?? !toMany
        let inverse = try container.decodeIfPresent(String.self, forKey: .inverse)
        let rule = try container.decodeIfPresent(DeleteRule.self, forKey: .deleteRule) ?? .nullify
        let originalName = try container.decodeIfPresent(String.self, forKey: .originalName)
        if toMany {
            self.init(
                name, toMany: destination, optional: optional, inverse: inverse, deleteRule: rule,
                originalName: originalName)
        } else {
            self.init(
                name, to: destination, optional: optional, inverse: inverse, deleteRule: rule,
                originalName: originalName)
        }
        isOrdered = try container.decodeIfPresent(Bool.self, forKey: .ordered) ?? false
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(destination, forKey: .destination)
        if isToMany { try container.encode(true, forKey: .toMany) }
        if isOptional != !isToMany { try container.encode(isOptional, forKey: .optional) }
        try container.encodeIfPresent(inverse, forKey: .inverse)
        if deleteRule != .nullify { try container.encode(deleteRule, forKey: .deleteRule) }
        try container.encodeIfPresent(originalName, forKey: .originalName)
        if isOrdered { try container.encode(true, forKey: .ordered) }
    }
}

extension ComputedProperty: Codable {
    private enum CodingKeys: String, CodingKey { case name, type, dependencies }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            try container.decode(String.self, forKey: .name),
            typeName: try container.decode(String.self, forKey: .type),
            dependencies: try container.decodeIfPresent([String].self, forKey: .dependencies) ?? [])
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(typeName, forKey: .type)
        if !dependencies.isEmpty { try container.encode(dependencies, forKey: .dependencies) }
    }
}

extension EnumType: Codable {
    private enum CodingKeys: String, CodingKey { case name, rawType, cases }
    private enum CaseKeys: String, CodingKey { case name, rawValue }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let rawType = try container.decode(RawType.self, forKey: .rawType)
        var casesContainer = try container.nestedUnkeyedContainer(forKey: .cases)
        var cases: [(name: String, rawValue: RawValue?)] = []
        while !casesContainer.isAtEnd {
            let caseContainer = try casesContainer.nestedContainer(keyedBy: CaseKeys.self)
            let name = try caseContainer.decode(String.self, forKey: .name)
            var rawValue: RawValue?
            if let number = try? caseContainer.decodeIfPresent(Int64.self, forKey: .rawValue) {
                rawValue = .int(number)
            } else if let text = try caseContainer.decodeIfPresent(String.self, forKey: .rawValue) {
                rawValue = .string(text)
            }
            cases.append((name, rawValue))
        }
        self.init(try container.decode(String.self, forKey: .name), rawType: rawType, cases: cases)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(rawType, forKey: .rawType)
        var casesContainer = container.nestedUnkeyedContainer(forKey: .cases)
        for enumCase in cases {
            var caseContainer = casesContainer.nestedContainer(keyedBy: CaseKeys.self)
            try caseContainer.encode(enumCase.name, forKey: .name)
            switch enumCase.rawValue {
            case .int(let value): try caseContainer.encode(value, forKey: .rawValue)
            case .string(let value): try caseContainer.encode(value, forKey: .rawValue)
            }
        }
    }
}

extension CompositeType: Codable {
    private enum CodingKeys: String, CodingKey { case name, fields }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            try container.decode(String.self, forKey: .name),
            fields: try container.decode([Attribute].self, forKey: .fields))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(fields, forKey: .fields)
    }
}
