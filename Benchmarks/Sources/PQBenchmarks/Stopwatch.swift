// Timing: wall-clock durations of single runs, and medians of several, taken
// side by side in one process so that ratios compare runs under the same load.

import Foundation

enum Stopwatch {
    /// How long `body` takes, and what it returns.
    static func time<Result>(_ body: () throws -> Result) rethrows -> (Duration, Result) {
        let clock = ContinuousClock()
        let start = clock.now
        let result = try body()
        return (clock.now - start, result)
    }

    static func median(_ samples: [Duration]) -> Duration {
        let sorted = samples.sorted()
        guard !sorted.isEmpty else { return .zero }
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }
}

extension Duration {
    /// In seconds, as a Double.
    var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }

    /// "12.3 ms", "4.56 µs", "1.23 s".
    var formatted: String {
        let value = seconds
        if value >= 1 { return String(format: "%.2f s", value) }
        if value >= 1e-3 { return String(format: "%.1f ms", value * 1e3) }
        return String(format: "%.2f µs", value * 1e6)
    }
}
