// An optional to-one relationship compared with nil crashed SwiftData on iOS 26 in
// shipped apps; the same app later kept such tests after a test of a stored value,
// noting them tested on iOS 26. A warning that names its evidence, at the
// comparison, where no test of a stored value comes before it: alone, first in an
// `&&` chain, inside `||`. None after such a test, for an optional attribute, or
// once the test is taken out of the predicate. The rule's former id still works.

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

    @Test func aNilTestNoStoredValueTestLeadsIsAWarning() {
        for (body, flagged) in [
            ("$0.toUser == nil", "$0.toUser == nil"),
            ("$0.toUser == nil && $0.channel == channel", "$0.toUser == nil"),
            ("$0.toUser != nil || $0.channel > 3", "$0.toUser != nil"),
            ("$0.channel > 3 || $0.toUser != nil", "$0.toUser != nil"),
            ("nil == $0.toUser", "nil == $0.toUser"),
            ("$0.fromUser.team == nil && $0.channel == channel", "$0.fromUser.team == nil"),
            ("!($0.toUser == nil)", "($0.toUser == nil)"),
            ("$0.replies.contains { $0.toUser == nil && $0.channel == 1 }", "$0.toUser == nil"),
            // Inside `||`, even after a test of a stored value: nothing shows an alternative safe.
            ("($0.channel == channel && $0.toUser == nil) || $0.channel == 0", "$0.toUser == nil"),
        ] {
            let found = nilTests("func f(channel: Int) { let p = #Predicate<Message> { \(body) } }")
            #expect(found.map(\.text) == [flagged], "\(body)")
            #expect(found.allSatisfy { $0.diagnostic.severity == .warning })
        }
    }

    @Test func aNilTestAfterATestOfAStoredValueIsNotFlagged() {
        for body in [
            "$0.channel == channel && $0.toUser == nil",  // the shape that app ships, tested on iOS 26
            "$0.channel == channel && nil == $0.toUser",
            "$0.text != nil && $0.toUser == nil",  // an optional attribute's test is a stored value's
            "$0.fromUser.name == \"x\" && $0.toUser != nil",  // a stored value reached through a relationship
            "($0.channel == channel && $0.text == nil) && $0.toUser == nil",  // led inside a nested chain
            "$0.channel == channel && $0.text == nil",  // an optional attribute, not a relationship
            "$0.channel == channel",  // the fix: the nil test moved out of the predicate
            "$0.channel == channel && $0.toUser?.name == \"x\"",  // through the relationship, not the relationship
            "if let user = $0.toUser { user.name == \"x\" } else { $0.channel == channel }",  // no nil test written
        ] {
            #expect(nilTests("func f(channel: Int) { let p = #Predicate<Message> { \(body) } }").isEmpty, "\(body)")
        }
    }

    @Test func theWarningNamesItsEvidence() throws {
        let found = nilTests("func f(channel: Int) { let p = #Predicate<Message> { $0.toUser == nil && $0.channel == channel } }")
        let diagnostic = try #require(found.first?.diagnostic)
        #expect(diagnostic.message.contains("'toUser'") && diagnostic.message.contains("iOS 26"))
        #expect(diagnostic.notes.contains { $0.message.contains("Meshtastic-Apple#1900") && $0.message.contains("crash reports") })
        #expect(diagnostic.notes.contains { $0.message.contains("put a test of a stored value first") })
    }

    @Test func theFormerIdStillNamesTheRule() throws {
        let rule = try #require(LintRuleCatalog.rule(id: "relationship-nil-test-in-compound"))
        #expect(rule.id == "relationship-nil-test")
        #expect(LintRuleCatalog.currentID("relationship-nil-test-in-compound") == "relationship-nil-test")
        #expect(LintRuleCatalog.currentID("no-such-rule") == "no-such-rule")
        // A suppression written with the former id still hides the finding.
        let source = """
            func f() {
                // pq-lint:disable:next relationship-nil-test-in-compound
                let p = #Predicate<Message> { $0.toUser == nil }
            }
            """
        let run = LintRun([Self.models, SwiftModelSource.File(path: "Views/Channel.swift", text: source)])
        #expect(run.suppressed == 1)
        #expect(run.findings.filter { $0.rule == "relationship-nil-test" }.isEmpty, "\(run.findings.map(\.message))")
        #expect(run.findings.filter { $0.rule == "superfluous-disable" }.isEmpty, "\(run.findings.map(\.message))")
    }
}
