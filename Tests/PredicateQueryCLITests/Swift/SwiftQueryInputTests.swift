// `pq --swift ARGUMENT`: the predicate itself, or the path of a .swift file
// holding it. A path that names no file is an error about the file, not a
// predicate read from the path's letters.

import Foundation
import Testing

struct SwiftQueryInputTests {
    @Test(arguments: ["nonexistent.swift", "./dir/nonexistent.swift", "Filters/Trip+Search.swift"])
    func aMissingSwiftFileIsReportedAsMissing(_ path: String) throws {
        let result = try PQProcess.run(["--swift", path])
        #expect(result.status == 2, "\(result)")
        #expect(result.output.isEmpty)
        #expect(
            result.error == "pq: no file at '\(path)' (--swift reads a .swift file or takes the predicate itself)\n",
            "\(result.error)")
    }

    @Test func sourceEndingInDotSwiftIsSourceStill() throws {
        let result = try PQProcess.run(["--swift", "#Predicate<Snippet> { $0.language == .swift }", "--count"])
        #expect(result.status == 0, "\(result.error)")
        #expect(Int(result.output.trimmingCharacters(in: .whitespacesAndNewlines)).map { $0 > 0 } == true, "\(result)")
    }

    @Test func anExistingSwiftFileIsRead() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pq-swift-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("Filter.swift")
        try "#Predicate<Budget> { $0.limit > 100 && $0.name.contains(\"Vac\") }".write(
            to: file, atomically: true, encoding: .utf8)
        let fromFile = try PQProcess.run(["--swift", file.path, "--count"])
        let written = try PQProcess.run(["Budget where limit > 100 && name contains 'Vac'", "--count"])
        #expect(fromFile.status == 0, "\(fromFile.error)")
        #expect(fromFile.output == written.output && !written.output.isEmpty, "\(fromFile) \(written)")
    }
}
