// Value types for the schema builder: what a property's type means, the enums
// and Codable structs used as attribute types, and types inferred from defaults.
//
// An enum is usable when its raw type is an integer type or `String`; its cases'
// raw values are taken as written, implicit ones following Swift. A struct
// becomes a `CompositeType` of its stored properties, which may themselves be
// builtin, enums or structs. Each enum and struct is resolved once, and added to
// the schema in order of first use.

import PredicateQuery

extension SwiftSchemaBuilder {
    /// What a (non-optional) property type means.
    enum Classification {
        case value(AttributeType)
        /// A model: a to-one relationship.
        case model(String)
        /// An array of models: a to-many relationship.
        case models(String)
        /// Not something pq reads: the end of a sentence "'x' has type 'T', …".
        case unusable(String)
    }

    private static let cannotStore = "which SwiftData cannot store"
    /// How deep Codable structs may nest in one another.
    static let maximumCompositeNesting = 32

    /// The meaning of `type` (without optionality) inside the type at `scope`.
    mutating func classify(_ type: SwiftTypeSyntax, scope: [String]) -> Classification {
        switch type {
        case .named(let path, let arguments):
            guard arguments.isEmpty else { return .unusable("a generic type, which pq cannot query") }
            if let builtin = Self.builtinType(path) { return .value(builtin) }
            if let raw = rawValueType(path, scope: scope) { return .value(raw) }
            if let model = modelName(path, scope: scope) { return .model(model) }
            // Not declared in the files: a framework's type (`UIColor`), or a model in a file not given.
            guard let found = lookup(path, scope: scope) else {
                return .unusable("which is not declared in the files pq read (a framework's type, or a file not given)")
            }
            let result: Result<String, ValueTypeFailure>
            switch declarations[found].kind {
            case .enum: result = enumType(found)
            case .struct: result = compositeType(found)
            default: return .unusable(Self.cannotStore)
            }
            switch result {
            case .success(let name): return .value(.named(name))
            case .failure(let failure): return .unusable(failure.reason)
            }
        case .array(let element):
            let (base, optional) = element.unwrapped
            if !optional, case .named(let path, let arguments) = base, arguments.isEmpty,
                let model = modelName(path, scope: scope)
            {
                return .models(model)
            }
            if case .named(let path, _) = base, modelName(path, scope: scope) != nil {
                return .unusable(Self.cannotStore)
            }
            // An array of values (`[String]`, `[Genre]`): SwiftData keeps it in one
            // BLOB column (a binary property list); queries test it for nil only.
            if case .named(let path, let arguments) = base, arguments.isEmpty {
                return .value(.transformable("[" + path.joined(separator: ".") + "]"))
            }
            return .unusable("an array of values of this type, which pq cannot query")
        case .dictionary:
            return .unusable("a dictionary, which pq cannot query")
        case .optional(let wrapped):
            return classify(wrapped, scope: scope)
        case .other:
            return .unusable(Self.cannotStore)
        }
    }

    /// `Status.RawValue`: the raw type of an enum with `Int` or `String` raw values.
    func rawValueType(_ path: [String], scope: [String]) -> AttributeType? {
        guard path.count > 1, path.last == "RawValue", let found = lookup(Array(path.dropLast()), scope: scope),
            declarations[found].kind == .enum, case .named(let raw, _)? = declarations[found].inherits.first
        else { return nil }
        return Self.builtinType(raw)
    }

    /// The enum declared at `position` as a schema enum: its name, or why not.
    mutating func enumType(_ position: Int) -> Result<String, ValueTypeFailure> {
        if let known = valueTypes[position] { return known }
        let declaration = declarations[position]
        relevant.insert(position)
        var result: Result<String, ValueTypeFailure>
        switch makeEnumType(declaration) {
        case .success(let enumType):
            result = claimName(declaration.name, for: position)
            if case .success = result { enums.append(enumType) }
        case .failure(let failure):
            result = .failure(failure)
        }
        valueTypes[position] = result
        return result
    }

    /// The enum declared at `position` has Int or String raw values pq can read.
    func isReadableEnum(_ position: Int) -> Bool {
        if case .success = makeEnumType(declarations[position]) { return true }
        return false
    }

    private func makeEnumType(_ declaration: SwiftTypeDecl) -> Result<EnumType, ValueTypeFailure> {
        var rawType: EnumType.RawType?
        var rawName = ""
        if case .named(let path, let arguments)? = declaration.inherits.first, arguments.isEmpty,
            let builtin = Self.builtinType(path)
        {
            rawName = path.last ?? ""
            switch builtin {
            case .integer: rawType = .int
            case .string: rawType = .string
            default: break
            }
        }
        guard let rawType else {
            let reason =
                rawName.isEmpty
                ? "an enum without Int or String raw values, which pq cannot query"
                : "an enum with \(rawName) raw values, which pq cannot query"
            return .failure(ValueTypeFailure(reason: reason))
        }
        var cases: [(name: String, rawValue: EnumType.RawValue?)] = []
        for enumCase in declaration.cases {
            switch (rawType, enumCase.rawValue) {
            case (_, .none): cases.append((enumCase.name, nil))
            case (.int, .int(let value)): cases.append((enumCase.name, .int(value)))
            case (.string, .string(let value)): cases.append((enumCase.name, .string(value)))
            case (_, .unreadable(let written)):
                return .failure(
                    ValueTypeFailure(reason: "whose case '\(enumCase.name)' has raw value '\(written)', which pq cannot read"))
            case (.int, .string(let value)):
                return .failure(ValueTypeFailure(reason: "whose case '\(enumCase.name)' has raw value \"\(value)\", not an Int"))
            case (.string, .int(let value)):
                return .failure(ValueTypeFailure(reason: "whose case '\(enumCase.name)' has raw value \(value), not a String"))
            }
        }
        return .success(EnumType(declaration.name, rawType: rawType, cases: cases))
    }

