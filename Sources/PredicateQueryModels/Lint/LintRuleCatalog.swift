// Every rule of `pq lint`, and the rule each diagnostic belongs to.
//
// To add a rule: write its value in a file of its own under `Rules/`
// (`extension LintRule { static let myRule = LintRule(…) }`), with the codes its
// check reports and examples it fires and does not fire on, and list it in
// `all` below. `LintRuleCatalogTests` runs the examples through the lint, and
// checks that every diagnostic code declared in the lint's sources is claimed by
// exactly one rule and that `Documentation/Lint.md` lists the catalog.

import Foundation
import PredicateQuery

/// The catalog of `pq lint`'s rules.
public enum LintRuleCatalog {
    /// Every rule, errors first, in the order `--rules` prints them.
    public static let all: [LintRule] = [
        .enumComparedAsItself,
        .predicateTypeCheckBudget,
        .memberOfToMany,
        .computedIdentity,
        .computedProperty,
        .transientProperty,
        .sortThroughToMany,
        .unknownProperty,
        .storedValueMember,
        .methodNotInPredicate,
        .pqOnlySpelling,
        .invalidPredicate,
        .nilInequality,
        .countThroughOptional,
        .decomposedStringLiteral,
        .neverNilComparison,
        .relationshipNilTest,
        .genericModelKeyPath,
        .toManyIsEmptyComparedWithFalse,
        .optionalToManyNilTest,
        .localizedStandardContains,
        .superfluousDisable,
        .engineSortOrder,
        .modelDeclarationSkipped,
        .xcodeProjectUnread,
    ]

    /// The rule a diagnostic code of a check other than the SwiftData ones falls back to.
    public static let fallback = LintRule.invalidPredicate

    private static let byID: [String: LintRule] = Dictionary(
        all.flatMap { rule in ([rule.id] + rule.formerIDs).map { ($0, rule) } }, uniquingKeysWith: { first, _ in first })
    private static let byCode: [DiagnosticCode: LintRule] = {
        var table: [DiagnosticCode: LintRule] = [:]
        for rule in all {
            for code in rule.codes where table[code] == nil { table[code] = rule }
        }
        return table
    }()

    /// The rule named `id` (its id or a former one), or nil.
    public static func rule(id: String) -> LintRule? { byID[id] }

    /// The current id of the rule named `id`, or `id` itself when no rule has that name.
    public static func currentID(_ id: String) -> String { byID[id]?.id ?? id }

    /// The rule a diagnostic of the lint belongs to: the one that claims its code, else `fallback`.
    public static func rule(for code: DiagnosticCode) -> LintRule { byCode[code] ?? fallback }

    /// The rule id closest to a misspelled one, if one is close.
    public static func suggestion(for id: String) -> String? {
        NameSuggestion.closest(to: id, among: all.map(\.id))
    }

    /// `unknown rule 'x'` with a did-you-mean when a rule is close.
    public static func unknownRuleMessage(_ id: String) -> String {
        var message = "unknown rule '\(id)'"
        if let suggestion = suggestion(for: id) { message += "; did you mean '\(suggestion)'?" }
        return message + " (pq lint --rules lists them)"
    }

    /// The catalog as Markdown, for `Documentation/Lint.md`: a table of the rules, then each rule's
    /// explanation and evidence.
    public static func markdown() -> String {
        var out = "| Rule | Severity | What it finds |\n|---|---|---|\n"
        for rule in all {
            let summary = rule.summary.replacingOccurrences(of: "|", with: "\\|")
            out += "| [`\(rule.id)`](#\(rule.id)) | \(rule.severity.rawValue)\(rule.optIn ? " (opt-in)" : "") | \(summary) |\n"
        }
        for rule in all {
            out += "\n### \(rule.id)\n\n\(rule.explanation)\n\n*Evidence:* \(rule.evidence)\n"
        }
        return out
    }
}
