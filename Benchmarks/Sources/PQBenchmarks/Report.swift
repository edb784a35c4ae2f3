// The tables of Benchmarks/README.md, as Markdown.

import Foundation

public enum Report {
    /// "12.3 ms", "4.56 µs", "1.23 s".
    public static func format(_ duration: Duration) -> String { duration.formatted }

    public static func compileTable(_ results: [CompileMeasurement]) -> String {
        var lines = ["| query | median | per node |", "|---|---:|---:|"]
        for result in results {
            let perNode = result.nodes.map { String(format: "%.0f ns", result.median.seconds * 1e9 / Double($0)) } ?? ""
            lines.append("| `\(result.query)` | \(result.median.formatted) | \(perNode) |")
        }
        return lines.joined(separator: "\n")
    }

    public static func queryTable(_ report: QueryReport) -> String {
        var lines = [
            "| query | rows | pq | pq, simplest | hand-written | GRDB | in memory (load + filter) | pq / hand-written | simplest / hand-written | in memory / pq | GRDB / pq |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for m in report.measurements {
            let inMemory = report.inMemoryLoad + m.inMemoryFilterTime
            let cells = [
                m.name, "\(m.rows)", m.pqTime.formatted, m.pqSimplestTime.formatted, m.handWrittenTime.formatted,
                m.grdbTime.formatted, "\(inMemory.formatted) (\(m.inMemoryFilterTime.formatted) filter)",
                String(format: "%.2f×", m.pqTime.seconds / m.handWrittenTime.seconds),
                String(format: "%.2f×", m.pqSimplestTime.seconds / m.handWrittenTime.seconds),
                String(format: "%.0f×", inMemory.seconds / m.pqTime.seconds),
                String(format: "%.2f×", m.grdbTime.seconds / m.pqTime.seconds),
            ]
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n")
    }

    public static func queryDefinitions(_ report: QueryReport) -> String {
        report.measurements.map { m in
            var text = "- **\(m.name)**: `\(m.pq)`\n  hand-written: `\(m.sql)`"
            if let note = m.inMemoryNote { text += "\n  in memory: \(note)" }
            return text
        }.joined(separator: "\n")
    }
}
