// One rule of `pq lint`: what it is called, how serious it is, what it says and
// why, and examples of code it fires on and code it leaves alone.
//
// The catalog (`LintRuleCatalog`) lists every rule; each rule is one value in
// its own file under `Rules/`. A rule claims the diagnostic codes its checks
// report (`codes`): that is how a diagnostic of the checker or of the SwiftData
// rules finds its rule id. The examples are tests
// (`LintRuleCatalogTests` runs each through the real lint), and
// `pq lint --explain RULE` prints them.

import PredicateQuery

/// A rule of `pq lint`.
public struct LintRule: Sendable {
    /// The stable identifier, kebab-case: `enum-compared-as-itself`.
    public let id: String
    /// How serious a finding is unless the configuration says otherwise.
    public let severity: Severity
    /// One line: what the rule finds.
    public let summary: String
    /// One paragraph: what SwiftData does and what the app should write instead.
    public let explanation: String
    /// Since when SwiftData does it, and what says so (Apple's documentation, a release note, a
    /// reproducible report); says so when nothing is recorded yet.
    public let evidence: String
    /// The diagnostic codes this rule reports.
    public let codes: [DiagnosticCode]
    /// Code the rule fires on, and code it does not fire on.
    public let examples: [LintExample]
    /// Whether the rule runs only when asked (`--engine-differences`).
    public let optIn: Bool
    /// Ids the rule had before, still accepted wherever a rule is named (suppressions, the
    /// configuration, baselines) and read as `id`.
    public let formerIDs: [String]

    /// A rule with its id, default severity, texts, diagnostic codes and examples; `optIn` for a rule that
    /// runs only when asked; `formerIDs` for the ids it was known by before.
    public init(
        id: String, severity: Severity, summary: String, explanation: String, evidence: String,
        codes: [DiagnosticCode], examples: [LintExample], optIn: Bool = false, formerIDs: [String] = []
    ) {
        self.id = id
        self.formerIDs = formerIDs
        self.severity = severity
        self.summary = summary
        self.explanation = explanation
        self.evidence = evidence
        self.codes = codes
        self.examples = examples
        self.optIn = optIn
    }

    /// The examples the rule fires on.
    public var triggering: [LintExample] { examples.filter(\.triggers) }
    /// The examples the rule does not fire on.
    public var nonTriggering: [LintExample] { examples.filter { !$0.triggers } }
}

/// Source files the rule fires on (`triggers`) or does not.
public struct LintExample: Sendable {
    /// The files, in order: path and text. The model may live in another file than the query.
    public let files: [SwiftModelSource.File]
    /// Whether the rule fires on the files.
    public let triggers: Bool

    /// One file, `Example.swift`.
    public static func triggering(_ text: String) -> LintExample {
        LintExample(files: [SwiftModelSource.File(path: "Example.swift", text: text)], triggers: true)
    }

    /// One file, `Example.swift`, that the rule does not fire on.
    public static func nonTriggering(_ text: String) -> LintExample {
        LintExample(files: [SwiftModelSource.File(path: "Example.swift", text: text)], triggers: false)
    }

    /// Several files, each `(path, text)`.
    public static func triggering(_ files: [(String, String)]) -> LintExample {
        LintExample(files: files.map { SwiftModelSource.File(path: $0.0, text: $0.1) }, triggers: true)
    }

    /// Several files, each `(path, text)`, that the rule does not fire on.
    public static func nonTriggering(_ files: [(String, String)]) -> LintExample {
        LintExample(files: files.map { SwiftModelSource.File(path: $0.0, text: $0.1) }, triggers: false)
    }
}
