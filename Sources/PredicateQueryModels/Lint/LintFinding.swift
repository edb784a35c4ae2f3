// One thing `pq lint` reports, with its rule: a diagnostic of a query site, a
// note of the model reader, or a suppression comment that suppressed nothing.
// Suppression, configuration, the baseline and every output format work on
// findings, so they treat all three alike.

import Foundation
import PredicateQuery

/// A finding: where, which rule, how serious, what.
public struct LintFinding: Sendable {
    /// The file's path, as the lint was given it.
    public var file: String
    /// The rule's id (`nil-inequality`).
    public var rule: String
    /// The code of the diagnostic it comes from (`swift.nilInequality`).
    public var code: DiagnosticCode
    /// How serious it is, after the configuration's severities.
    public var severity: Severity
    /// What is wrong, in one sentence.
    public var message: String
    /// 1-based line and column of the start (the column counts characters; 1 when only the line is known).
    public var line: Int
    /// The 1-based column of the start, in characters; 1 when only the line is known.
    public var column: Int
    /// 1-based line and column of the end, the same as the start when only the line is known.
    public var endLine: Int
    /// The 1-based column of the end, in characters.
    public var endColumn: Int
    /// The byte range in the file, when known (not for the model reader's notes).
    public var span: SourceSpan?
    /// Notes that explain the finding or suggest a fix.
    public var notes: [DiagnosticNote]
    /// The text of the line the finding starts on, without the indentation and trailing spaces:
    /// what a baseline matches on.
    public var lineText: String
    /// The index of the query site in the report's `sites`, for a site's diagnostic.
    public var site: Int?

    /// The diagnostic to render with a caret under the source, its code the rule's id; nil without a span.
    public var diagnostic: Diagnostic? {
        span.map { Diagnostic(severity, DiagnosticCode(rawValue: rule), message, at: $0, notes: notes) }
    }
}

/// A file's text, indexed for findings' locations.
struct LintFileText {
    let text: SourceText
    /// The lines, without their terminators.
    let lines: [Substring]

    init(_ text: String) {
        self.text = SourceText(text)
        lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    }

    /// The trimmed text of a 1-based line, or "" past the end.
    func lineText(_ line: Int) -> String {
        guard line >= 1, line <= lines.count else { return "" }
        return lines[line - 1].trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A finding at `span`.
    func finding(
        file: String, rule: String, code: DiagnosticCode, severity: Severity, message: String, span: SourceSpan,
        notes: [DiagnosticNote], site: Int?
    ) -> LintFinding {
        let start = text.location(of: span.start)
        let end = text.location(of: max(span.start, span.end))
        return LintFinding(
            file: file, rule: rule, code: code, severity: severity, message: message, line: start.line, column: start.column,
            endLine: end.line, endColumn: end.column, span: span, notes: notes, lineText: lineText(start.line),
            site: site)
    }
}
