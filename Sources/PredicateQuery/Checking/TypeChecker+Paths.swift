// Resolving key paths: names to attributes and relationships, through to-one
// relationships (`budget.name`, `budget?.name`), from the query's object or from a
// closure variable. This is where computed and transient properties, unknown
// names and misspellings are caught.

/// What a key path leads to.
enum PathTarget {
    /// A stored attribute.
    case attribute(AttributePath)
    /// An object: the query's object, a closure variable, or a to-one destination.
    case object(ObjectPath)
    /// A to-many relationship, and the components written after it.
    case collection(
        level: Int, steps: [RelationshipStep], relationship: RelationshipStep,
        element: Entity, remaining: [PathComponent])
    /// `Genre.action`: a case named through its enum type.
    case enumConstant(EnumType, EnumType.Case)
}

extension TypeChecker {
    /// Resolves `path`. With `report` false it records no diagnostics, which is how
    /// quantifiers look for the path they apply to.
    mutating func resolve(_ path: PropertyPath, report: Bool = true) -> PathTarget? {
        var reporter = Reporter(active: report, full: diagnostics.count >= Parser.maxDiagnostics)
        defer {
            for diagnostic in reporter.diagnostics { record(diagnostic) }
            omittedDiagnostics += reporter.omitted
        }
        var entity: Entity
        var startLevel: Int
        switch path.root {
        case .object:
            entity = root
            startLevel = 0
        case .variable(let name):
            guard let scope = scopes.last(where: { $0.name == name }) else {
                return reporter.error(.unknownVariable, "cannot find variable '\(name)' in scope", at: path.span)
            }
            entity = scope.entity
            startLevel = scope.level
        }
        if case .object = path.root, path.components.count == 2,
            schema.property(named: path.components[0].name, of: root) == nil,
            let enumType = schema.enumType(named: path.components[0].name)
        {
            return resolveEnumConstant(enumType, path.components[1], reporter: &reporter)
        }
        var steps: [RelationshipStep] = []
        for (index, component) in path.components.enumerated() {
            if component.isOptionalChained, let previous = steps.last, !previous.relationship.isOptional {
                reporter.warning(
                    .unnecessaryOptionalChaining,
                    "'\(previous.relationship.name)' is never nil, so '?.' is not needed",
                    at: component.span)
            }
            let isLast = index == path.components.count - 1
            // SwiftData's identity: `persistentModelID`, and `id` on a model that
            // declares no `id` of its own, are the object itself.
            if isLast, Self.isIdentity(component.name, of: entity, in: schema) {
                return .object(ObjectPath(level: startLevel, steps: steps, entity: entity.name))
            }
            guard let property = schema.property(named: component.name, of: entity) else {
                return reporter.error(
                    .unknownProperty, "value of type '\(entity.name)' has no member '\(component.name)'",
                    at: component.span, notes: unknownPropertyNotes(component.name, of: entity))
            }
            switch property {
            case .computed(let computed):
                return reporter.error(
                    .computedProperty,
                    "'\(computed.name)' is a computed property of '\(entity.name)'; only stored properties can be queried",
                    at: component.span, notes: Self.computedNotes(computed))
            case .attribute(let attribute) where attribute.isTransient:
                return reporter.error(
                    .transientProperty,
                    "'\(attribute.name)' is a transient property of '\(entity.name)'; it is never stored, so it cannot be queried",
                    at: component.span,
                    notes: [DiagnosticNote("@Transient properties live only in memory, in the objects an app has loaded")])
            case .attribute(let attribute):
                guard isLast else {
                    let next = path.components[index + 1]
                    // `format.rawValue`: the enum's stored raw value, an Int or a String,
                    // as Swift spells it (`$0.format.rawValue == "hc"`).
                    if next.name == "rawValue", case .named(let typeName) = attribute.type,
                        let enumType = schema.enumType(named: typeName)
                    {
                        var raw = attribute
                        raw.type = enumType.rawType == .int ? .integer(bits: 64) : .string
                        guard index + 2 < path.components.count else {
                            return .attribute(
                                AttributePath(level: startLevel, steps: steps, entity: entity.name, attribute: raw))
                        }
                        // `format.rawValue.count`: a member of the stored raw value.
                        let member = path.components[index + 2]
                        return reporter.error(
                            .invalidMemberAccess, "value of type '\(raw.type)' has no member '\(member.name)'",
                            at: member.span,
                            notes: [
                                DiagnosticNote(
                                    "'\(attribute.name).rawValue' is the stored \(raw.type) of '\(attribute.name)', not a relationship")
                            ])
                    }
                    if index + 2 == path.components.count, let field = compositeField(next.name, of: attribute) {
                        // A field of a Codable struct, a column of its own in Core Data's layout
                        // (`author.person`); the mapping names it by that path.
                        return .attribute(
                            AttributePath(level: startLevel, steps: steps, entity: entity.name, attribute: field))
                    }
                    var note = "'\(attribute.name)' is an attribute of '\(entity.name)', not a relationship"
                    if case .named(let typeName) = attribute.type, let composite = schema.composite(named: typeName) {
                        let fields = composite.fields.map(\.name).joined(separator: ", ")
                        note = "the Codable struct '\(typeName)' has the fields \(fields), each compared on its own"
                    } else if case .named(let typeName) = attribute.type, schema.enumType(named: typeName) != nil {
                        note = "'\(typeName)' is an enum; its stored raw value is '\(attribute.name).rawValue'"
                    }
                    return reporter.error(
                        .invalidMemberAccess,
                        "value of type '\(attribute.type)' has no member '\(next.name)'",
                        at: next.span, notes: [DiagnosticNote(note)])
                }
                return .attribute(AttributePath(level: startLevel, steps: steps, entity: entity.name, attribute: attribute))
            case .relationship(let relationship):
                guard let destination = schema.entity(named: relationship.destination) else {
                    return reporter.error(
                        .unknownEntity,
                        "relationship '\(relationship.name)' points to unknown entity '\(relationship.destination)'",
                        at: component.span)
                }
                let step = RelationshipStep(source: entity.name, relationship: relationship)
                if relationship.isToMany {
                    return .collection(
                        level: startLevel, steps: steps, relationship: step, element: destination,
                        remaining: Array(path.components[(index + 1)...]))
                }
                steps.append(step)
                entity = destination
            }
        }
        return .object(ObjectPath(level: startLevel, steps: steps, entity: entity.name))
    }

