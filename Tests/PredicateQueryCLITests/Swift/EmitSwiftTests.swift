// `pq --emit swift` prints code that compiles, means what pq means, and that pq
// lint accepts: for every example of the README and the articles under
// Documentation/ (and more forms), the printed
// `#Predicate` and sort descriptors are compiled with `swiftc` against the
// example model classes, evaluated by Foundation over the example data, and
// must select, in order, the rows `pq` prints for the same command; the same
// code, beside the example models' SwiftData sources, lints without an error.

import Foundation
import PredicateQueryTestSupport
import Testing

struct EmitSwiftTests {
    /// Commands beyond the documents', for the forms they do not show.
    static let extraCommands = [
        #"'Transaction where budget?.name contains "Vac" && amount > 3 sort by amount desc'"#,
        #"'Pet where owner.age > 3.5 sort by name'"#,
        #"'Pet where (owner.age ?? 0) > 30 || age % 2 == 0'"#,
        #"'Snippet where folder.newName == "Work" && isFavorite'"#,
        #"'Snippet where language == nil'"#,
        #"'User where pets.@count >= 1 && all pets.age < 10 sort by age desc, name'"#,
        #"'User where children.contains { $0.pets.isEmpty } || name beginswith "P"'"#,
        #"'Budget where transactions.filter { $0.hasReceipt }.count > 1'"#,
        #"'Budget where limit between {100, 1000} && name in ["Rent", "Vacation"]'"#,
        #"'Transaction where date > date("2024-03-05") && amount * 2 > 100 sort by date limit 3'"#,
        #"'Ingredient where none recipes.name == "Pancakes" sort by name'"#,
        // Sort keys through optional to-one relationships (nil first ascending, as in pq).
        #"'Transaction where amount > 3 sort by budget.name, date desc'"#,
        #"'Pet where age >= 0 sort by owner.age desc, name'"#,
        // Dates computed from now() and today() when the code runs.
        #"'Transaction where date < now() - 1d && date >= today() - 36500d sort by date'"#,
    ]

    struct Emitted {
        var command: String
        var source: String
        var model: String
        var hasSortDescriptors: Bool
    }

    @Test func emittedSwiftCompilesMeansWhatPQMeansAndLints() throws {
        let commands = ReadmeTests.examples.map(\.command) + Self.extraCommands
        var emitted: [Emitted] = []
        var refused: [String] = []
        for command in commands {
            var words = CommandLineTests.words(command)
            // Only queries on the example store: `--emit swift` knows the Swift types of
            // its models alone, and a query checked against `--model` files has no rows.
            guard !words.contains("--model") && !words.contains("--store") else { continue }
            words.removeAll { $0 == "--count" || $0 == "--sql" }
            let result = try PQProcess.run(["--emit", "swift"] + words)
            guard result.status == 0 else {
                // What has no Swift form says so, with a caret: never a crash or silence.
                #expect(result.error.contains("error: ") && result.error.contains("^"), "\(command): \(result.error)")
                refused.append(command)
                continue
            }
            let model = try #require(result.output.firstMatch(of: /#Predicate<(\w+)>/)?.output.1, "\(command)\n\(result.output)")
            emitted.append(
                Emitted(
                    command: command, source: result.output, model: String(model),
                    hasSortDescriptors: result.output.contains("let sortDescriptors")))
        }
        #expect(emitted.count >= 15, "only \(emitted.count) commands emitted Swift; refused: \(refused)")
        // Refused only where the query is wrong, or Foundation has no node that means the same.
        let expectedRefusals = ["==[c]", "@sum", "genre < .kids", "sum(transactions", "budget == %@", "Rent lots", "nme Vac"]
        for command in refused {
            #expect(expectedRefusals.contains { command.contains($0) }, "unexpectedly refused: \(command)")
        }
        print("pq --emit swift: \(emitted.count) commands emitted Swift, \(refused.count) refused: \(refused)")

        // Compiled against the example model classes and run over the example data.
        let keys = try runHarness(emitted)
        for (index, item) in emitted.enumerated() {
            var words = CommandLineTests.words(item.command)
            words.removeAll { $0 == "--count" || $0 == "--sql" }
            if let emit = words.firstIndex(of: "--emit") { words.removeSubrange(emit...min(emit + 1, words.count - 1)) }
            let rows = try PQProcess.run(words + ["--format", "csv"])
            let expected = rows.output.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n").dropFirst().map { $0.split(separator: ",").first.map(String.init) ?? "" }
            var got = keys[index] ?? ["(missing)"]
            if let limit = item.source.firstMatch(of: /fetchLimit: (\d+)/).flatMap({ Int($0.output.1) }) {
                let offset = item.source.firstMatch(of: /fetchOffset: (\d+)/).flatMap { Int($0.output.1) } ?? 0
                got = Array(got.dropFirst(offset).prefix(limit))
            }
            #expect(got == expected, "\(item.command)\n\(item.source)")
        }

        // Linted beside the models' SwiftData sources.
        let lintErrors = try lint(emitted)
        for (index, item) in emitted.enumerated() {
            let errors = lintErrors[index] ?? []
            #expect(errors.isEmpty, "\(item.command)\n\(item.source)\n\(errors.joined(separator: "\n"))")
        }
    }

