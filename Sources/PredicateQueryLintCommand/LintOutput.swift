// How `pq lint` prints its findings: swiftc-style text (Xcode reads it) or one
// JSON object.

import Foundation
import PredicateQuery
import PredicateQueryModels

enum LintOutput {
    /// `file:line:column: error: message [rule]` with the source line and a caret, each site's SQL
    /// (with `--sql`) as a note after the site's findings, then a one-line summary.
    static func text(_ run: LintRun) -> String {
        let report = run.report
        var texts = Texts(report.files)
        var fileOrder: [String: Int] = [:]
        for (position, file) in report.files.enumerated() where fileOrder[file.path] == nil {
            fileOrder[file.path] = position
        }
        // Each piece sorts by its file, then its site (or itself), then findings before the SQL note.
        var pieces: [(key: [Int], text: String)] = []
        for finding in run.findings {
            var anchor = (finding.line, finding.column)
            if let site = finding.site, let text = texts[finding.file] {
                let location = text.location(of: report.sites[site].span.start)
                anchor = (location.line, location.column)
            }
            let rendered: String
            if let diagnostic = finding.diagnostic, let text = texts[finding.file] {
                rendered = DiagnosticRenderer(fileName: finding.file).render(diagnostic, in: text)
            } else {
                rendered = "\(finding.file):\(finding.line): \(finding.severity.rawValue): \(finding.message) [\(finding.rule)]\n"
            }
            let key = [fileOrder[finding.file] ?? 0, anchor.0, anchor.1, 0, finding.line, finding.column]
            pieces.append((key, rendered))
        }
        for site in report.sites {
            guard let sql = site.sql, let text = texts[site.file] else { continue }
            let location = text.location(of: site.span.start)
            pieces.append(
                (
                    [fileOrder[site.file] ?? 0, location.line, location.column, 1, 0, 0],
                    "\(site.file):\(location.line):\(location.column): note: SQL: \(sql)\n"
                ))
        }
        var out = ""
        let sorted = pieces.enumerated().sorted {
            ($0.element.key + [$0.offset]).lexicographicallyPrecedes($1.element.key + [$1.offset])
        }
        for piece in sorted { out += piece.element.text }
        return out + summary(run)
    }

    /// The files' texts, indexed for locations only when one is asked for.
    struct Texts {
        private var sources: [String: String] = [:]
        private var indexed: [String: SourceText] = [:]

        init(_ files: [SwiftModelSource.File]) {
            for file in files where sources[file.path] == nil { sources[file.path] = file.text }
        }

        subscript(path: String) -> SourceText? {
            mutating get {
                if let text = indexed[path] { return text }
                guard let source = sources[path] else { return nil }
                let text = SourceText(source)
                indexed[path] = text
                return text
            }
        }
    }

    /// `27 queries in 9 files: 8 errors, 4 warnings`, then what was hidden and what was skipped.
    static func summary(_ run: LintRun) -> String {
        func count(_ number: Int, _ noun: String) -> String {
            "\(number) \(noun)\(number == 1 ? "" : "s")"
        }
        let report = run.report
        let queries = report.sites.count == 1 ? "1 query" : "\(report.sites.count) queries"
        var out = "\(queries) in \(count(report.files.count, "file")): \(count(run.errors, "error")), "
        out += count(run.warnings, "warning")
        if run.suppressed > 0 { out += ", \(run.suppressed) suppressed" }
        if run.baselined > 0 { out += ", \(run.baselined) in the baseline" }
        let skipped = report.skippedSites
        guard !skipped.isEmpty else { return out + "\n" }
        out += ", \(skipped.count) skipped\n"
        // Why, most frequent first: a skipped site is not checked, so the count says how much was not.
        var reasons: [String: Int] = [:]
        for site in skipped { reasons[site.skipped ?? "", default: 0] += 1 }
        for (reason, number) in reasons.sorted(by: { ($1.value, $0.key) < ($0.value, $1.key) }) {
            out += "  \(number) skipped: \(reason)\n"
        }
        return out
    }

    /// A finding in JSON: the diagnostic's fields and its rule.
    struct JSONFinding: Encodable {
        var file: String
        var rule: String
        var code: String
        var severity: Severity
        var message: String
        var line: Int
        var column: Int
        var endLine: Int
        var endColumn: Int
        var range: Diagnostic.JSONForm.Range?
        var notes: [Diagnostic.JSONForm.Note]
    }

    struct JSONSite: Encodable {
        var file: String
        var kind: String
        var entity: String?
        var line: Int
        var column: Int
        var sql: String?
        /// Why the site was not checked, if it was not.
        var skipped: String?
        var diagnostics: [JSONFinding]
    }

    struct JSONReport: Encodable {
        var sites: [JSONSite]
        /// Every finding, the sites' and the others (the model reader's notes, superfluous suppressions).
        var findings: [JSONFinding]
        var modelWarnings: [String]
        var errors: Int
        var warnings: Int
        var skipped: Int
        var suppressed: Int
        var baselined: Int
    }

    static func jsonFinding(_ finding: LintFinding, in text: SourceText?) -> JSONFinding {
        let form = text.flatMap { text in finding.diagnostic.map { $0.jsonForm(in: text) } }
        return JSONFinding(
            file: finding.file, rule: finding.rule, code: finding.code.rawValue, severity: finding.severity,
            message: finding.message, line: finding.line, column: finding.column, endLine: finding.endLine,
            endColumn: finding.endColumn, range: form?.range, notes: form?.notes ?? [])
    }

    /// One object: every site with its findings (located in its file) and SQL, and every finding.
    static func json(_ run: LintRun) -> String {
        let report = run.report
        var texts = Texts(report.files)
        var bySite: [Int: [JSONFinding]] = [:]
        let findings = run.findings.map { finding in
            let encoded = jsonFinding(finding, in: texts[finding.file])
            if let site = finding.site { bySite[site, default: []].append(encoded) }
            return encoded
        }
        let sites = report.sites.enumerated().compactMap { index, site -> JSONSite? in
            guard let text = texts[site.file] else { return nil }
            let location = text.location(of: site.span.start)
            return JSONSite(
                file: site.file, kind: site.kind, entity: site.entity, line: location.line, column: location.column,
                sql: site.sql, skipped: site.skipped, diagnostics: bySite[index] ?? [])
        }
        let encoded = JSONReport(
            sites: sites, findings: findings, modelWarnings: report.modelWarnings.map(\.description),
            errors: run.errors, warnings: run.warnings, skipped: report.skippedSites.count, suppressed: run.suppressed,
            baselined: run.baselined)
        return encode(encoded)
    }

    static func encode(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted]
        guard let data = try? encoder.encode(value) else { return "{}\n" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
