// `pq-lint`, the tool pq's SwiftPM plugins run, is `pq lint`: the same arguments
// give the same output, errors and exit status, over the example app (errors),
// with `--format json` and `--sql`, for `--rules`, `--explain`, and bad usage.

import Foundation
import PredicateQueryTestSupport
import Testing

struct LintToolTests {
    /// The `pq-lint` executable beside `pq`.
    static var executable: URL { PQProcess.executable.deletingLastPathComponent().appendingPathComponent("pq-lint") }

    static let argumentLists: [[String]] = [
        [LintCommandTests.app],
        ["--no-cache", "--format", "json", LintCommandTests.app],
        ["--no-cache", "--sql", LintCommandTests.app],
        ["--rules"],
        ["--explain", "enum-compared-as-itself"],
        ["--explain", "no-such-rule"],
        ["--format", "yaml", LintCommandTests.app],
        ["Examples/NoSuchFolder"],
    ]

    @Test(arguments: argumentLists)
    func printsWhatPQLintPrints(_ arguments: [String]) throws {
        let environment = ["PQ_CACHE_DIR": PQProcess.cacheDirectory.path]
        let viaPQ = try PQProcess.capture(
            PQProcess.executable, ["lint"] + arguments, environment: environment, directory: GoldenFile.repositoryRoot)
        let viaTool = try PQProcess.capture(
            Self.executable, arguments, environment: environment, directory: GoldenFile.repositoryRoot)
        #expect(viaTool.status == viaPQ.status)
        #expect(viaTool.output == viaPQ.output)
        #expect(viaTool.error == viaPQ.error)
        // Something was printed: a report, a rule, or an error with its reason.
        #expect(!(viaPQ.output + viaPQ.error).isEmpty)
    }
}
