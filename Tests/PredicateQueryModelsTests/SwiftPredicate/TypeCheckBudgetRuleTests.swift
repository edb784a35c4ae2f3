// A flat `&&`/`||` chain of three or more `==` comparisons with literals, one of an
// optional value, is an error (the app does not build); the shapes measured to
// compile are not flagged. The claim itself is held to the compiler at hand: the
// catalog's triggering shape fails to type-check, and its fix compiles.

import Foundation
import PredicateQuery
import PredicateQueryModels
import Testing

struct TypeCheckBudgetRuleTests {
    static let models = SwiftModelSource.File(
        path: "Model/Monster.swift",
        text: """
            import SwiftData

            @Model final class Monster {
                var p1: Int?
                var p2: Int?
                var p3: Int?
                var n1: Int = 0
                var n2: Int = 0
                var n3: Int = 0
                var s1: String?
                var lair: Lair?
                init() {}
            }

            @Model final class Lair {
                var depth: Int = 0
                init() {}
            }
            """)

    /// The rule's diagnostics at the one site in `body`, with the text each points at.
    func budget(_ body: String) -> [(diagnostic: Diagnostic, text: String)] {
        let source = "func f(one: Int, two: Int, three: Int) -> Predicate<Monster> {\n    #Predicate<Monster> { \(body) }\n}"
        return LintedSite.findings(source, at: "Views/Monsters.swift", models: Self.models)
            .filter { $0.diagnostic.code == .swiftTypeCheckBudget }
    }

    /// Shapes Swift 6.3 fails to type-check (each measured with `swiftc -typecheck`).
    @Test(arguments: [
        ("$0.p1 == 1 && $0.p2 == 2 && $0.p3 == 3", "$0.p1 == 1 && $0.p2 == 2 && $0.p3 == 3"),
        ("($0.p1 == 1) && ($0.p2 == 2) && ($0.p3 == 3)", "($0.p1 == 1) && ($0.p2 == 2) && ($0.p3 == 3)"),
        ("$0.p1 == 1 || $0.p2 == 2 || $0.p3 == 3", "$0.p1 == 1 || $0.p2 == 2 || $0.p3 == 3"),
        ("$0.p1 == 1 && $0.n1 == 2 && $0.n2 == 3", "$0.p1 == 1 && $0.n1 == 2 && $0.n2 == 3"),
        ("$0.p1 == 1 && $0.p2 == 2 && $0.s1 == nil", "$0.p1 == 1 && $0.p2 == 2 && $0.s1 == nil"),
        ("$0.p1 == 1 && $0.p2 == 2 && $0.n1 == 3 && $0.n2 > 4", "$0.p1 == 1 && $0.p2 == 2 && $0.n1 == 3"),
        ("$0.lair?.depth == 1 && $0.n1 == 2 && $0.n2 == 3", "$0.lair?.depth == 1 && $0.n1 == 2 && $0.n2 == 3"),
    ])
    func aChainTheCompilerGivesUpOnIsAnError(_ body: String, _ flagged: String) {
        let found = budget(body)
        #expect(found.map(\.text) == [flagged], "\(body)")
        #expect(found.allSatisfy { $0.diagnostic.severity == .error })
    }

    /// Shapes Swift 6.3 type-checks at once, or that split the chain (not counted).
    @Test(arguments: [
        "$0.p1 == 1 && $0.p2 == 2",
        "$0.p1 != 1 && $0.p2 != 2 && $0.p3 != 3",
        "$0.n1 == 1 && $0.n2 == 2 && $0.n3 == 3",
        "$0.p1 == one && $0.p2 == two && $0.p3 == three",
        "$0.p1 == 1 && $0.p2 == 2 && $0.p3 == three",
        "$0.p1 == 1 && $0.p2 == 2 && $0.n1 > 3",
        "$0.p1 == 1 && $0.p2 == 2 && $0.s1 != nil",
        "$0.n1 == 1 && ($0.p1 == 2 || $0.n2 == 3)",
    ])
    func whatCompilesIsNotFlagged(_ body: String) {
        #expect(budget(body).isEmpty, "\(body)")
    }

    /// A captured predicate the site evaluates is read into the site's tree, but the compiler
    /// type-checks it where it is written: its comparisons do not count toward the site's chain.
    @Test func anEvaluatedPredicatesComparisonsDoNotCount() {
        let source = """
            func f() -> Predicate<Monster> {
                let base = #Predicate<Monster> { $0.p1 == 1 }
                return #Predicate<Monster> { $0.n1 == 3 && $0.n2 == 2 && base.evaluate($0) }
            }
            """
        let file = SwiftModelSource.File(path: "Views/Monsters.swift", text: source)
        let sites = SwiftAppLint.lint([Self.models, file]).sites.filter { $0.file == file.path }
        #expect(sites.count == 2)
        #expect(!sites.flatMap(\.diagnostics).contains { $0.code == .swiftTypeCheckBudget })
    }

    /// The rule's claim, held to the Swift compiler on this machine: the catalog's triggering
    /// shape (over a plain class: Foundation's `#Predicate`, no SwiftData) fails with the
    /// type checker's message, and the fix the rule advises compiles.
    @Test func theCompilerAtHandAgreesWithTheRule() throws {
        let model = """
            import Foundation
            final class Trip {
                var name: String = ""
                var destination: String = ""
                var note: String?
                init() {}
            }

            """
        let literals = model + """
            func rome() -> Predicate<Trip> {
                #Predicate<Trip> { $0.note == "x" && $0.name == "Rome" && $0.destination == "Italy" }
            }
            """
        let captured = model + """
            func rome() -> Predicate<Trip> {
                let note = "x", name = "Rome", place = "Italy"
                return #Predicate<Trip> { $0.note == note && $0.name == name && $0.destination == place }
            }
            """
        let failing = try typecheck(literals)
        #expect(failing.status != 0)
        #expect(failing.output.contains("unable to type-check this expression in reasonable time"), "\(failing.output)")
        let fixed = try typecheck(captured)
        #expect(fixed.status == 0, "\(fixed.output)")
    }

    /// `swiftc -typecheck` of `source`: its exit status and what it printed.
    private func typecheck(_ source: String) throws -> (status: Int32, output: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pq-typecheck-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("Predicate.swift")
        try source.write(to: file, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swiftc", "-typecheck", file.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }
}
