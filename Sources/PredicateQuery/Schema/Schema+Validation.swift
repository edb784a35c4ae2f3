// Consistency checks on a schema, whatever its source.
//
// The checker relies on a schema being consistent: names unique and spellable in
// the query language, destinations and inverses that exist and point back, types
// that resolve, enums without repeated cases. Problems are diagnostics with
// `schema.*` codes; their span is synthesized, so each message names the entity
// and property it concerns.

extension DiagnosticCode {
    /// Two entities, enums or structs with one name.
    public static let duplicateName: DiagnosticCode = "schema.duplicateName"
    /// Two properties with one name in an entity (or its ancestors).
    public static let duplicateProperty: DiagnosticCode = "schema.duplicateProperty"
    /// A name the query language cannot spell.
    public static let invalidName: DiagnosticCode = "schema.invalidName"
    /// A relationship to an entity the schema does not have.
    public static let unknownDestination: DiagnosticCode = "schema.unknownDestination"
    /// An inverse that does not exist or does not point back.
    public static let inverseMismatch: DiagnosticCode = "schema.inverseMismatch"
    /// An attribute type that is neither built in nor declared.
    public static let unknownType: DiagnosticCode = "schema.unknownType"
    /// An enum with a repeated case name or raw value, or a raw value of the wrong type.
    public static let invalidEnum: DiagnosticCode = "schema.invalidEnum"
    /// A parent entity that does not exist, or inheritance that loops.
    public static let invalidParent: DiagnosticCode = "schema.invalidParent"
}

extension Schema {
    /// Every inconsistency in the schema; empty if it is sound.
    public func validate() -> [Diagnostic] {
        var problems: [String] = []
        var codes: [DiagnosticCode] = []
        func report(_ code: DiagnosticCode, _ message: String) {
            codes.append(code)
            problems.append(message)
        }

        var typeNames: Set<String> = []
        for name in entities.map(\.name) + enums.map(\.name) + composites.map(\.name) {
            if !typeNames.insert(name).inserted {
                report(.duplicateName, "the schema declares '\(name)' more than once")
            }
            if !PlainName.isPlain(name) {
                report(.invalidName, "'\(name)' is not a valid name; names are letters, digits and underscores")
            }
        }
        for entity in entities {
            validateEntity(entity, report: report)
        }
        for enumType in enums {
            validateEnum(enumType, report: report)
        }
        return zip(codes, problems).map { .error($0, $1, at: .synthesized) }
    }

    private func validateEntity(_ entity: Entity, report: (DiagnosticCode, String) -> Void) {
        if let parent = entity.parent {
            if self.entity(named: parent) == nil {
                report(.invalidParent, "'\(entity.name)' names '\(parent)' as its parent, but there is no such entity")
            } else if lineage(of: entity).last?.parent != nil {
                report(.invalidParent, "the inheritance of '\(entity.name)' loops")
            }
        }
        var seen: Set<String> = []
        for property in allProperties(of: entity) {
            if !seen.insert(property.name).inserted {
                report(.duplicateProperty, "'\(entity.name)' has more than one property named '\(property.name)'")
            }
            if !PlainName.isPlain(property.name) {
                report(.invalidName, "'\(entity.name).\(property.name)' is not a valid property name")
            }
        }
        for attribute in entity.attributes {
            if case .named(let typeName) = attribute.type, enumType(named: typeName) == nil,
                composite(named: typeName) == nil
            {
                report(
                    .unknownType,
                    "'\(entity.name).\(attribute.name)' has type '\(typeName)', which is neither built in nor declared in the schema"
                )
            }
        }
        for relationship in entity.relationships {
            validateRelationship(relationship, of: entity, report: report)
        }
    }

    private func validateRelationship(
        _ relationship: Relationship, of entity: Entity, report: (DiagnosticCode, String) -> Void
    ) {
        let label = "'\(entity.name).\(relationship.name)'"
        guard let destination = self.entity(named: relationship.destination) else {
            report(.unknownDestination, "\(label) points to '\(relationship.destination)', which is not an entity of the schema")
            return
        }
        guard let inverseName = relationship.inverse else { return }
        guard case .relationship(let inverse)? = property(named: inverseName, of: destination) else {
            report(
                .inverseMismatch,
                "\(label) names '\(inverseName)' as its inverse, but '\(destination.name)' has no relationship of that name")
            return
        }
        let pointsBack = lineage(of: entity).contains { $0.name == inverse.destination }
        if !pointsBack {
            report(
                .inverseMismatch,
                "\(label) names '\(destination.name).\(inverseName)' as its inverse, but that relationship points to '\(inverse.destination)'"
            )
        } else if let back = inverse.inverse, back != relationship.name {
            report(.inverseMismatch, "\(label) and '\(destination.name).\(inverseName)' disagree about their inverses")
        }
    }

    private func validateEnum(_ enumType: EnumType, report: (DiagnosticCode, String) -> Void) {
        var names: Set<String> = []
        var rawValues: Set<EnumType.RawValue> = []
        for enumCase in enumType.cases {
            if !names.insert(enumCase.name).inserted {
                report(.invalidEnum, "enum '\(enumType.name)' has more than one case named '\(enumCase.name)'")
            }
            if !rawValues.insert(enumCase.rawValue).inserted {
                report(.invalidEnum, "enum '\(enumType.name)' has more than one case with raw value \(enumCase.rawValue)")
            }
            switch (enumType.rawType, enumCase.rawValue) {
            case (.int, .string), (.string, .int):
                report(
                    .invalidEnum,
                    "case '\(enumCase.name)' of '\(enumType.name)' has raw value \(enumCase.rawValue), which is not \(enumType.rawType.rawValue == "Int" ? "an Int" : "a String")"
                )
            default:
                break
            }
        }
    }
}
