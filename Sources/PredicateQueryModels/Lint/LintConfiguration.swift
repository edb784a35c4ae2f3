// `.pq-lint.yml`: which files `pq lint` reads, which rules it runs, and how
// serious each is. Read from the folder `pq lint` runs in, or from `--config FILE`;
// its paths are relative to the file's folder.
//
//     included:            # the paths to lint when the command line names none
//       - Sources
//     excluded:            # never read: a path, or a pattern with * (in a name) and ** (any folders)
//       - Sources/Generated
//       - "**/Mocks"
//     disabled_rules:      # rules not run
//       - nil-inequality
//     opt_in_rules:        # rules that run only when asked (engine-sort-order)
//       - engine-sort-order
//     severity:            # a rule's severity: error, warning or note
//       decomposed-string-literal: error
//     strict: true         # warnings fail the run, as --strict
//
// Every rule id is checked against the catalog: a misspelled one is an error
// with a did-you-mean, as is an unknown key. The YAML subset is `LintYAML`'s.

import Foundation
import PredicateQuery

/// What `.pq-lint.yml` says.
public struct LintConfiguration: Sendable {
    /// The folder the configuration's paths are relative to.
    public var root: String
    /// The paths to lint when the command line names none (`included`).
    public var included: [String] = []
    /// Paths never read, and patterns with `*` (within a name) and `**` (any folders) (`excluded`).
    public var excluded: [String] = []
    /// The ids of rules not run (`disabled_rules`).
    public var disabledRules: Set<String> = []
    /// The ids of opt-in rules to run (`opt_in_rules`).
    public var optInRules: Set<String> = []
    /// A severity for a rule other than its own, by rule id (`severity`).
    public var severities: [String: Severity] = [:]
    /// Whether warnings fail the run, as `--strict` (`strict`).
    public var strict = false

    /// The name pq looks for in the folder it runs in.
    public static let fileName = ".pq-lint.yml"

    /// No configuration: every rule that is not opt-in, at its own severity.
    public init(root: String = ".") { self.root = root }

    /// Reads a configuration's text; `root` is its folder.
    public init(text: String, root: String) throws(LintConfigurationError) {
        self.root = root
        let keys = ["included", "excluded", "disabled_rules", "opt_in_rules", "severity", "strict"]
        for (key, value) in try LintYAML.parse(text) {
            switch key.text {
            case "included": included = try Self.list(value, of: key)
            case "excluded": excluded = try Self.list(value, of: key)
            case "disabled_rules": disabledRules = Set(try Self.rules(Self.listItems(value, of: key)))
            case "opt_in_rules": optInRules = Set(try Self.rules(Self.listItems(value, of: key)))
            case "severity":
                guard case .map(let entries) = value else {
                    throw LintConfigurationError(
                        line: key.line, message: "'severity' takes rule ids, each with 'error', 'warning' or 'note'")
                }
                for (rule, level) in entries {
                    _ = try Self.rules([rule])
                    guard let severity = Severity(rawValue: level.text) else {
                        throw LintConfigurationError(
                            line: level.line, message: "'\(level.text)' is no severity: write error, warning or note")
                    }
                    severities[LintRuleCatalog.currentID(rule.text)] = severity
                }
            case "strict":
                guard case .scalar(let text) = value, text == "true" || text == "false" else {
                    throw LintConfigurationError(line: key.line, message: "'strict' is true or false")
                }
                strict = text == "true"
            default:
                var message = "unknown key '\(key.text)'"
                if let close = NameSuggestion.closest(to: key.text, among: keys) { message += "; did you mean '\(close)'?" }
                throw LintConfigurationError(line: key.line, message: message + " (keys: \(keys.joined(separator: ", ")))")
            }
        }
    }

    /// Reads the file at `path`; nil when there is none.
    public static func load(path: String) throws(LintConfigurationError) -> LintConfiguration? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw LintConfigurationError(message: "cannot read '\(path)'")
        }
        let root = (path as NSString).deletingLastPathComponent
        do {
            return try LintConfiguration(text: String(decoding: data, as: UTF8.self), root: root.isEmpty ? "." : root)
        } catch {
            throw LintConfigurationError(message: "\(path): \(error.description)")
        }
    }

    /// Whether a rule runs: not disabled, and not opt-in unless asked for.
    public func runs(_ rule: LintRule, engineDifferences: Bool) -> Bool {
        guard !disabledRules.contains(rule.id) else { return false }
        return !rule.optIn || optInRules.contains(rule.id) || engineDifferences
    }

    /// The severity of a rule's findings: the configuration's, else the diagnostic's own.
    public func severity(of rule: String, default severity: Severity) -> Severity {
        severities[rule] ?? severity
    }

    /// Whether a file (its path as found, relative to the working folder or absolute) is excluded.
    public func excludes(_ path: String) -> Bool {
        guard !excluded.isEmpty else { return false }
        let file = LintPaths.components(LintPaths.absolute(path))
        return excluded.contains { pattern in
            LintPaths.matches(LintPaths.components(LintPaths.absolute(pattern, in: root)), file)
        }
    }

    /// The `included` paths, relative to the working folder when they are under it.
    public var includedPaths: [String] {
        included.map { LintPaths.relative(LintPaths.absolute($0, in: root)) }
    }

    private static func listItems(_ value: LintYAMLValue, of key: LintYAMLItem) throws(LintConfigurationError) -> [LintYAMLItem] {
        switch value {
        case .list(let items): return items
        case .scalar(let text) where !text.isEmpty: return [LintYAMLItem(text: text, line: key.line)]
        default: throw LintConfigurationError(line: key.line, message: "'\(key.text)' takes a list ('- item' lines under it)")
        }
    }

    private static func list(_ value: LintYAMLValue, of key: LintYAMLItem) throws(LintConfigurationError) -> [String] {
        try listItems(value, of: key).map(\.text)
    }

    private static func rules(_ items: [LintYAMLItem]) throws(LintConfigurationError) -> [String] {
        for item in items where LintRuleCatalog.rule(id: item.text) == nil {
            throw LintConfigurationError(line: item.line, message: LintRuleCatalog.unknownRuleMessage(item.text))
        }
        return items.map { LintRuleCatalog.currentID($0.text) }
    }
}
