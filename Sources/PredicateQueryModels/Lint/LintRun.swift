// `pq lint` from files to the findings it reports: the lint's sites and the
// model reader's notes become findings with their rule ids; rules the
// configuration disables are dropped and its severities applied; suppression
// comments hide what they name (and report what they did not hide); then the
// baseline hides the findings it lists. The command line and the rule
// catalog's tests both run this, so the examples test what users get.

import Foundation
import PredicateQuery

/// One run of `pq lint` over some files.
public struct LintRun: Sendable {
    /// What the lint found in the files, before suppression, configuration and baseline.
    public var report: SwiftAppLint.Report
    /// What is reported, in file order then source order.
    public var findings: [LintFinding]
    /// The findings before the baseline hid any: what `--write-baseline` writes.
    public var unbaselined: [LintFinding]
    /// How many findings suppression comments hid.
    public var suppressed: Int
    /// How many findings the baseline hid.
    public var baselined: Int

    /// How many of the reported findings are errors.
    public var errors: Int { findings.filter { $0.severity == .error }.count }
    /// How many of the reported findings are warnings.
    public var warnings: Int { findings.filter { $0.severity == .warning }.count }

    /// Lints `files`.
    public init(
        _ files: [SwiftModelSource.File], configuration: LintConfiguration = LintConfiguration(), sql: Bool = false,
        engineDifferences: Bool = false, baseline: LintBaseline? = nil
    ) {
        let runsEngine = engineDifferences || configuration.optInRules.contains(LintRule.engineSortOrder.id)
        report = SwiftAppLint.lint(files, sql: sql, engineDifferences: runsEngine)
        func checked(_ id: String) -> Bool {
            LintRuleCatalog.rule(id: id).map { configuration.runs($0, engineDifferences: runsEngine) } ?? false
        }
        // Files are indexed for lines only where something is found or a suppression comment is written.
        var sources: [String: String] = [:]
        for file in files where sources[file.path] == nil { sources[file.path] = file.text }
        var texts: [String: LintFileText] = [:]
        func text(of path: String) -> LintFileText? {
            if let known = texts[path] { return known }
            guard let source = sources[path] else { return nil }
            let made = LintFileText(source)
            texts[path] = made
            return made
        }
        var all: [String: [LintFinding]] = [:]
        /// A note about a whole file (no query site), at the first column of its line.
        func fileNote(file: String, line: Int, message: String, rule: LintRule, code: DiagnosticCode) {
            all[file, default: []].append(
                LintFinding(
                    file: file, rule: rule.id, code: code, severity: rule.severity, message: message,
                    line: line, column: 1, endLine: line, endColumn: 1, span: nil, notes: [],
                    lineText: text(of: file)?.lineText(line) ?? "", site: nil))
        }
        // The model reader's notes, and the Xcode projects pq could not read.
        for warning in report.modelWarnings {
            fileNote(
                file: warning.file, line: warning.line, message: warning.message, rule: .modelDeclarationSkipped,
                code: .lintModelSkipped)
        }
        for warning in report.projectWarnings {
            fileNote(
                file: warning.file, line: warning.line, message: warning.message, rule: .xcodeProjectUnread,
                code: .lintProjectUnread)
        }
        // The sites' diagnostics.
        // A predicate another site evaluates is read there too (`SwiftPredicateParser+Evaluate`): what both
        // sites find in it is reported once.
        var reported: Set<String> = []
        for (index, site) in report.sites.enumerated() where !site.diagnostics.isEmpty {
            guard let text = text(of: site.file) else { continue }
            for diagnostic in site.diagnostics
            where reported.insert(
                "\(site.file)\u{0}\(diagnostic.span.start)\u{0}\(diagnostic.span.end)\u{0}\(diagnostic.code.rawValue)\u{0}\(diagnostic.message)"
            ).inserted {
                let rule = LintRuleCatalog.rule(for: diagnostic.code)
                all[site.file, default: []].append(
                    text.finding(
                        file: site.file, rule: rule.id, code: diagnostic.code, severity: diagnostic.severity,
                        message: diagnostic.message,
                        span: diagnostic.span, notes: diagnostic.notes, site: index))
            }
        }
        // Configuration, then suppression comments, file by file.
        var findings: [LintFinding] = []
        var suppressed = 0
        var seen: Set<String> = []
        for file in files where seen.insert(file.path).inserted {
            var kept = (all[file.path] ?? []).filter { checked($0.rule) }
            for position in kept.indices {
                kept[position].severity = configuration.severity(of: kept[position].rule, default: kept[position].severity)
            }
            // Most files have no suppression comment: a search of the text says so without reading it.
            let commented = file.text.contains(LintSuppression.prefix)
            if kept.isEmpty && !commented { continue }
            var suppression = commented ? LintSuppression(text: file.text) : LintSuppression()
            kept = kept.filter { finding in
                let hidden = suppression.suppresses(rule: finding.rule, line: finding.line)
                if hidden { suppressed += 1 }
                return !hidden
            }
            if commented, checked(LintRule.superfluousDisable.id), let text = text(of: file.path) {
                kept += suppression.findings(file: file.path, in: text, checked: checked).map { finding in
                    var finding = finding
                    finding.severity = configuration.severity(of: finding.rule, default: finding.severity)
                    return finding
                }
            }
            kept.sort { ($0.line, $0.column) < ($1.line, $1.column) }
            findings += kept
        }
        self.suppressed = suppressed
        unbaselined = findings
        if let baseline {
            (self.findings, baselined) = baseline.filter(findings)
        } else {
            self.findings = findings
            baselined = 0
        }
    }

    /// Whether the run fails: errors, or warnings when `strict`.
    public func fails(strict: Bool) -> Bool {
        errors > 0 || (strict && warnings > 0)
    }
}
