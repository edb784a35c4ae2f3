// How `pq lint` prints its report: swiftc-style text or one JSON object.

import Foundation
import PredicateQuery
import PredicateQueryModels

enum LintOutput {
    /// `file:line:column: error: …` with the source line and a caret, each site's SQL
    /// (with `--sql`) as a note, then a one-line summary.
    static func text(_ report: SwiftAppLint.Report) -> String {
        var texts: [String: SourceText] = [:]
        for file in report.files { texts[file.path] = SourceText(file.text) }
        var out = ""
        for warning in report.modelWarnings { out += warning.description + "\n" }
        var errors = 0
        var warnings = 0
        for site in report.sites {
            guard let text = texts[site.file] else { continue }
            let renderer = DiagnosticRenderer(fileName: site.file)
            for diagnostic in site.diagnostics {
                if diagnostic.severity == .error { errors += 1 } else if diagnostic.severity == .warning { warnings += 1 }
                out += renderer.render(diagnostic, in: text)
            }
            if let sql = site.sql {
                let location = text.location(of: site.span.start)
                out += "\(site.file):\(location.line):\(location.column): note: SQL: \(sql)\n"
            }
        }
        func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
        out += "\(count(report.sites.count, "query").replacingOccurrences(of: "querys", with: "queries")) in "
        out += "\(count(report.files.count, "file")): \(count(errors, "error")), \(count(warnings, "warning"))"
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

    struct JSONSite: Encodable {
        var file: String
        var kind: String
        var entity: String?
        var line: Int
        var column: Int
        var sql: String?
        /// Why the site was not checked, if it was not.
        var skipped: String?
        var diagnostics: [Diagnostic.JSONForm]
    }

    struct JSONReport: Encodable {
        var sites: [JSONSite]
        var modelWarnings: [String]
        var errors: Int
        var warnings: Int
        var skipped: Int
    }

    /// One object: every site with its diagnostics (located in its file) and SQL.
    static func json(_ report: SwiftAppLint.Report) -> String {
        var texts: [String: SourceText] = [:]
        for file in report.files { texts[file.path] = SourceText(file.text) }
        let sites = report.sites.compactMap { site -> JSONSite? in
            guard let text = texts[site.file] else { return nil }
            let location = text.location(of: site.span.start)
            return JSONSite(
                file: site.file, kind: site.kind, entity: site.entity, line: location.line, column: location.column,
                sql: site.sql, skipped: site.skipped,
                diagnostics: site.diagnostics.map { $0.jsonForm(in: text) })
        }
        let all = report.diagnostics.map(\.diagnostic)
        let encoded = JSONReport(
            sites: sites, modelWarnings: report.modelWarnings.map(\.description),
            errors: all.filter { $0.severity == .error }.count, warnings: all.filter { $0.severity == .warning }.count,
            skipped: report.skippedSites.count)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted]
        guard let data = try? encoder.encode(encoded) else { return "{}\n" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
