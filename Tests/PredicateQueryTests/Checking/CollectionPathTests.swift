// Key paths to a to-many relationship in element tests, quantifiers and counts:
// resolved once where the checker can, yet every diagnostic about the path (here
// the '?.' after a to-one that is never nil) reported exactly once, whichever way
// the path is written: directly, through a quantifier, or through two to-many
// relationships, which become nested element tests.

import Testing

@testable import PredicateQuery

struct CollectionPathTests {
    /// `Order.customer` is a to-one that is never nil; a customer has orders, an order has lines.
    static let schema = Schema(entities: [
        Entity(
            "Order", attributes: [Attribute("total", .double)],
            relationships: [
                Relationship("customer", to: "Customer", optional: false, inverse: "orders"),
                Relationship("lines", toMany: "Line", inverse: "order"),
            ]),
        Entity(
            "Customer", attributes: [Attribute("name", .string)],
            relationships: [Relationship("orders", toMany: "Order", inverse: "customer")]),
        Entity(
            "Line", attributes: [Attribute("price", .double)],
            relationships: [Relationship("order", to: "Order", inverse: "lines")]),
    ])

    static func check(_ text: String) throws -> TypeChecker.Result {
        let query = try #require(Parser.parse(text).query, "\(text) does not parse")
        return TypeChecker.check(query, schema: schema)
    }

    static let neverNil = "'customer' is never nil, so '?.' is not needed"

    @Test(
        "a needless '?.' on the way to a collection is reported once",
        arguments: [
            "Order where customer?.orders.contains(where: { $0.total > 5 })",
            "Order where customer?.orders.allSatisfy { $0.total > 5 }",
            "Order where any customer?.orders.total > 5",
            "Order where all customer?.orders.total > 5",
            "Order where customer?.orders.count > 1",
            "Order where customer?.orders.isEmpty",
            // Through two to-many relationships: nested element tests, each part resolved on its own.
            "Order where customer?.orders.lines.contains(where: { $0.price > 1 })",
            "Order where any customer?.orders.lines.price > 1",
        ])
    func needlessOptionalChainingOnce(_ text: String) throws {
        let result = try Self.check(text)
        #expect(result.query != nil, "\(result.diagnostics.map(\.message))")
        let warnings = result.diagnostics.filter { $0.severity == .warning }
        #expect(warnings.map(\.message) == [Self.neverNil], "\(text)")
        // At the member written after '?.': `orders`.
        let questionMark = try #require(text.utf8.firstIndex(of: UInt8(ascii: "?")))
        let member = text.utf8.distance(from: text.utf8.startIndex, to: questionMark) + 2
        #expect(warnings.first?.span == SourceSpan(start: member, end: member + "orders".utf8.count), "\(text)")
    }

    @Test func withoutTheOptionalChainingThereIsNoWarning() throws {
        for text in [
            "Order where customer.orders.contains(where: { $0.total > 5 })",
            "Order where customer.orders.lines.contains(where: { $0.price > 1 })",
            "Order where any customer.orders.lines.price > 1",
        ] {
            let result = try Self.check(text)
            #expect(result.query != nil)
            #expect(result.diagnostics.isEmpty, "\(text): \(result.diagnostics.map(\.message))")
        }
    }

    @Test func nestedElementTestsAreOnePerToManyRelationship() throws {
        let result = try Self.check("Order where customer.orders.lines.contains(where: { $0.price > 1 })")
        let query = try #require(result.query)
        guard case .quantified(.any, let outer, .quantified(.any, let inner, _))? = query.predicate else {
            Issue.record("expected two nested element tests, got \(String(describing: query.predicate))")
            return
        }
        #expect(outer.relationship.relationship.name == "orders")
        #expect(outer.steps.map(\.relationship.name) == ["customer"])
        #expect(inner.relationship.relationship.name == "lines")
        #expect(inner.elementEntity == "Line")
    }

    @Test func aCountThroughTwoToManyRelationshipsIsRefused() throws {
        let result = try Self.check("Order where customer.orders.lines.count > 1")
        #expect(result.query == nil)
        #expect(
            result.diagnostics.map(\.message)
                == ["'count' over a path through more than one to-many relationship is not supported"])
    }

    @Test func aCollectionOperandThatIsNoCollectionIsNamed() throws {
        let attribute = try Self.check("Order where customer.name.contains(where: { $0 == 'x' })")
        #expect(attribute.query == nil)
        #expect(
            attribute.diagnostics.first?.message
                == "'contains(where:)' needs a to-many relationship, but 'name' is of type 'String'")
        let toOne = try Self.check("Order where customer.contains(where: { $0.name == 'x' })")
        #expect(toOne.query == nil)
        #expect(toOne.diagnostics.first?.message == "'contains(where:)' needs a to-many relationship, but 'customer' is to-one")
    }
}
