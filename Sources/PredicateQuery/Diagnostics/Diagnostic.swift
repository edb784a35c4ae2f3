// Diagnostics as values.
//
// A stage never prints and never throws on bad user input: it returns diagnostics.
// Each has a stable code (`check.computedProperty`), so tools and tests can rely on
// it while the wording improves, a span into the input, and optional notes.

/// How serious a diagnostic is.
public enum Severity: String, Sendable, Codable, Comparable {
    /// How serious a diagnostic is: a note explains, a warning is worth a look, an error stops the query.
    case note, warning, error

    private var rank: Int {
        switch self {
        case .note: 0
        case .warning: 1
        case .error: 2
        }
    }

    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
}

/// The stable identifier of a kind of diagnostic, such as `check.computedProperty`.
///
/// The part before the dot names the stage that reports it (`lex`, `parse`, `limit`,
/// `schema`, `check`); each stage lists its codes in one catalog file.
public struct DiagnosticCode: RawRepresentable, Hashable, Sendable, Codable,
    CustomStringConvertible, ExpressibleByStringLiteral
{
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }
    public var description: String { rawValue }
}

/// A secondary message attached to a diagnostic, optionally pointing elsewhere in the input.
public struct DiagnosticNote: Hashable, Sendable, Codable {
    /// What the note says: a hint, a suggestion or what was expected.
    public var message: String
    /// The part of the input the note points at, if any.
    public var span: SourceSpan?

    /// A note saying `message`, pointing at `span` if given.
    public init(_ message: String, at span: SourceSpan? = nil) {
        self.message = message
        self.span = span
    }
}

/// One problem (or remark) found in the user's input.
public struct Diagnostic: Hashable, Sendable, Codable, Error {
    /// Whether it stops the query (error) or not (warning, note).
    public var severity: Severity
    /// The stable code, for tools and tests: `check.notOrderable`.
    public var code: DiagnosticCode
    /// What is wrong, in one sentence.
    public var message: String
    /// The part of the input it points at.
    public var span: SourceSpan
    /// Notes that explain it or suggest a fix.
    public var notes: [DiagnosticNote]

    /// A diagnostic of `severity` with `code` and `message`, pointing at `span`.
    public init(
        _ severity: Severity, _ code: DiagnosticCode, _ message: String,
        at span: SourceSpan, notes: [DiagnosticNote] = []
    ) {
        self.severity = severity
        self.code = code
        self.message = message
        self.span = span
        self.notes = notes
    }

    /// An error diagnostic.
    public static func error(
        _ code: DiagnosticCode, _ message: String, at span: SourceSpan,
        notes: [DiagnosticNote] = []
    ) -> Diagnostic {
        Diagnostic(.error, code, message, at: span, notes: notes)
    }

    /// A warning diagnostic.
    public static func warning(
        _ code: DiagnosticCode, _ message: String, at span: SourceSpan,
        notes: [DiagnosticNote] = []
    ) -> Diagnostic {
        Diagnostic(.warning, code, message, at: span, notes: notes)
    }

    /// The byte offsets a rendering resolves to lines and columns: the span's start
    /// and each note's.
    var offsets: [Int] { [span.start] + notes.compactMap { $0.span?.start } }

    /// Returns a copy with one more note.
    public func adding(note: DiagnosticNote) -> Diagnostic {
        var copy = self
        copy.notes.append(note)
        return copy
    }
}

extension Array where Element == Diagnostic {
    /// Whether any diagnostic is an error.
    public var containsErrors: Bool { contains { $0.severity == .error } }
}

/// Thrown by convenience entry points when a stage reported errors.
public struct DiagnosticsError: Error, Sendable, CustomStringConvertible {
    /// Everything the stage reported, errors and warnings, in source order.
    public var diagnostics: [Diagnostic]
    /// The input the diagnostics point into.
    public var source: String

    /// An error carrying `diagnostics` about `source`.
    public init(diagnostics: [Diagnostic], source: String) {
        self.diagnostics = diagnostics
        self.source = source
    }

    public var description: String {
        DiagnosticRenderer().render(diagnostics, in: source)
    }
}
