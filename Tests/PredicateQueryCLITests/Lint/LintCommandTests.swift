// `pq lint` over the example SwiftData app (Examples/TripPlanner): its output is
// a golden file (read by hand), every planted mistake — a line after a
// `// Mistake:` comment — has exactly one error on that line, and no other line
// has any; every planted difference from SwiftData — a line after a
// `// Differs:` comment — has exactly one warning, and no other line has any.
// Also `--format json`, `--sql`, and `pq --swift`.

import Foundation
import PredicateQueryTestSupport
import Testing

struct LintCommandTests {
    static let app = "Examples/TripPlanner"
    static let goldenURL = GoldenFile.directory(of: "PredicateQueryCLITests").appendingPathComponent("Lint/TripPlanner.txt")

    func lint(_ extra: [String] = []) throws -> PQResult {
        try PQProcess.run(["lint"] + extra + [Self.app], directory: GoldenFile.repositoryRoot)
    }

    @Test func outputMatchesTheGoldenFile() throws {
        let result = try lint()
        #expect(result.status == 1, "errors exit 1")
        if GoldenFile.isUpdating {
            try result.output.write(to: Self.goldenURL, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOf: Self.goldenURL, encoding: .utf8)
        #expect(result.output == expected)
    }

    /// The (file, line) of each line following a `// Mistake:` (or `marker`) comment in the app.
    static func plantedMistakes(_ marker: String = "// Mistake:") throws -> Set<String> {
        let root = GoldenFile.repositoryRoot.appendingPathComponent(app)
        var planted: Set<String> = []
        let enumerator = FileManager.default.enumerator(atPath: root.path)
        while let relative = enumerator?.nextObject() as? String {
            guard relative.hasSuffix(".swift") else { continue }
            let text = try String(contentsOf: root.appendingPathComponent(relative), encoding: .utf8)
            for (index, line) in text.components(separatedBy: "\n").enumerated() where line.contains(marker) {
                planted.insert("\(app)/\(relative):\(index + 2)")
            }
        }
        return planted
    }

    @Test func everyPlantedMistakeAndNothingElse() throws {
        let planted = try Self.plantedMistakes()
        #expect(planted.count >= 7)
        let errorLines = try lint().output.components(separatedBy: "\n").filter { $0.contains(": error: ") }
        let found = errorLines.map { line in line.split(separator: ":").prefix(2).joined(separator: ":") }
        #expect(Set(found) == planted)
        #expect(found.count == Set(found).count, "one error per mistake")
    }

    @Test func everyPlantedDifferenceAndNothingElse() throws {
        let planted = try Self.plantedMistakes("// Differs:")
        #expect(planted.count >= 3)
        let warningLines = try lint().output.components(separatedBy: "\n").filter { $0.contains(": warning: ") }
        let found = warningLines.map { line in line.split(separator: ":").prefix(2).joined(separator: ":") }
        #expect(Set(found) == planted)
        #expect(found.count == Set(found).count, "one warning per difference")
        // One of each kind.
        let codes = warningLines.compactMap { $0.split(separator: "[").last.map { String($0.dropLast()) } }
        #expect(
            Set(codes) == ["decomposed-string-literal", "nil-inequality", "count-through-optional", "localized-standard-contains"])
    }

    /// pq's own engine sorts Strings differently from SwiftData: true for `pq --swift`, nothing an app
    /// running on SwiftData needs to hear, so only `--engine-differences` prints it.
    @Test func enginesSortDifferencesOnlyWhenAsked() throws {
        let plain = try lint().output
        #expect(!plain.contains("engine-sort-order"))
        let asked = try lint(["--engine-differences"]).output
        #expect(asked.contains("with .localizedStandard by default") && asked.contains("[engine-sort-order]"))
        #expect(asked.contains("pq reads .localizedStandard as a [cd] sort"))
    }

    /// The Xcode projects under the folders are read for their targets (not counted as Swift files); one pq cannot
    /// parse is a note at the line it stopped at.
    @Test func anXcodeProjectIsReadAndOneThatCannotBeParsedIsANote() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pq-lint-xcode-\(UUID().uuidString)")
        let project = folder.appendingPathComponent("App.xcodeproj")
        try FileManager.default.createDirectory(at: project, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try
            "import SwiftData\n@Model final class Item { var title: String = \"\"; init() {} }\nlet ok = #Predicate<Item> { $0.title == \"a\" }\n"
            .write(to: folder.appendingPathComponent("App.swift"), atomically: true, encoding: .utf8)
        try "// !$*UTF8*$!\n{\n\tobjects = {\n\t\tA1 = {isa = PBXNativeTarget; name = App\n\t};\n}\n"
            .write(to: project.appendingPathComponent("project.pbxproj"), atomically: true, encoding: .utf8)
        let text = try PQProcess.run(["lint", folder.path])
        #expect(text.status == 0)
        #expect(text.output.contains("project.pbxproj:5: note: pq cannot read this Xcode project"), "\(text.output)")
        #expect(text.output.contains("[xcode-project-unread]"), "\(text.output)")
        #expect(text.output.contains("1 query in 1 file: 0 errors"), "\(text.output)")
    }

