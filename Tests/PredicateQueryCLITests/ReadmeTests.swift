// The README's and the articles' examples are tests: every `$ pq …` line in a
// ```console block of README.md or of an article under Documentation/ is run, and
// what it prints (standard output, then standard error) must be the lines that
// follow it there.

import Foundation
import PredicateQueryTestSupport
import Testing

struct ReadmeTests {
    /// README.md, then every Markdown article under Documentation/, by name, then
    /// every article of the modules' DocC catalogs (`Sources/<Module>/<Module>.docc/`):
    /// the documents whose examples are tests.
    static var documents: [(path: String, text: String)] {
        let root = GoldenFile.repositoryRoot
        func markdown(in folder: String) -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)) ?? [])
                .filter { $0.hasSuffix(".md") }.sorted().map { folder + "/" + $0 }
        }
        let modules = ((try? FileManager.default.contentsOfDirectory(
            atPath: root.appendingPathComponent("Sources").path)) ?? []).sorted()
        let catalogs = modules.flatMap { markdown(in: "Sources/\($0)/\($0).docc") }
        return (["README.md"] + markdown(in: "Documentation") + catalogs).compactMap { path in
            (try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)).map { (path, $0) }
        }
    }

    struct Example: CustomTestStringConvertible {
        var command: String
        var expected: String
        /// The document it is in, as `README.md` or `Documentation/Stores.md`.
        var document = "README.md"
        var testDescription: String { command }
    }

    static var examples: [Example] {
        documents.flatMap { examples(in: $0.text, document: $0.path) }
    }

    static func examples(in text: String, document: String) -> [Example] {
        var examples: [Example] = []
        var inConsole = false
        var current: Example?
        for line in text.components(separatedBy: "\n") {
            if line.hasPrefix("```") {
                if let example = current { examples.append(example) }
                current = nil
                inConsole = line == "```console"
                continue
            }
            guard inConsole else { continue }
            if line.hasPrefix("$ pq ") {
                if let example = current { examples.append(example) }
                current = Example(command: String(line.dropFirst("$ pq ".count)), expected: "", document: document)
            } else if current != nil {
                current?.expected += line + "\n"
            }
        }
        return examples
    }

    /// As many examples as README.md held before its manual moved into
    /// Documentation/ (15): moving text never loses one.
    @Test func theReadmeAndTheArticlesHaveExamples() {
        #expect(Self.documents.count > 1, "Documentation/ is read")
        #expect(Self.examples.count >= 15)
        #expect(Self.examples.contains { $0.document == "README.md" })
        #expect(Self.examples.contains { $0.document.contains(".docc/") }, "the DocC articles are read")
    }

    /// The README is the front door (issue 25): at most 400 lines, the manual in the articles.
    @Test func theReadmeIsShort() throws {
        let readme = try #require(Self.documents.first { $0.path == "README.md" })
        #expect(readme.text.components(separatedBy: "\n").count <= 400)
    }

    @Test("README and article examples print what the document says", arguments: examples)
    func example(_ example: Example) throws {
        let result = try PQProcess.run(CommandLineTests.words(example.command))
        // CSV ends lines with CRLF (RFC 4180); the documents show plain line ends.
        let printed = (result.output + result.error).replacingOccurrences(of: "\r\n", with: "\n")
        #expect(printed == example.expected, "\(example.document)")
    }
}
