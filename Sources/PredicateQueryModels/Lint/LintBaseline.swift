// A baseline: the findings a project has accepted for now, so that only new
// ones are reported. `--write-baseline FILE` writes the current findings;
// `--baseline FILE` hides the findings it lists.
//
// A finding is matched on its file (relative to the folder pq runs in), its
// rule and the text of its line with the indentation trimmed — not the line's
// number, so lines added above it do not bring it back. Each entry hides one
// finding: two identical lines with the same finding need two entries.
//
//     {
//       "findings" : [
//         { "file" : "Sources/App/TripService.swift", "line" : "try context.fetch(…)", "rule" : "nil-inequality" }
//       ],
//       "version" : 1
//     }

import Foundation

/// The accepted findings.
public struct LintBaseline: Sendable, Codable {
    /// One accepted finding, matched by file, rule and line text.
    public struct Entry: Sendable, Codable, Hashable {
        /// The file's path, relative to the folder pq runs in.
        public var file: String
        /// The rule's id: `nil-inequality`.
        public var rule: String
        /// The text of the finding's line, without its indentation: not its number, so that lines added above it do not bring it back.
        public var line: String
    }

    /// The version of the file's format: 1.
    public var version = 1
    /// The accepted findings; each entry hides one finding.
    public var findings: [Entry]

    /// The baseline of `findings`.
    public init(_ findings: [LintFinding]) {
        self.findings = findings.map(Self.entry).sorted { ($0.file, $0.line, $0.rule) < ($1.file, $1.line, $1.rule) }
    }

    static func entry(_ finding: LintFinding) -> Entry {
        Entry(file: LintPaths.relative(finding.file), rule: finding.rule, line: finding.lineText)
    }

    /// Reads a baseline file.
    public static func load(path: String) throws(LintConfigurationError) -> LintBaseline {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw LintConfigurationError(message: "cannot read the baseline '\(path)'")
        }
        do {
            let baseline = try JSONDecoder().decode(LintBaseline.self, from: data)
            guard baseline.version == 1 else {
                throw LintConfigurationError(message: "the baseline '\(path)' is version \(baseline.version); pq reads version 1")
            }
            return baseline
        } catch let error as LintConfigurationError {
            throw error
        } catch {
            throw LintConfigurationError(
                message: "'\(path)' is not a pq lint baseline (write one with --write-baseline): \(error.localizedDescription)")
        }
    }

    /// The text of the file.
    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self) else { return "{}\n" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// The findings the baseline does not hide, and how many it hid.
    public func filter(_ findings: [LintFinding]) -> (kept: [LintFinding], hidden: Int) {
        var remaining: [Entry: Int] = [:]
        for var entry in self.findings {
            // A baseline written when a rule had another id still hides its findings.
            entry.rule = LintRuleCatalog.currentID(entry.rule)
            remaining[entry, default: 0] += 1
        }
        var kept: [LintFinding] = []
        var hidden = 0
        for finding in findings {
            let entry = Self.entry(finding)
            if let count = remaining[entry], count > 0 {
                remaining[entry] = count - 1
                hidden += 1
            } else {
                kept.append(finding)
            }
        }
        return (kept, hidden)
    }
}
