// Random object graphs that conform to a schema: every attribute a value of its
// type (nil for about a quarter of the optional ones), unique attributes unique,
// to-one links sometimes nil, to-many collections empty, small or large.

import Foundation
import PredicateQuery
import PredicateQueryTestSupport

/// Random object graphs of a schema, the same for the same seed.
public struct RandomGraphGenerator {
    /// The schema the graphs conform to.
    public let schema: Schema
    /// Where every choice comes from.
    public var random: SplitMix64

    /// Graphs of `schema`, drawn from `seed`.
    public init(schema: Schema, seed: UInt64) {
        self.schema = schema
        random = SplitMix64(seed: seed)
    }

    private mutating func int(_ range: ClosedRange<Int>) -> Int { random.int(range) }
    private mutating func chance(_ percent: Int) -> Bool { random.chance(percent) }
    private mutating func pick<T>(_ items: [T]) -> T { random.pick(items) }

    /// A new graph with `objectsPerEntity` objects of each entity, linked at random.
    public mutating func graph(objectsPerEntity: ClosedRange<Int> = 8...40) -> ObjectGraph {
        var graph = ObjectGraph(schema: schema)
        for entity in schema.entities {
            for index in 0..<int(objectsPerEntity) {
                var values: [String: Value] = [:]
                for attribute in entity.attributes where !attribute.isTransient {
                    values[attribute.name] = value(for: attribute, index: index)
                }
                graph.insert(entity.name, values)
            }
        }
        for entity in schema.entities {
            for relationship in entity.relationships {
                link(relationship, of: entity, in: &graph)
            }
        }
        return graph
    }

    private mutating func link(_ relationship: Relationship, of entity: Entity, in graph: inout ObjectGraph) {
        let sources = graph.objectsByEntity[entity.name] ?? []
        let destinations = graph.objects(of: relationship.destination)
        guard !destinations.isEmpty else { return }
        if !relationship.isToMany {
            for source in sources where chance(80) {
                graph.link(source, relationship.name, to: pick(destinations))
            }
            return
        }
        // A to-many whose inverse is to-one is filled from the to-one side.
        if let inverse = relationship.inverse,
            let destination = schema.entity(named: relationship.destination),
            case .relationship(let back)? = schema.property(named: inverse, of: destination), !back.isToMany
        {
            return
        }
        for source in sources {
            let count = chance(25) ? 0 : (chance(15) ? int(5...destinations.count) : int(1...min(4, destinations.count)))
            for _ in 0..<count { graph.link(source, relationship.name, to: pick(destinations)) }
        }
    }

    private mutating func value(for attribute: Attribute, index: Int) -> Value {
        if attribute.isOptional, chance(25) { return .null }
        if attribute.isUnique {
            // Unique values: a pool value for the first objects, then numbered ones.
            return index < ValuePools.strings.count ? .string(ValuePools.strings[index]) : .string("unique-\(index)")
        }
        switch attribute.type {
        case .bool: return .bool(chance(50))
        case .integer: return .int(pick(ValuePools.integers))
        case .double, .float, .decimal: return .double(pick(ValuePools.storedDoubles))
        case .string, .url: return .string(pick(chance(15) ? ValuePools.hardStrings : ValuePools.strings))
        case .date: return .date(pick(ValuePools.dates))
        case .uuid: return .uuid(pick(ValuePools.uuids))
        case .data, .transformable: return .data(pick(ValuePools.data))
        case .named(let name):
            if let enumType = schema.enumType(named: name), let enumCase = enumType.cases.randomElement(using: &random) {
                switch enumCase.rawValue {
                case .int(let raw): return .int(raw)
                case .string(let raw): return .string(raw)
                }
            }
            return .data(pick(ValuePools.data))
        }
    }
}
