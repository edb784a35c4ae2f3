// A lint run over a file of SwiftData models and a file of queries, as the lint
// tests make it: the findings in the query file, and how many were suppressed.

@testable import PredicateQueryModels

enum LintTesting {
    /// Model declarations as the file `Models.swift`.
    static func models(_ text: String) -> SwiftModelSource.File {
        SwiftModelSource.File(path: "Models.swift", text: text)
    }

    /// Lints `models` beside `query` (as `Query.swift`).
    static func run(
        models: SwiftModelSource.File, query: String, configuration: LintConfiguration = LintConfiguration()
    ) -> (findings: [LintFinding], suppressed: Int) {
        let run = LintRun([models, SwiftModelSource.File(path: "Query.swift", text: query)], configuration: configuration)
        return (run.findings.filter { $0.file == "Query.swift" }, run.suppressed)
    }
}
