// `$0.id` on a model that declares no `id` is SwiftData's computed identity, which
// a predicate cannot test: an error at the `id`, and none once the site uses
// `persistentModelID` (the fix real apps made) or the model declares its own `id`.

import PredicateQuery
import PredicateQueryModels
import Testing

struct StoredIdentityRuleTests {
    static let models = SwiftModelSource.File(
        path: "Models/Models.swift",
        text: """
            import SwiftData

            @Model final class Credential {
                var issuer: String
                var holder: Holder?
                var documents: [Document] = []
                init(issuer: String) { self.issuer = issuer }
            }

            @Model final class Holder {
                var name: String
                init(name: String) { self.name = name }
            }

            @Model final class Document {
                var id: UUID
                var title: String
                init(title: String) { self.id = UUID(); self.title = title }
            }
            """)

    /// The rule's diagnostics at the one site in `source` (in a file of its own), with the text each points at.
    func identityErrors(_ source: String) -> [(severity: Severity, text: String)] {
        LintedSite.findings(source, at: "Views/List.swift", models: Self.models)
            .filter { $0.diagnostic.code == .swiftComputedIdentity }
            .map { ($0.diagnostic.severity, $0.text) }
    }

    @Test func idOfAModelThatDeclaresNoneIsAnError() {
        for body in ["$0.id == id", "$0.holder?.id == id", "$0.documents.contains { $0.id == uuid } && $0.id != id"] {
            let found = identityErrors("func f(id: PersistentIdentifier, uuid: UUID) { let p = #Predicate<Credential> { \(body) } }")
            #expect(found.map(\.severity) == [.error], "\(body)")
            #expect(found.map(\.text) == ["id"], "\(body)")
        }
    }

    @Test func persistentModelIDAndADeclaredIdAreFine() {
        for body in [
            "$0.persistentModelID == id", "$0.holder?.persistentModelID == id", "$0.documents.contains { $0.id == uuid }",
        ] {
            let found = identityErrors("func f(id: PersistentIdentifier, uuid: UUID) { let p = #Predicate<Credential> { \(body) } }")
            #expect(found.isEmpty, "\(body)")
        }
        // A declared `id` on the root model itself.
        #expect(identityErrors("func f(uuid: UUID) { let p = #Predicate<Document> { $0.id == uuid } }").isEmpty)
    }

    /// The error names the model and the fix, renders with a caret at `id`.
    @Test func theMessageSaysWhyAndWhatToWriteInstead() throws {
        let source = "func f(id: PersistentIdentifier) { let p = #Predicate<Credential> { $0.id == id } }"
        let file = SwiftModelSource.File(path: "Views/List.swift", text: source)
        let report = SwiftAppLint.lint([Self.models, file])
        let diagnostic = try #require(report.sites.flatMap(\.diagnostics).first { $0.code == .swiftComputedIdentity })
        #expect(diagnostic.message.contains("'Credential' declares no 'id'"))
        #expect(diagnostic.notes.map(\.message).joined().contains("persistentModelID"))
        let rendered = DiagnosticRenderer().render([diagnostic], in: source)
        #expect(rendered.contains("^~"), "\(rendered)")
    }
}
