// An entity is a value: its properties live in a box that copies share until one
// of them changes (Schema/Entity.swift). A change to one copy must never show in
// another, and equality and hashing must see the properties, not the box.

import Testing

@testable import PredicateQuery

struct EntityTests {
    static let budget = Entity(
        "Budget", attributes: [Attribute("name", .string), Attribute("limit", .double)],
        relationships: [Relationship("transactions", toMany: "Transaction")])

    @Test func changingACopyLeavesTheOriginalAsItWas() {
        let original = Self.budget
        var copy = original
        copy.attributes.append(Attribute("note", .string))
        copy.name = "Plan"
        copy.parent = "Base"
        copy.isAbstract = true
        copy.otherNames["budget_name"] = "name"
        copy.relationships.removeAll()
        copy.computedProperties.append(ComputedProperty("remaining", typeName: "Double"))
        copy.originalName = "OldBudget"

        #expect(original.name == "Budget")
        #expect(original.attributes.map(\.name) == ["name", "limit"])
        #expect(original.relationships.map(\.name) == ["transactions"])
        #expect(original.parent == nil && original.originalName == nil && !original.isAbstract)
        #expect(original.otherNames.isEmpty && original.computedProperties.isEmpty)

        #expect(copy.name == "Plan")
        #expect(copy.attributes.map(\.name) == ["name", "limit", "note"])
        #expect(copy.relationships.isEmpty)
        #expect(copy.parent == "Base" && copy.originalName == "OldBudget" && copy.isAbstract)
        #expect(copy.otherNames == ["budget_name": "name"])
        #expect(copy.storedName == "OldBudget")
        #expect(copy.property(named: "budget_name") == copy.property(named: "name"))
        #expect(original.property(named: "budget_name") == nil)
    }

    @Test func aChangedCopyInAnArrayLeavesTheOtherElementsAlone() {
        var entities = [Self.budget, Self.budget]
        entities[1].attributes[0].name = "title"
        #expect(entities[0].attributes.map(\.name) == ["name", "limit"])
        #expect(entities[1].attributes.map(\.name) == ["title", "limit"])
        #expect(Self.budget.attributes.map(\.name) == ["name", "limit"])
    }

    @Test func equalPropertiesAreEqualWhetherOrNotTheyShareABox() {
        let shared = Self.budget
        let rebuilt = Entity(
            "Budget", attributes: [Attribute("name", .string), Attribute("limit", .double)],
            relationships: [Relationship("transactions", toMany: "Transaction")])
        #expect(shared == Self.budget)
        #expect(rebuilt == Self.budget)
        #expect(rebuilt.hashValue == Self.budget.hashValue)
        #expect(Set([shared, rebuilt]).count == 1)

        var changedBack = Self.budget
        changedBack.isAbstract = true
        #expect(changedBack != Self.budget)
        changedBack.isAbstract = false
        #expect(changedBack == Self.budget)
        #expect(changedBack.hashValue == Self.budget.hashValue)

        var renamed = Self.budget
        renamed.otherNames["x"] = "name"
        #expect(renamed != Self.budget)
    }
}
