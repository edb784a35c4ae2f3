// Small helpers shared by the tests: parse or fail with the rendered diagnostics.

import Testing

@testable import PredicateQuery

/// Parses `text`, recording a test issue with the rendered diagnostics if it fails.
func parseOrRecord(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> Query? {
    let result = Parser.parse(text)
    if result.query == nil {
        Issue.record(
            "could not parse \(text.debugDescription):\n\(DiagnosticRenderer().render(result.diagnostics, in: text))",
            sourceLocation: sourceLocation)
    }
    return result.query
}

/// The syntax dump of the parsed text, or the rendered diagnostics if it does not parse.
func dump(_ text: String) -> String {
    let result = Parser.parse(text)
    return result.query?.syntaxDump ?? DiagnosticRenderer().render(result.diagnostics, in: text)
}

/// The rendered diagnostics of parsing `text`, without codes.
func parseErrors(_ text: String, limits: Limits = .standard) -> String {
    DiagnosticRenderer(showsCodes: false).render(Parser.parse(text, limits: limits).diagnostics, in: text)
}

/// The diagnostic codes of parsing `text`.
func parseCodes(_ text: String, limits: Limits = .standard) -> [String] {
    Parser.parse(text, limits: limits).diagnostics.map(\.code.rawValue)
}
