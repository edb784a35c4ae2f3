// `localizedStandardContains` in a #Predicate: SwiftData runs it as a test in its
// store, which an app's maintainers reported missing text Swift's String finds. A
// warning that names its evidence, at the method's name; the other string tests,
// and the same folding written another way, are not flagged.

import PredicateQuery
import PredicateQueryModels
import Testing

struct LocalizedStandardContainsRuleTests {
    static let models = SwiftModelSource.File(
        path: "Model/Message.swift",
        text: """
            import SwiftData

            @Model final class Message {
                var text: String
                var translation: String?
                var channel: Int = 0
                init(text: String) { self.text = text }
            }
            """)

    static func findings(_ source: String) -> [(diagnostic: Diagnostic, text: String)] {
        LintedSite.findings(source, at: "Search.swift", models: Self.models)
            .filter { $0.diagnostic.code == .swiftLocalizedStandardContains }
    }

    @Test func theCallIsWarnedAboutAtTheMethodsName() throws {
        let found = Self.findings(
            """
            func matches(_ search: String, in channel: Int) -> Predicate<Message> {
                #Predicate<Message> { $0.channel == channel && $0.text.localizedStandardContains(search) }
            }
            """)
        try #require(found.count == 1)
        let warning = try #require(found.first)
        #expect(warning.text == "localizedStandardContains")
        #expect(warning.diagnostic.severity == .warning)
        #expect(warning.diagnostic.notes.contains { $0.message.contains("meshtastic/Meshtastic-Apple") })
        #expect(warning.diagnostic.notes.contains { $0.message.contains("filter the objects") })
    }

    @Test func eachCallIsWarnedAboutOnceThroughAnOptionalToo() {
        let found = Self.findings(
            """
            let search = "ß"
            let p = #Predicate<Message> {
                $0.text.localizedStandardContains(search) || ($0.translation?.localizedStandardContains(search) ?? false)
            }
            """)
        #expect(found.map(\.text) == ["localizedStandardContains", "localizedStandardContains"])
    }

    @Test(arguments: [
        "let p = #Predicate<Message> { $0.text.contains(\"a\") }",
        "let p = #Predicate<Message> { $0.text.localizedCaseInsensitiveContains(\"a\") }",
        "let p = #Predicate<Message> { $0.text.starts(with: \"a\") }",
        // The same folding, in pq's own spelling: not what SwiftData was reported to get wrong.
        "let p = #Predicate<Message> { $0.text.range(of: \"a\", options: [.caseInsensitive, .diacriticInsensitive]) != nil }",
        // The name in a string is no call.
        "let p = #Predicate<Message> { $0.text == \"localizedStandardContains\" }",
        "let p = #Predicate<Message> { $0.text.range(of: \".localizedStandardContains(\", options: [.caseInsensitive, .diacriticInsensitive]) != nil }",
        "let p = #Predicate<Message> { $0.text.range(of: \"localizedStandardContains\", options: [.caseInsensitive, .diacriticInsensitive]) != nil }",
    ])
    func otherStringTestsAreNotFlagged(_ source: String) {
        #expect(Self.findings(source).isEmpty, "\(source)")
    }

    @Test func aCallInAnEvaluatedPredicateIsWarnedAboutWhereItIsWritten() {
        let source = """
            func both(_ search: String) -> Predicate<Message> {
                let found = #Predicate<Message> { $0.text.localizedStandardContains(search) }
                return #Predicate<Message> { found.evaluate($0) && $0.channel == 1 }
            }
            """
        let found = Self.findings(source)
        #expect(!found.isEmpty)
        #expect(found.allSatisfy { $0.text == "localizedStandardContains" })
    }
}