    /// The field `name` of a Codable-struct attribute, as an attribute named by its
    /// path (`author.person`), optional when the struct is.
    private func compositeField(_ name: String, of attribute: Attribute) -> Attribute? {
        guard case .named(let typeName) = attribute.type, let composite = schema.composite(named: typeName),
            var field = composite.fields.first(where: { $0.name == name })
        else { return nil }
        field.name = attribute.name + "." + field.name
        field.isOptional = field.isOptional || attribute.isOptional
        field.originalName = nil
        return field
    }

    /// Whether `name` names the object's identity: `persistentModelID`, or `id` where
    /// the entity (with its ancestors) declares no property of that name.
    static func isIdentity(_ name: String, of entity: Entity, in schema: Schema) -> Bool {
        name == "persistentModelID" || (name == "id" && schema.property(named: "id", of: entity) == nil)
    }

    private func resolveEnumConstant(_ enumType: EnumType, _ component: PathComponent, reporter: inout Reporter) -> PathTarget? {
        guard let enumCase = enumType.enumCase(named: component.name) else {
            return reporter.error(
                .unknownEnumCase, "type '\(enumType.name)' has no member '\(component.name)'",
                at: component.span, notes: Self.enumCaseNotes(enumType, near: component.name))
        }
        return .enumConstant(enumType, enumCase)
    }

    /// A did-you-mean, or the renamed attribute whose stored (original) name this is.
    private func unknownPropertyNotes(_ name: String, of entity: Entity) -> [DiagnosticNote] {
        let properties = schema.allProperties(of: entity)
        for case .attribute(let attribute) in properties where attribute.originalName == name {
            return [
                DiagnosticNote(
                    "'\(name)' is the stored name of '\(attribute.name)', which was renamed; query '\(attribute.name)'")
            ]
        }
        return NameSuggestion.note(for: name, among: properties.map(\.name)).map { [$0] } ?? []
    }

    static func computedNotes(_ computed: ComputedProperty) -> [DiagnosticNote] {
        let names = computed.dependencies.map { "'\($0)'" }
        switch names.count {
        case 0:
            return [DiagnosticNote("computed properties are not stored, so the store cannot filter on them")]
        case 1:
            return [
                DiagnosticNote("'\(computed.name)' is computed from the stored property \(names[0]); query \(names[0]) instead")
            ]
        default:
            let list = names.dropLast().joined(separator: ", ") + " and " + (names.last ?? "")
            return [DiagnosticNote("'\(computed.name)' is computed from the stored properties \(list); query those instead")]
        }
    }

    static func enumCaseNotes(_ enumType: EnumType, near name: String?) -> [DiagnosticNote] {
        var notes: [DiagnosticNote] = []
        if let name, let suggestion = NameSuggestion.note(for: name, among: enumType.cases.map(\.name)) {
            notes.append(suggestion)
        }
        let cases = enumType.cases.map { ".\($0.name) (\($0.rawValue))" }.joined(separator: ", ")
        notes.append(DiagnosticNote("'\(enumType.name)' has the cases \(cases)"))
        return notes
    }
}

/// Collects diagnostics, or drops them when resolving quietly. When the checker
/// already holds as many diagnostics as it reports (`full`), it only counts them,
/// and neither the message nor the notes (a did-you-mean search) are worked out.
struct Reporter {
    var active: Bool
    var full: Bool
    var diagnostics: [Diagnostic] = []
    var omitted = 0

    mutating func error<T>(
        _ code: DiagnosticCode, _ message: @autoclosure () -> String, at span: SourceSpan,
        notes: @autoclosure () -> [DiagnosticNote] = []
    ) -> T? {
        guard active else { return nil }
        if full { omitted += 1 } else { diagnostics.append(.error(code, message(), at: span, notes: notes())) }
        return nil
    }

    mutating func warning(_ code: DiagnosticCode, _ message: @autoclosure () -> String, at span: SourceSpan) {
        guard active else { return }
        if full { omitted += 1 } else { diagnostics.append(.warning(code, message(), at: span)) }
    }
}
