// `count` and `isEmpty` after a relationship, decided with the models
// (`SwiftPredicate.resolveMembers`): after a to-one whose model has such a
// property it is that property, as Swift reads it (the text language writes it
// in backquotes, `partner.\`count\``); after a to-many it is the array's count,
// even when the element model has a `count` property.

import PredicateQuery
import PredicateQueryModels
import Testing

struct SwiftPredicateMembersTests {
    static let schema: Schema = {
        let file = SwiftModelSource.File(
            path: "Models.swift",
            text: """
                @Model final class Team {
                    var name: String
                    var count: Int
                    var partner: Team?
                    var members: [Team] = []
                    init(name: String) { self.name = name; self.count = 0 }
                }
                @Model final class Note {
                    var text: String
                    var team: Team?
                    init(text: String) { self.text = text }
                }
                """)
        return SwiftModelSource.schema(from: [file]).schema
    }()

    func typed(_ swift: String) -> String? {
        guard let query = SwiftPredicate.parse(swift).query else { return nil }
        let resolved = SwiftPredicate.resolveMembers(query, schema: Self.schema)
        return TypeChecker.check(resolved, schema: Self.schema).query?.typedDump
    }

    func typed(text: String) -> String? {
        guard let query = Parser.parse(text).query else { return nil }
        return TypeChecker.check(query, schema: Self.schema).query?.typedDump
    }

    @Test func countAfterAToOneIsThePropertyOfItsModel() throws {
        let swift = try #require(typed("#Predicate<Team> { $0.partner?.count ?? 0 > 3 }"))
        #expect(swift == typed(text: "Team where (partner?.`count` ?? 0) > 3"))
        #expect(swift.contains("(attr partner.count Int)"))
        #expect(typed("#Predicate<Team> { $0.partner!.count > 3 }") == typed(text: "Team where partner.`count` > 3"))
    }

    @Test func countAfterAToManyIsTheNumberOfElements() throws {
        let swift = try #require(typed("#Predicate<Team> { $0.members.count > 3 }"))
        #expect(swift == typed(text: "Team where members.@count > 3"))
        #expect(swift.contains("@count"))
        // Inside a closure over the elements, each element's to-one and to-many are told apart the same way.
        let nested = try #require(
            typed("#Predicate<Team> { $0.members.contains { $0.partner!.count > 1 && $0.members.count > 1 } }"))
        #expect(nested.contains("(attr @1.partner.count Int)"))
        #expect(nested.contains("(@count @2 in @1.members"))
    }

    @Test func countAfterAToOneWithoutSuchPropertyStaysACountTheCheckerRefuses() {
        // Note's `team` is a Team (which has `count`); Team's `partner?.name` is a String, whose count pq does not read.
        #expect(typed("#Predicate<Note> { $0.team!.count > 1 }") == typed(text: "Note where team.`count` > 1"))
        let query = SwiftPredicate.parse("#Predicate<Team> { $0.partner!.name.count > 1 }").query
        let resolved = query.map { SwiftPredicate.resolveMembers($0, schema: Self.schema) }
        #expect(resolved.flatMap { TypeChecker.check($0, schema: Self.schema).query } == nil)
    }
}
