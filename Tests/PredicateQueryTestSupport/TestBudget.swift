// How much generated work the heaviest tests do in one run.
//
// A plain `swift test` runs the quick budget, so that a fresh clone's test run
// takes minutes, not ten of them, on two cores. CI runs the same command with
// `PQ_TEST_BUDGET=thorough`, which gives those tests the larger budgets (four
// times the generated cases, the 10 MB inputs). Every test runs either way; only
// the number of generated cases and the size of the largest inputs change. A
// test's own variable (`PQ_DIFFERENTIAL_CASES`, …) overrides both.

import Foundation

public enum TestBudget {
    /// Whether `PQ_TEST_BUDGET=thorough` is set (CI sets it).
    public static var isThorough: Bool {
        ProcessInfo.processInfo.environment["PQ_TEST_BUDGET"] == "thorough"
    }

    /// `quick` or `thorough` by `PQ_TEST_BUDGET`; a whole number in `variable`, when
    /// that is set, wins over both.
    public static func count(_ variable: String? = nil, quick: Int, thorough: Int) -> Int {
        if let variable, let given = ProcessInfo.processInfo.environment[variable].flatMap({ Int($0) }) {
            return given
        }
        return isThorough ? thorough : quick
    }
}
