// Other names (a database's SQL names for its tables and columns, see
// `Schema.otherEntityNames` and `Entity.otherNames`): found when no entity or
// property has the name itself, never in place of one that has; checked queries
// name the entity and properties by their own names; the JSON form keeps them.

import Foundation
import Testing

@testable import PredicateQuery

struct OtherNamesTests {
    static var schema: Schema {
        var order = Entity(
            "Order", attributes: [Attribute("placedAt", .date), Attribute("total", .double), Attribute("note", .string)])
        // A column `note_text` read as `note`, and one named like another property.
        order.otherNames = ["placed_at": "placedAt", "note_text": "note", "total": "placedAt"]
        var schema = Schema(entities: [order, Entity("Item", attributes: [Attribute("name", .string)])])
        schema.otherEntityNames = ["orders": "Order", "Item": "Order"]
        return schema
    }

    @Test func anOtherNameFindsWhatHasNoSuchNameItself() throws {
        let schema = Self.schema
        #expect(schema.entity(named: "orders")?.name == "Order")
        let order = try #require(schema.entity(named: "Order"))
        guard case .attribute(let attribute)? = schema.property(named: "placed_at", of: order) else {
            Issue.record("placed_at not found")
            return
        }
        #expect(attribute.name == "placedAt")
        // Own names win: the entity `Item` and the property `total` are themselves.
        #expect(schema.entity(named: "Item")?.name == "Item")
        guard case .attribute(let total)? = schema.property(named: "total", of: order) else {
            Issue.record("total not found")
            return
        }
        #expect(total.name == "total")
    }

    @Test func aQueryByOtherNamesChecksToTheOwnNames() throws {
        let parsed = try #require(Parser.parse("orders where placed_at > date('2024-01-01') && note_text contains 'x'").query)
        let checked = try #require(TypeChecker.check(parsed, schema: Self.schema).query)
        #expect(checked.entity.name == "Order")
        #expect(checked.typedDump.contains("(attr placedAt Date)"), "\(checked.typedDump)")
        #expect(checked.typedDump.contains("(attr note String)"), "\(checked.typedDump)")
    }

    @Test func theJSONFormKeepsThem() throws {
        let decoded = try Schema.fromJSON(try Self.schema.jsonData())
        #expect(decoded == Self.schema)
        #expect(decoded.otherEntityNames["orders"] == "Order")
        #expect(decoded.entity(named: "Order")?.otherNames["placed_at"] == "placedAt")
    }
}
