// End-to-end tests of the `pq` binary: one-shot queries in every format, --sql,
// --check, errors and exit codes (golden file Golden/CommandLine.txt), a piped
// session compared with its transcript, model files read and used, and a store
// opened read-only left byte-identical.

import Foundation
import PredicateQuery
import PredicateQueryExamples
import PredicateQuerySQLite
import PredicateQueryTestSupport
import Testing

struct CommandLineTests {
    /// Splits a golden command line into arguments: spaces separate, '…' and "…" quote.
    static func words(_ line: String) -> [String] {
        var words: [String] = []
        var current = ""
        var quote: Character?
        var inWord = false
        for character in line {
            if let open = quote {
                if character == open { quote = nil } else { current.append(character) }
            } else if character == "'" || character == "\"" {
                quote = character
                inWord = true
            } else if character == " " {
                if inWord { words.append(current) }
                current = ""
                inWord = false
            } else {
                current.append(character)
                inWord = true
            }
        }
        if inWord { words.append(current) }
        return words
    }

    /// What a golden case compares: the exit status, standard output and standard error.
    static func transcript(_ result: PQResult) -> String {
        var text = "exit \(result.status)\n" + result.output
        if !result.error.isEmpty { text += "stderr:\n" + result.error }
        return text.trimmingCharacters(in: .newlines)
    }

    @Test("one-shot commands print what the golden file says")
    func oneShotCommands() throws {
        let file = "CommandLine.txt"
        let cases = GoldenFile.cases(file, target: "PredicateQueryCLITests")
        #expect(cases.count >= 20)
        var outputs: [Int: String] = [:]
        for golden in cases {
            let result = try PQProcess.run(Self.words(golden.input))
            let actual = Self.transcript(result)
            outputs[golden.line] = actual
            if !GoldenFile.isUpdating { #expect(actual == golden.expected, "\(golden.testDescription)") }
        }
        if GoldenFile.isUpdating { GoldenFile.update(file, target: "PredicateQueryCLITests", outputs: outputs) }
    }

    @Test("a piped session matches its transcript")
    func pipedSession() throws {
        let directory = GoldenFile.directory(of: "PredicateQueryCLITests").appendingPathComponent("Transcripts")
        let input = try String(contentsOf: directory.appendingPathComponent("session.pq"), encoding: .utf8)
        let result = try PQProcess.run([], input: input)
        let actual = Self.transcript(result) + "\n"
        let expectedURL = directory.appendingPathComponent("session.out")
        if GoldenFile.isUpdating {
            try actual.write(to: expectedURL, atomically: true, encoding: .utf8)
        } else {
            #expect(actual == (try String(contentsOf: expectedURL, encoding: .utf8)))
        }
    }

    @Test func modelFilesAreReadAndUsed() throws {
        // A Core Data layout store without pq's schema table, described by the example model files.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pq-model-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("Movies.sqlite").path
        do {
            let store = try SQLiteStore.create(at: path, schema: ExampleSchemas.movies)
            var graph = ObjectGraph(schema: ExampleSchemas.movies)
            graph.insert("Movie", ["name": .string("Toy Story"), "genre": .int(2)])
            graph.insert("Movie", ["name": .string("Alien"), "genre": .int(3)])
            try store.insert(graph)
            try store.execute("DROP TABLE PQ_SCHEMA")
        }
        let models = GoldenFile.repositoryRoot.appendingPathComponent("Examples/Models/Movies").path
        let result = try PQProcess.run(["--store", path, "--model", models, "--format", "csv", "genre == .kids"])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output == "#,name,genre\r\n1,Toy Story,kids\r\n")
        // With no model, the model is inferred from the tables: genre is a number there.
        let without = try PQProcess.run(["--store", path, "--format", "csv", "genre == 2"])
        #expect(without.status == 0, "\(without.error)")
        #expect(without.output.contains("Toy Story") && !without.output.contains("Alien"), "\(without.output)")
        let workaround = GoldenFile.repositoryRoot.appendingPathComponent("Examples/Models/MoviesWorkaround").path
        let mismatch = try PQProcess.run(["--store", path, "--model", workaround, "genreId == 2"])
        #expect(mismatch.status == 2)
        #expect(mismatch.error.contains("does not match"), "\(mismatch.error)")
    }

    @Test func readOnlyStoresAreLeftByteIdentical() throws {
        let path = try PQProcess.run(["--store-path"]).output.trimmingCharacters(in: .newlines)
        _ = try PQProcess.run(["limit > 100"])
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        for arguments in [["limit > 100"], ["--count", "any tags.name == 'swift'"], ["--sql", "--explain", "genre == .kids"]] {
            _ = try PQProcess.run(["--store", path] + arguments)
        }
        _ = try PQProcess.run(["--store", path], input: ".schema\n.entities\nBudget sort by name limit 2\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test func theExampleStoreIsCreatedQuickly() throws {
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("pq-fresh-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        let clock = ContinuousClock()
        var result = PQResult(status: -1, output: "", error: "")
        let elapsed = try clock.measure {
            result = try PQProcess.run(["--count", "Budget"], environment: ["PQ_CACHE_DIR": cache.path])
        }
        #expect(result.status == 0)
        #expect(result.output == "308\n")
        #expect(elapsed < .seconds(10), "first run took \(elapsed)")
    }
}

struct OutputFormatTests {
    @Test func jsonOutputIsValidJSON() throws {
        let result = try PQProcess.run(["--format", "json", "Snippet where notes != '' sort by creationDate limit 5"])
        #expect(result.status == 0)
        let parsed = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: Any]]
        #expect(parsed?.count == 5)
        #expect(parsed?.first?["language"] as? String != nil)
        let empty = try PQProcess.run(["--format", "json", "Budget where limit < 0"])
        #expect(empty.output == "[]\n")
    }

    @Test func csvQuotesWhatNeedsQuoting() throws {
        let result = try PQProcess.run(["--format", "csv", "Snippet where code contains '\"'"])
        #expect(result.status == 0)
        #expect(result.output.contains("\"print(\"\"Hello\"\")\""))
        #expect(result.output.contains("\"let greeting = \"\"Hallo, Straße\"\"\""))
    }
}
