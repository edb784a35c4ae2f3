// A key path that goes on past a stored value (`entry.profile?.id.uuidString`)
// compiles in Swift, and SwiftData traps on it in the fetch. In a Swift site the
// checker's "has no member" (true only of pq's language) is restated as that:
// an error at the member, with the evidence, and none once the site compares the
// stored value itself (the fix a shipped app made).

import PredicateQuery
import PredicateQueryModels
import Testing

struct StoredValueMemberRuleTests {
    static let models = SwiftModelSource.File(
        path: "Models/Models.swift",
        text: """
            import Foundation
            import SwiftData

            enum Mood: String, Codable { case calm, busy }
            struct Place: Codable { var city: String; var code: String }

            @Model final class Profile {
                var id: UUID
                var name: String
                init(name: String) { self.id = UUID(); self.name = name }
            }

            @Model final class Entry {
                var note: String
                var when: Date
                var mood: Mood
                var place: Place
                var profile: Profile?
                init(note: String) { self.note = note; when = Date(); mood = .calm; place = Place(city: "", code: ""); }
            }
            """)

    func findings(_ body: String) -> [(severity: Severity, text: String, message: String)] {
        LintedSite.findings(
            "func f(userID: String, id: UUID) { let p = #Predicate<Entry> { entry in \(body) } }", at: "Views/List.swift",
            models: Self.models
        )
        .filter { $0.diagnostic.code == .swiftStoredValueMember }
        .map { ($0.diagnostic.severity, $0.text, $0.diagnostic.message) }
    }

    @Test func aMemberOfAStoredValueIsAnErrorThatSaysWhatSwiftDataDoes() {
        let found = findings("entry.profile?.id.uuidString == userID")
        #expect(found.map(\.severity) == [.error])
        #expect(found.map(\.text) == ["uuidString"])
        #expect(
            found.first?.message
                == "SwiftData cannot follow a key path past a stored UUID value into its member 'uuidString': the fetch traps")
        #expect(findings("entry.note.capitalized == userID").map(\.text) == ["capitalized"])
        #expect(findings("entry.when.timeIntervalSince1970 > 0").map(\.text) == ["timeIntervalSince1970"])
        // Past an enum's raw value, which is what SwiftData stores.
        #expect(findings("entry.mood.rawValue.capitalized == userID").map(\.text) == ["capitalized"])
    }

    @Test func aMemberTheAppsOwnTypeDoesNotDeclareStaysUnknown() {
        // Swift may well not compile these: they keep the checker's wording, under unknown-property.
        for body in ["entry.place.cty == userID", "entry.mood.label == userID"] {
            #expect(findings(body).isEmpty, "\(body)")
            let codes = LintedSite.findings(
                "func f(userID: String) { let p = #Predicate<Entry> { entry in \(body) } }", at: "Views/List.swift",
                models: Self.models
            ).map(\.diagnostic.code)
            #expect(codes == [.invalidMemberAccess], "\(body)")
            #expect(codes.map { LintRuleCatalog.rule(for: $0).id } == ["unknown-property"], "\(body)")
        }
    }

    @Test func theStoredValueItselfARawValueAndAStructsFieldAreFine() {
        for body in [
            "entry.profile?.id == id", "entry.note == userID", "entry.mood.rawValue == userID", "entry.place.city == userID",
        ] {
            #expect(findings(body).isEmpty, "\(body)")
        }
    }

    @Test func theDiagnosticCarriesItsEvidenceAndTheFix() throws {
        let finding = try #require(
            LintedSite.findings(
                "func f(userID: String) { let p = #Predicate<Entry> { $0.profile?.id.uuidString == userID } }",
                at: "Views/List.swift", models: Self.models
            ).first { $0.diagnostic.code == .swiftStoredValueMember })
        let notes = finding.diagnostic.notes.map(\.message)
        #expect(notes.contains { $0.hasPrefix("evidence: SwiftData's fatal error") })
        #expect(notes.contains { $0.contains("UUID(uuidString:") })
        // The UUID advice only where the value is a UUID.
        let other = LintedSite.findings(
            "func f(t: String) { let p = #Predicate<Entry> { $0.note.capitalized == t } }", at: "Views/List.swift",
            models: Self.models
        ).first { $0.diagnostic.code == .swiftStoredValueMember }
        #expect(other?.diagnostic.notes.contains { $0.message.contains("UUID") && !$0.message.hasPrefix("evidence") } == false)
        #expect(!notes.contains { $0.hasSuffix("not a relationship") })
        #expect(LintRuleCatalog.rule(for: finding.diagnostic.code).id == "stored-value-member")
    }
}
