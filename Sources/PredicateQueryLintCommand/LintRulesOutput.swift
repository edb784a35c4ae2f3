// `pq lint --rules` and `pq lint --explain RULE`: the rule catalog as text.

import Foundation
import PredicateQueryModels

enum LintRulesOutput {
    /// One line a rule: id, severity, what it finds.
    static func list() -> String {
        let width = LintRuleCatalog.all.map(\.id.count).max() ?? 0
        var out = ""
        for rule in LintRuleCatalog.all {
            let id = rule.id.padding(toLength: width, withPad: " ", startingAt: 0)
            let severity = rule.severity.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0)
            out += "\(id)  \(severity)  \(rule.summary)\(rule.optIn ? " [opt-in]" : "")\n"
        }
        return out + "\(LintRuleCatalog.all.count) rules; pq lint --explain RULE for one\n"
    }

    /// A rule's explanation, evidence and examples.
    static func explain(_ rule: LintRule) -> String {
        var out = "\(rule.id) (\(rule.severity.rawValue)\(rule.optIn ? ", opt-in" : ""))\n\n"
        out += wrap(rule.explanation) + "\n\n"
        out += wrap("Evidence: " + rule.evidence) + "\n"
        // A file every example shares (the models) is printed once.
        let shared =
            rule.examples.count > 1
            ? (rule.examples.first?.files ?? []).filter { file in
                rule.examples.allSatisfy { $0.files.contains { $0.path == file.path && $0.text == file.text } }
            } : []
        let sharedPaths = Set(shared.map(\.path))
        for file in shared {
            out += "\nEvery example has \(file.path):\n" + indented(file.text)
        }
        for (title, examples) in [("Fires on", rule.triggering), ("Does not fire on", rule.nonTriggering)] {
            for example in examples {
                out += "\n\(title):\n"
                let own = example.files.filter { !sharedPaths.contains($0.path) }
                for file in own {
                    if example.files.count > 1 { out += "  // \(file.path)\n" }
                    out += indented(file.text)
                }
            }
        }
        return out
    }

    /// Each line of `text` indented by two spaces.
    static func indented(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "\n" : "  \($0)\n" }.joined()
    }

    /// `text` in lines of at most 80 characters.
    static func wrap(_ text: String) -> String {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, line.count + 1 + word.count > 80 {
                lines.append(line)
                line = ""
            }
            line += line.isEmpty ? String(word) : " " + word
        }
        if !line.isEmpty { lines.append(line) }
        return lines.joined(separator: "\n")
    }
}
