// A rewrite pq suggests must itself be right. Over every invalid query of the
// checker's golden files: a "did you mean 'x'?" note, put in place of what the error
// points at, must make that error go away; a "write 'query' instead" note must name
// a query that checks. (pq once suggested `any tags == …`, which failed too.)

import Foundation
import PredicateQueryExamples
import PredicateQueryTestSupport
import Testing

@testable import PredicateQuery

struct SuggestedRewriteTests {
    private static func diagnostics(_ text: String, entity: String?, schema: Schema) -> [Diagnostic] {
        let parsed = Parser.parse(text)
        guard let query = parsed.query else { return parsed.diagnostics }
        return TypeChecker.check(query, schema: schema, defaultEntity: entity).diagnostics
    }

    /// The text between the quotes of `note` after `prefix`, up to `suffix`.
    private static func quoted(in note: String, after prefix: String, before suffix: String) -> String? {
        guard let start = note.range(of: prefix), let end = note.range(of: suffix, range: start.upperBound..<note.endIndex)
        else { return nil }
        return String(note[start.upperBound..<end.lowerBound])
    }

    @Test func everySuggestionInTheGoldenFilesFixesWhatItIsFor() {
        var didYouMean = 0
        var writeInstead = 0
        for file in CheckerGoldenTests.files("invalid") {
            let name = String(file.dropFirst("Checking/".count).prefix { $0 != "." })
            guard let schema = CheckerGoldenTests.schemas[name] else { continue }
            for golden in GoldenFile.cases(file, target: "PredicateQueryTests") {
                let text = golden.input
                for diagnostic in Self.diagnostics(text, entity: golden.entity, schema: schema)
                where diagnostic.severity == .error {
                    for note in diagnostic.notes.map(\.message) {
                        if let name = Self.quoted(in: note, after: "did you mean '", before: "'?") {
                            let bytes = Array(text.utf8)
                            guard diagnostic.span.end <= bytes.count else { continue }
                            let fixed =
                                String(decoding: bytes[..<diagnostic.span.start], as: UTF8.self) + name
                                + String(decoding: bytes[diagnostic.span.end...], as: UTF8.self)
                            let again = Self.diagnostics(fixed, entity: golden.entity, schema: schema)
                            #expect(
                                !again.contains { $0.code == diagnostic.code && $0.span.start == diagnostic.span.start },
                                "\(golden.testDescription): 'did you mean \(name)' leaves the error in \(fixed)")
                            didYouMean += 1
                        }
                        if let rewrite = Self.quoted(in: note, after: "write '", before: "' instead") {
                            let again = Self.diagnostics(rewrite, entity: golden.entity, schema: schema)
                            #expect(
                                !again.containsErrors, "\(golden.testDescription): the suggested '\(rewrite)' does not check")
                            writeInstead += 1
                        }
                    }
                }
            }
        }
        print("suggested rewrites checked: \(didYouMean) did-you-mean, \(writeInstead) write-instead")
        #expect(didYouMean >= 5, "too few suggestions to mean anything: \(didYouMean)")
    }
}
