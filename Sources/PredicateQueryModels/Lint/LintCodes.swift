// The diagnostic codes of `pq lint` itself, beside the checker's and the SwiftData rules'.

import PredicateQuery

extension DiagnosticCode {
    /// A `// pq-lint:disable` comment that suppressed nothing, or named no rule.
    public static let lintSuperfluousDisable: DiagnosticCode = "lint.superfluousDisable"
    /// Something the model reader skipped in a `@Model` class.
    public static let lintModelSkipped: DiagnosticCode = "lint.modelSkipped"
    /// An Xcode `project.pbxproj` pq could not parse: its files' modules are their folders.
    public static let lintProjectUnread: DiagnosticCode = "lint.projectUnread"
}