    /// A site whose model type cannot be told is not checked: the summary counts it with its reason,
    /// the JSON report gives the count and each site's reason, and it is no warning.
    @Test func skippedSitesAreCountedNotWarnedAbout() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pq-lint-skipped-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = """
            import SwiftData
            @Model final class Item { var title: String = ""; init() {} }
            func byTitle<T: PersistentModel>() -> SortDescriptor<T> { SortDescriptor<T>(\\.title) }
            let ok = #Predicate<Item> { $0.title == "a" }
            """
        try source.write(to: folder.appendingPathComponent("App.swift"), atomically: true, encoding: .utf8)
        let text = try PQProcess.run(["lint", folder.path])
        #expect(text.status == 0)
        #expect(text.output.contains("2 queries in 1 file: 0 errors, 0 warnings, 1 skipped\n"), "\(text.output)")
        #expect(
            text.output.contains(
                "  1 skipped: 'T' is a generic parameter (of byTitle<T>): its model is known only where that code is used"),
            "\(text.output)")
        let json = try PQProcess.run(["lint", "--format", "json", folder.path])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        #expect(object["skipped"] as? Int == 1)
        #expect(object["warnings"] as? Int == 0)
        let sites = try #require(object["sites"] as? [[String: Any]])
        #expect(sites.compactMap { $0["skipped"] as? String }.count == 1)
    }

    @Test func jsonHasTheSameErrorsWithLocations() throws {
        let text = try lint()
        let result = try lint(["--format", "json"])
        #expect(result.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        let sites = try #require(object["sites"] as? [[String: Any]])
        let diagnostics = sites.flatMap { ($0["diagnostics"] as? [[String: Any]]) ?? [] }
        let errors = diagnostics.filter { $0["severity"] as? String == "error" }
        #expect(errors.count == text.output.components(separatedBy: ": error: ").count - 1)
        #expect(object["errors"] as? Int == errors.count)
        #expect(errors.allSatisfy { ($0["line"] as? Int ?? 0) > 0 && ($0["column"] as? Int ?? 0) > 0 })
    }

    @Test func sqlForEachCheckedQuery() throws {
        let result = try lint(["--sql"])
        let sql = result.output.components(separatedBy: "\n").filter { $0.contains(": note: SQL: SELECT") }
        #expect(sql.count >= 8)
        #expect(sql.contains { $0.contains("ZTRIP") })
    }

    @Test func cleanFilesExitZero() throws {
        let result = try PQProcess.run(["lint", "Examples/TripPlanner/Models"], directory: GoldenFile.repositoryRoot)
        #expect(result.status == 0)
        #expect(result.output.hasSuffix("0 errors, 0 warnings\n"), "\(result.output)")
    }

    @Test func swiftQueryRunsWithCapturedValuesAsParameters() throws {
        let swift = "#Predicate<Budget> { budget in budget.name.localizedStandardContains(search) && budget.limit > 100 }"
        let swiftResult = try PQProcess.run(["--swift", swift, "--param", "search=vac", "--format", "csv"])
        let textResult = try PQProcess.run([
            "Budget where name contains[cd] $search && limit > 100", "--param", "search=vac", "--format", "csv",
        ])
        #expect(swiftResult.status == 0)
        #expect(swiftResult.output == textResult.output)
        #expect(swiftResult.output.contains("Vacation"))
        let check = try PQProcess.run(["--check", "--swift", swift])
        #expect(check.output.contains("  $search: String (a parameter)\n"), "\(check.output)")
        let piped = try PQProcess.run(["--swift", "--format", "csv", "--param", "search=vac"], input: swift)
        #expect(piped.output == swiftResult.output)
    }

    @Test func swiftQueryThatCannotBecomeSQLPointsAtTheCall() throws {
        let result = try PQProcess.run(["--swift", "#Predicate<Budget> { other.evaluate($0) }"])
        #expect(result.status == 1)
        #expect(result.error.hasPrefix("<swift>:1:28: error: 'evaluate' of a captured predicate cannot become SQL"))
    }

    @Test func capturedDateWithAddingTimeIntervalIsADateParameter() throws {
        let swift = "#Predicate<Transaction> { $0.date > start.addingTimeInterval(-7 * 86_400) }"
        let check = try PQProcess.run(["--check", "--swift", swift])
        #expect(check.status == 0, "\(check.error)")
        #expect(check.output.hasPrefix("Transaction where date > $start - 7d\n"), "\(check.output)")
        #expect(check.output.contains("  $start: Date (a parameter)\n"), "\(check.output)")
        // The tree (--dump) shows the date arithmetic the checker made of it.
        let dump = try PQProcess.run(["--dump", "--swift", swift])
        #expect(dump.output.contains("(- (param $start Date) (duration 604800.0) : Date)"), "\(dump.output)")
        // Bound with --param, it finds what the text finds for the date a week earlier.
        let swiftCount = try PQProcess.run(["--swift", swift, "--param", "start=2024-05-08", "--count"])
        let textCount = try PQProcess.run(["Transaction where date > date('2024-05-01')", "--count"])
        #expect(swiftCount.status == 0, "\(swiftCount.error)")
        #expect(swiftCount.output == textCount.output)
        #expect(swiftCount.output != "0\n")
    }
}
