// The seeds of the generated tests: fixed ones that run every time, plus one
// fresh seed from the environment. CI passes a new `PQ_SEED` on every run and
// prints it, so a failure found by chance is replayed with
//   PQ_SEED=<seed> swift test --filter <suite>

import Foundation

public enum TestSeeds {
    /// The extra seed from `PQ_SEED`, if one is set.
    public static var fresh: UInt64? {
        ProcessInfo.processInfo.environment["PQ_SEED"].flatMap { UInt64($0) }
    }

    /// `fixed`, then the fresh seed if there is one (and it is not already there).
    public static func with(_ fixed: [UInt64]) -> [UInt64] {
        guard let fresh, !fixed.contains(fresh) else { return fixed }
        return fixed + [fresh]
    }
}