    /// The struct declared at `position` as a schema composite: its name, or why not.
    mutating func compositeType(_ position: Int) -> Result<String, ValueTypeFailure> {
        if let known = valueTypes[position] { return known }
        guard compositesInProgress.insert(position).inserted else {
            return .failure(ValueTypeFailure(reason: "a struct that contains itself, which pq cannot query"))
        }
        guard compositesInProgress.count <= Self.maximumCompositeNesting else {
            compositesInProgress.remove(position)
            return .failure(
                ValueTypeFailure(
                    reason: "a struct nested in structs more than \(Self.maximumCompositeNesting) deep, which pq cannot query"))
        }
        let declaration = declarations[position]
        relevant.insert(position)
        var fields: [Attribute] = []
        for property in declaration.properties where !property.isStatic && !property.isComputed {
            guard let type = declaredOrInferredType(of: property, in: position, scope: declaration.path) else {
                skippedProperties[declaration.name, default: []].insert(property.name)
                continue
            }
            let (base, optional) = type.unwrapped
            let label = "'\(property.name)' in '\(declaration.name)'"
            switch classify(base, scope: declaration.path) {
            case .value(let type):
                fields.append(Attribute(property.name, type, optional: optional, defaultValue: property.defaultText))
            case .model, .models:
                warn("\(label) refers to models, which a Codable struct cannot hold; skipped", line: property.line, in: position)
            case .unusable(let reason):
                skippedProperties[declaration.name, default: []].insert(property.name)
                let written = property.typeText ?? property.defaultText ?? ""
                warn("\(label) has type '\(written)', \(reason); skipped", line: property.line, in: position)
            }
        }
        compositesInProgress.remove(position)
        let result = claimName(declaration.name, for: position)
        if case .success = result { composites.append(CompositeType(declaration.name, fields: fields)) }
        valueTypes[position] = result
        return result
    }

    /// Reserves a schema name for the enum or struct at `position` and returns it;
    /// fails if another declaration of that name is already in the schema.
    private mutating func claimName(_ name: String, for position: Int) -> Result<String, ValueTypeFailure> {
        if let other = valueTypeNames[name], other != position {
            let first = declarations[other]
            return .failure(
                ValueTypeFailure(
                    reason: "which is also the name of the type at \(first.file):\(first.line), already in the schema"))
        }
        if models[name] != nil {
            return .failure(ValueTypeFailure(reason: "which is also the name of a model"))
        }
        valueTypeNames[name] = position
        return .success(name)
    }

    // MARK: - Inference

    /// A property's declared type, or the type of its default value when that is
    /// a plain literal (`0`, `1.5`, `"x"`, `true`), a call of a type (`Date()`) or
    /// a member of a builtin type or enum (`Date.now`, `Genre.action`).
    mutating func declaredOrInferredType(
        of property: SwiftPropertyDecl, in owner: Int, scope: [String]
    )
        -> SwiftTypeSyntax?
    {
        if let type = property.type ?? property.initializerType { return type }
        if let inferred = inferredType(property.defaultTokens, scope: scope) { return inferred }
        warn(
            "'\(property.name)' has no type annotation, and pq cannot tell its type from '\(property.defaultText ?? "")'; skipped",
            line: property.line, in: owner)
        return nil
    }

    private func inferredType(_ tokens: [SwiftToken], scope: [String]) -> SwiftTypeSyntax? {
        let negative = tokens.first?.isPunctuation("-") ?? false
        let literal = negative ? Array(tokens.dropFirst()) : tokens
        if literal.count == 1, let only = literal.first {
            switch only.kind {
            case .number:
                let text = only.text.lowercased()
                let isFloat =
                    text.hasPrefix("0x")
                    ? text.contains("p") || text.contains(".") : text.contains(where: { $0 == "." || $0 == "e" })
                return .named([isFloat ? "Double" : "Int"], arguments: [])
            case .string where !negative:
                return .named(["String"], arguments: [])
            case .identifier where !negative && (only.isWord("true") || only.isWord("false")):
                return .named(["Bool"], arguments: [])
            default:
                return nil
            }
        }
        guard !negative, let first = literal.first, first.kind == .identifier, literal.count >= 3,
            first.text.first?.isUppercase == true
        else { return nil }
        let type = SwiftTypeSyntax.named([first.text], arguments: [])
        if literal[1].isPunctuation("("), Self.closesAtEnd(literal, from: 1) { return type }
        if literal.count == 3, literal[1].isPunctuation("."), literal[2].kind == .identifier {
            if Self.builtinType([first.text]) != nil { return type }
            if let found = lookup([first.text], scope: scope), declarations[found].kind == .enum { return type }
        }
        return nil
    }

    /// The `(` at `open` is closed by the last token.
    private static func closesAtEnd(_ tokens: [SwiftToken], from open: Int) -> Bool {
        var depth = 0
        for position in open..<tokens.count {
            if tokens[position].isPunctuation("(") { depth += 1 }
            if tokens[position].isPunctuation(")") {
                depth -= 1
                if depth == 0 { return position == tokens.count - 1 }
            }
        }
        return false
    }
}
