// Property attributes for the schema builder: `@Attribute(…)`,
// `@Relationship(…)`, `@Transient`, and property wrappers pq does not know.
//
// Options are read from the attribute's argument tokens: `.unique`,
// `.externalStorage`, `.transient`, `.transformable(by:)`, `originalName:`;
// `deleteRule:` (or the older unlabeled `.cascade`) and `inverse: \Root.name`.
// Options that do not change what a query may do (`.spotlight`, `.encrypt`,
// `hashModifier:`, …) are accepted and ignored; unknown ones are warned about.

import PredicateQuery

extension SwiftSchemaBuilder {
    /// What a stored property's attributes say.
    struct PropertyOptions {
        var isTransient = false
        var isUnique = false
        var isExternalStorage = false
        var isTransformable = false
        var originalName: String?
        var hasRelationshipAttribute = false
        var deleteRule = Relationship.DeleteRule.nullify
        var inverse: (root: String?, name: String)?
    }

    private static let ignoredAttributeOptions: Set<String> = [
        "spotlight", "encrypt", "preserveValueOnDeletion", "allowsCloudEncryption", "ephemeral",
    ]
    private static let ignoredLabels: Set<String> = ["hashModifier", "minimumModelCount", "maximumModelCount"]
    /// Attributes that say nothing about storage: concurrency and availability.
    private static let ignoredAttributes: Set<String> = ["MainActor", "Sendable", "ObservationTracked"]

    /// Reads the attributes of a stored property, warning about unknown ones.
    mutating func readOptions(of property: SwiftPropertyDecl, in owner: Int) -> PropertyOptions {
        var options = PropertyOptions()
        for attribute in property.attributes {
            switch attribute.name {
            case "Transient":
                options.isTransient = true
            case "Attribute":
                readAttributeOptions(attribute, into: &options, property: property.name, in: owner)
            case "Relationship":
                options.hasRelationshipAttribute = true
                readRelationshipOptions(attribute, into: &options, property: property.name, in: owner)
            default:
                // Lowercase attributes are the language's own (`@objc`, `@available`).
                guard attribute.name.first?.isUppercase == true, !Self.ignoredAttributes.contains(attribute.name) else {
                    continue
                }
                warn(
                    "'@\(attribute.name)' on '\(property.name)' is not a SwiftData attribute; ignored", line: attribute.line,
                    in: owner)
            }
        }
        return options
    }

    private mutating func readAttributeOptions(
        _ attribute: SwiftAttributeUse, into options: inout PropertyOptions, property: String, in owner: Int
    ) {
        for (label, value) in Self.arguments(attribute.arguments) {
            switch label {
            case "originalName"?:
                options.originalName = Self.stringValue(value)
            case let label? where Self.ignoredLabels.contains(label):
                break
            case let label?:
                warn("unknown @Attribute argument '\(label):' on '\(property)'; ignored", line: attribute.line, in: owner)
            case nil:
                switch Self.optionName(value) {
                case "unique": options.isUnique = true
                case "externalStorage": options.isExternalStorage = true
                case "transient": options.isTransient = true
                case "transformable": options.isTransformable = true
                case let name? where Self.ignoredAttributeOptions.contains(name): break
                case let name:
                    warn(
                        "unknown @Attribute option '.\(name ?? "")' on '\(property)'; ignored", line: attribute.line, in: owner)
                }
            }
        }
    }

    private mutating func readRelationshipOptions(
        _ attribute: SwiftAttributeUse, into options: inout PropertyOptions, property: String, in owner: Int
    ) {
        for (label, value) in Self.arguments(attribute.arguments) {
            switch label {
            case "deleteRule"?, nil:
                let name = Self.optionName(value)
                if let rule = name.flatMap(Relationship.DeleteRule.init(rawValue:)) {
                    options.deleteRule = rule
                } else if label != nil || name != "unique" {
                    warn(
                        "unknown @Relationship option '.\(name ?? "")' on '\(property)'; ignored", line: attribute.line, in: owner
                    )
                }
            case "inverse"?:
                if let inverse = Self.keyPath(value) {
                    options.inverse = inverse
                } else {
                    warn("cannot read the inverse of '\(property)'; ignored", line: attribute.line, in: owner)
                }
            case "originalName"?:
                options.originalName = Self.stringValue(value)
            case let label? where Self.ignoredLabels.contains(label):
                break
            case let label?:
                warn("unknown @Relationship argument '\(label):' on '\(property)'; ignored", line: attribute.line, in: owner)
            }
        }
    }

    // MARK: - Arguments

    /// An attribute's arguments split at top-level commas, with their labels.
    static func arguments(_ tokens: [SwiftToken]) -> [(label: String?, value: ArraySlice<SwiftToken>)] {
        var result: [(String?, ArraySlice<SwiftToken>)] = []
        var start = 0
        var depth = 0
        for position in 0...tokens.count {
            if position < tokens.count {
                let token = tokens[position]
                if let (_, opens) = SwiftBracketStack.bracket(token) { depth += opens ? 1 : -1 }
                guard depth == 0, token.isPunctuation(",") else { continue }
            }
            let argument = tokens[start..<position]
            start = position + 1
            guard let first = argument.first else { continue }
            if first.kind == .identifier, argument.count > 1, argument[argument.startIndex + 1].isPunctuation(":") {
                result.append((first.text, argument.dropFirst(2)))
            } else {
                result.append((nil, argument))
            }
        }
        return result
    }

    /// The option an argument names: `.unique`, `Schema.Attribute.Option.unique`,
    /// `.transformable(by: X.self)` name `unique`, `unique`, `transformable`.
    static func optionName(_ value: ArraySlice<SwiftToken>) -> String? {
        var name: String?
        for token in value {
            if token.isPunctuation("(") { break }
            if token.kind == .identifier { name = token.text }
        }
        return name
    }

    /// The value of a plain string literal argument.
    static func stringValue(_ value: ArraySlice<SwiftToken>) -> String? {
        guard value.count == 1, let token = value.first, token.kind == .string, !token.isEscaped else { return nil }
        return token.text
    }

    /// `\Root.name` or `\.name`: the root as written (if any) and the last name.
    static func keyPath(_ value: ArraySlice<SwiftToken>) -> (root: String?, name: String)? {
        guard let first = value.first, first.isPunctuation("\\") else { return nil }
        let rest = value.dropFirst()
        let names = rest.filter { $0.kind == .identifier }.map(\.text)
        guard let name = names.last else { return nil }
        let hasRoot = rest.first?.kind == .identifier && names.count >= 2
        return (hasRoot ? names[names.count - 2] : nil, name)
    }
}
