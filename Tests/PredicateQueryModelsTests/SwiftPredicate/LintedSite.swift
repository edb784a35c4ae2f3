// The lint's findings at the sites of one file, each with the text it points at: how
// the rule tests read what a rule reported, and where.

import PredicateQuery
import PredicateQueryModels

enum LintedSite {
    /// Every diagnostic at the sites of `source` (a file at `path`, linted with `models`),
    /// with the source text its span covers.
    static func findings(
        _ source: String, at path: String, models: SwiftModelSource.File
    ) -> [(diagnostic: Diagnostic, text: String)] {
        let file = SwiftModelSource.File(path: path, text: source)
        let report = SwiftAppLint.lint([models, file])
        let bytes = Array(source.utf8)
        return report.sites.filter { $0.file == file.path }.flatMap(\.diagnostics).map { diagnostic in
            let start = min(diagnostic.span.start, bytes.count)
            let end = max(start, min(diagnostic.span.end, bytes.count))
            return (diagnostic, String(decoding: bytes[start..<end], as: UTF8.self))
        }
    }
}
