// What SwiftData itself gets wrong or crashes on, though pq can run it.
//
// The checker already refuses what no store can evaluate (computed and
// `@Transient` properties, sort keys through a to-many relationship). These
// rules add what is valid pq but not valid SwiftData:
//   - an enum-typed attribute compared as itself: SwiftData stores the raw
//     value and its predicates cannot compare the enum (a run-time crash);
//     compare `.rawValue`;
//   - a member after a to-many relationship (`trip.tags.name`): pq reads it as
//     NSPredicate's implicit ANY, but in Swift the relationship is an array; test
//     its elements with `contains(where:)`.

import PredicateQuery

/// The SwiftData rules over a query that checked.
enum SwiftDataRules {
    static func check(_ query: Query, schema: Schema) -> [Diagnostic] {
        guard let name = query.entity?.text, let entity = schema.entity(named: name), let predicate = query.predicate else {
            return []
        }
        var walker = Walker(schema: schema, variables: [:], root: entity)
        walker.visit(predicate)
        return walker.diagnostics
    }

    struct Walker {
        let schema: Schema
        var variables: [String: Entity]
        let root: Entity
        var diagnostics: [Diagnostic] = []

        /// The entity a path starts from.
        func start(of path: PropertyPath) -> Entity? {
            switch path.root {
            case .object: root
            case .variable(let name): variables[name]
            }
        }

        /// The entity a collection expression's elements are, when it is a to-many path.
        func elements(of expr: Expr) -> Entity? {
            guard case .keyPath(let path) = expr.kind, var entity = start(of: path) else { return nil }
            for component in path.components {
                guard case .relationship(let relationship) = schema.property(named: component.name, of: entity),
                    let next = schema.entity(named: relationship.destination)
                else { return nil }
                entity = next
            }
            return entity
        }

        /// The attribute a path ends at, and whether it went through a to-many relationship.
        mutating func inspect(_ path: PropertyPath) -> Attribute? {
            guard var entity = start(of: path) else { return nil }
            for (position, component) in path.components.enumerated() {
                switch schema.property(named: component.name, of: entity) {
                case .relationship(let relationship):
                    guard let next = schema.entity(named: relationship.destination) else { return nil }
                    if relationship.isToMany, position + 1 < path.components.count {
                        let member = path.components[position + 1]
                        diagnostics.append(
                            .error(
                                .swiftDataToMany,
                                "'\(component.name)' is a to-many relationship: in Swift it is an array with no member '\(member.name)', and SwiftData has no implicit ANY",
                                at: member.span,
                                notes: [
                                    DiagnosticNote("test its elements: \(component.name).contains { $0.\(member.name) == … }")
                                ]))
                        return nil
                    }
                    entity = next
                case .attribute(let attribute):
                    return position + 1 == path.components.count ? attribute : nil
                default:
                    return nil
                }
            }
            return nil
        }

        /// An enum attribute compared as itself.
        mutating func compared(_ expr: Expr) {
            guard case .keyPath(let path) = expr.kind, let attribute = inspect(path), case .named(let type) = attribute.type,
                schema.enumType(named: type) != nil
            else { return }
            diagnostics.append(
                .error(
                    .swiftDataBehaviour,
                    "SwiftData cannot compare the enum '\(attribute.name)' (\(type)) in a predicate: the fetch fails at run time",
                    at: path.span,
                    notes: [
                        DiagnosticNote(
                            "compare its stored raw value: \(path.components.map(\.name).joined(separator: ".")).rawValue")
                    ]))
        }

        mutating func visit(_ expr: Expr) {
            switch expr.kind {
            case .keyPath(let path): _ = inspect(path)
            case .comparison(_, let lhs, let rhs, _):
                for side in [lhs, rhs] {
                    if case .keyPath = side.kind { compared(side) } else { visit(side) }
                }
            case .membership(let element, let collection, _):
                if case .keyPath = element.kind { compared(element) } else { visit(element) }
                visit(collection)
            case .elementTest(_, let collection, let closure), .filter(let collection, let closure):
                visit(collection)
                let saved = variables
                if let entity = elements(of: collection) { variables[closure.variable] = entity }
                visit(closure.body)
                variables = saved
            case .not(let inner), .negate(let inner), .quantified(_, let inner), .isEmpty(let inner):
                visit(inner)
            case .aggregate(_, let inner, _), .member(let inner, _):
                visit(inner)
            case .and(let parts), .or(let parts), .list(let parts), .call(_, let parts):
                parts.forEach { visit($0) }
            case .arithmetic(_, let lhs, let rhs), .stringTest(_, let lhs, let rhs, _), .range(let lhs, let rhs, _),
                .coalesce(let lhs, let rhs):
                visit(lhs)
                visit(rhs)
            case .literal, .enumCase, .parameter, .invalid:
                break
            }
        }
    }
}
