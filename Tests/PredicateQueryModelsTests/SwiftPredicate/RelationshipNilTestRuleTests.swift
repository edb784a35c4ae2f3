// An optional to-one relationship compared with nil inside a compound predicate
// crashed SwiftData on iOS 26 in shipped apps: a warning that names its evidence,
// at the comparison; none for the same test alone, for an optional attribute, or
// once the test is taken out of the predicate (the fix that app made).

import PredicateQuery
import PredicateQueryModels
import Testing

struct RelationshipNilTestRuleTests {
    static let models = SwiftModelSource.File(
        path: "Model/Message.swift",
        text: """
            import SwiftData

            @Model final class Message {
                var channel: Int
                var text: String?
                var toUser: User?
                var fromUser: User
                var replies: [Message] = []
                init(channel: Int, fromUser: User) { self.channel = channel; self.fromUser = fromUser }
            }

            @Model final class User {
                var name: String
                var team: Team?
                init(name: String) { self.name = name }
            }

            @Model final class Team {
                var name: String
                init(name: String) { self.name = name }
            }
            """)

    /// The rule's diagnostics at the one site in `source`, with the text each points at.
    func nilTests(_ source: String) -> [(diagnostic: Diagnostic, text: String)] {
        LintedSite.findings(source, at: "Views/Channel.swift", models: Self.models)
            .filter { $0.diagnostic.code == .swiftRelationshipNilTest }
    }

    @Test func aNilTestOfAnOptionalToOneInACompoundPredicateIsAWarning() {
        for (body, flagged) in [
            ("$0.channel == channel && $0.toUser == nil", "$0.toUser == nil"),
            ("$0.toUser != nil || $0.channel > 3", "$0.toUser != nil"),
            ("$0.channel == channel && nil == $0.toUser", "nil == $0.toUser"),
            ("$0.channel == channel && $0.fromUser.team == nil", "$0.fromUser.team == nil"),
            ("$0.replies.contains { $0.toUser == nil && $0.channel == 1 }", "$0.toUser == nil"),
        ] {
            let found = nilTests("func f(channel: Int) { let p = #Predicate<Message> { \(body) } }")
            #expect(found.map(\.text) == [flagged], "\(body)")
            #expect(found.allSatisfy { $0.diagnostic.severity == .warning })
        }
    }

    @Test func theFixedFormsAndOtherNilTestsAreNotFlagged() {
        for body in [
            "$0.toUser == nil",  // alone: no report of a crash
            "$0.channel == channel",  // the fix: the nil test moved out of the predicate
            "$0.channel == channel && $0.text == nil",  // an optional attribute, not a relationship
            "$0.channel == channel && $0.toUser?.name == \"x\"",  // through the relationship, not the relationship
            "if let user = $0.toUser { user.name == \"x\" } else { $0.channel == channel }",  // no nil test written
        ] {
            #expect(nilTests("func f(channel: Int) { let p = #Predicate<Message> { \(body) } }").isEmpty, "\(body)")
        }
    }

    @Test func theWarningNamesItsEvidence() throws {
        let found = nilTests("func f(channel: Int) { let p = #Predicate<Message> { $0.channel == channel && $0.toUser == nil } }")
        let diagnostic = try #require(found.first?.diagnostic)
        #expect(diagnostic.message.contains("'toUser'") && diagnostic.message.contains("iOS 26"))
        #expect(diagnostic.notes.contains { $0.message.contains("Meshtastic-Apple#1900") && $0.message.contains("crash reports") })
    }
}