    /// One function per emitted snippet, compiled with the example models; the keys
    /// each selects, in order.
    private func runHarness(_ emitted: [Emitted]) throws -> [Int: [String]] {
        let root = GoldenFile.repositoryRoot
        let build = root.appendingPathComponent(".build/debug")
        var main = """
            import Foundation
            import PredicateQuery
            import PredicateQueryExamples

            let objects = ExampleObjects(ExampleData.graph(fillerPerEntity: 300))
            func keys<M: QueryModel & AnyObject>(_ predicate: Predicate<M>, _ sort: [SortDescriptor<M>]) throws -> [Int64] {
                let all = objects.objects(M.self)
                let ids = Dictionary(uniqueKeysWithValues: all.map { (ObjectIdentifier($0.object), $0.id.key) })
                var selected = try all.map(\\.object).filter { try predicate.evaluate($0) }
                if !sort.isEmpty { selected = selected.sorted(using: sort) }
                return selected.compactMap { ids[ObjectIdentifier($0)] }
            }

            """
        for (index, item) in emitted.enumerated() {
            let body = item.source.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n")
            let sort = item.hasSortDescriptors ? "sortDescriptors" : "[SortDescriptor<\(item.model)>]()"
            main += "func query\(index)() throws -> [Int64] {\n\(body)\n    return try keys(predicate, \(sort))\n}\n"
            main += "print(\"\(index):\", (try? query\(index)())?.map(String.init).joined(separator: \",\") ?? \"threw\")\n"
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pq-emit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = directory.appendingPathComponent("main.swift")
        try main.write(to: source, atomically: true, encoding: .utf8)
        // The modules' object files, as the build's output file map lists them: a folder can hold the
        // object of a source file deleted since, which would not link.
        var objects: [String] = []
        for module in ["PredicateQuery", "PredicateQueryExamples"] {
            let map = build.appendingPathComponent("\(module).build/output-file-map.json")
            let entries = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: map)) as? [String: [String: String]])
            objects += entries.compactMap { source, outputs in source.isEmpty ? nil : outputs["object"] }.sorted()
        }
        let executable = directory.appendingPathComponent("harness")
        let compiled = try PQProcess.capture(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["swiftc", source.path, "-I", build.appendingPathComponent("Modules").path, "-o", executable.path] + objects)
        try #require(compiled.status == 0, "the emitted Swift does not compile:\n\(compiled.error)\n\(main)")
        let run = try PQProcess.capture(executable, [])
        try #require(run.status == 0, "the harness failed: \(run.error)")
        var keys: [Int: [String]] = [:]
        for line in run.output.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, let index = Int(parts[0]) else { continue }
            keys[index] = parts[1].isEmpty ? [] : parts[1].split(separator: ",").map(String.init)
        }
        return keys
    }

    /// `pq lint` on the snippets beside the models' SwiftData sources: the errors of
    /// each snippet, by its index.
    private func lint(_ emitted: [Emitted]) throws -> [Int: [String]] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pq-emit-lint-\(UUID().uuidString)")
        let models = GoldenFile.repositoryRoot.appendingPathComponent("Examples/Models")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for folder in ["Budgets", "Movies", "Recipes", "SnippetBox", "Users"] {
            try FileManager.default.copyItem(at: models.appendingPathComponent(folder), to: directory.appendingPathComponent(folder))
        }
        var text = "import Foundation\nimport SwiftData\n\n"
        var lineRanges: [(Int, ClosedRange<Int>)] = []
        for (index, item) in emitted.enumerated() {
            let first = text.split(separator: "\n", omittingEmptySubsequences: false).count
            text += "func query\(index)() {\n" + item.source.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n") + "\n}\n"
            let last = text.split(separator: "\n", omittingEmptySubsequences: false).count - 1
            lineRanges.append((index, first...last))
        }
        try text.write(to: directory.appendingPathComponent("Queries.swift"), atomically: true, encoding: .utf8)
        let result = try PQProcess.run(["lint", directory.path])
        let summary = result.output + result.error
        let sites = summary.firstMatch(of: /(\d+) quer(y|ies) in/).flatMap { Int($0.output.1) } ?? 0
        #expect(sites >= emitted.count, "lint read \(sites) query sites for \(emitted.count) snippets:\n\(summary)")
        var errors: [Int: [String]] = [:]
        for line in summary.split(separator: "\n") where line.contains("Queries.swift:") && line.contains(": error: ") {
            guard let number = line.firstMatch(of: /Queries\.swift:(\d+):/).flatMap({ Int($0.output.1) }) else { continue }
            if let (index, _) = lineRanges.first(where: { $0.1.contains(number) }) {
                errors[index, default: []].append(String(line))
            }
        }
        return errors
    }
}
