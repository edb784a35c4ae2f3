// `localizedStandardContains` inside a #Predicate that SwiftData runs
// (`$0.text.localizedStandardContains(search)`).
//
// What SwiftData does: it turns the call into a test in its SQL store, not into
// Swift's `String.localizedStandardContains`, and the two were reported to
// disagree: meshtastic/Meshtastic-Apple took the test out of its search
// predicates (MessageSearch.swift, 2026) because "that translation does not
// reliably reproduce the in-memory String semantics across every iOS version — a
// message whose text is plainly on screen could return no search hit (reported in
// the field)", and now fetches without it and filters the objects in Swift. No
// OS version, text or crash log is given, and Apple documents no difference: a
// warning that names its evidence. Where a search may miss a little of what
// Swift would find, the predicate is fine; a team that accepts that disables the
// rule.

import PredicateQuery

extension DiagnosticCode {
    /// `localizedStandardContains` in a SwiftData predicate: reported to miss text Swift's String finds.
    public static let swiftLocalizedStandardContains: DiagnosticCode = "swift.localizedStandardContains"
}

enum LocalizedStandardContainsRule {
    static let method = "localizedStandardContains"

    /// A warning at each `x.localizedStandardContains(y)` of `predicate`, whose source is `bytes`.
    static func check(_ predicate: Expr, bytes: [UInt8]) -> [Diagnostic] {
        var found: [Diagnostic] = []
        var pending = [predicate]
        while let node = pending.popLast() {
            pending += node.children
            guard case .stringTest(.contains, _, _, let options) = node.kind, options == [.caseInsensitive, .diacriticInsensitive],
                let name = methodName(in: node.span, of: bytes)
            else { continue }
            found.append(diagnostic(at: name))
        }
        return found.sorted { $0.span.start < $1.span.start }
    }

    /// The span of the name `localizedStandardContains` in the source of `span`, where it is called there
    /// (`.localizedStandardContains(`, read as Swift tokens: not the name inside a string literal).
    private static func methodName(in span: SourceSpan, of bytes: [UInt8]) -> SourceSpan? {
        guard span.start >= 0, span.start < span.end, span.end <= bytes.count else { return nil }
        let tokens = SwiftSourceScanner.scan(Array(bytes[span.start..<span.end])).tokens
        for (index, token) in tokens.enumerated() where token.isWord(method) {
            guard index > 0, tokens[index - 1].isPunctuation("."), index + 1 < tokens.count,
                tokens[index + 1].isPunctuation("(")
            else { continue }
            return SourceSpan(start: span.start + token.start, end: span.start + token.end)
        }
        return nil
    }

    private static func diagnostic(at span: SourceSpan) -> Diagnostic {
        .warning(
            .swiftLocalizedStandardContains,
            "SwiftData runs 'localizedStandardContains' as a test in its store, which was reported to miss text that Swift's String.localizedStandardContains finds",
            at: span,
            notes: [
                DiagnosticNote(
                    "evidence: meshtastic/Meshtastic-Apple (MessageSearch.swift): \"a message whose text is plainly on screen could return no search hit (reported in the field)\"; not Apple's documentation"
                ),
                DiagnosticNote(
                    "where the results must match what Swift finds, fetch without this test and filter the objects with localizedStandardContains in Swift, as that app does"
                ),
            ])
    }
}
