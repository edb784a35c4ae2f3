// Checking a query against model files with no store (issue 14): `--check` and
// `--sql` with `--model` alone, as CI or an editor would run them.

import Foundation
import PredicateQueryTestSupport
import Testing

struct ModelOnlyTests {
    static let budgets = GoldenFile.repositoryRoot.appendingPathComponent("Examples/Models/Budgets").path

    @Test func aQueryChecksAgainstModelFilesWithNoStore() throws {
        let result = try PQProcess.run(["--model", Self.budgets, "--check", "limit > 100 && name contains 'Vac'"])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.hasPrefix("entity Budget\nwhere (and (> (attr limit Double)"), "\(result.output)")
        let wrong = try PQProcess.run(["--model", Self.budgets, "--check", "limit > 'x'"])
        #expect(wrong.status == 1)
        #expect(wrong.error.contains("[check.typeMismatch]"), "\(wrong.error)")
    }

    @Test func theSQLComesFromTheLayoutTheModelsImply() throws {
        let result = try PQProcess.run([
            "--model", Self.budgets, "--sql", "Transaction where budget.name beginswith $p && budget in $bs",
        ])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("FROM \"ZTRANSACTION\" t0 LEFT JOIN \"ZBUDGET\" t1"), "\(result.output)")
        #expect(
            result.output.contains("bindings: ?1 = $p (String), ?2 = the successor of ?1, ?3 = $bs ([Budget])"),
            "\(result.output)")
        let plain = try PQProcess.run(["--model", Self.budgets, "--layout", "plain", "--sql", "Budget where limit > 1"])
        #expect(plain.output.contains("FROM \"Budget\" t0"), "\(plain.output)")
    }

    @Test func runningAQueryNeedsAStore() throws {
        let result = try PQProcess.run(["--model", Self.budgets, "limit > 100"])
        #expect(result.status == 2)
        #expect(result.error.contains("--model without --store can check a query (--check) or show its SQL (--sql)"))
    }
}
