// The whole pipeline in one call: text → syntax tree → checked query → SQL.

/// The outcome of compiling query text.
public struct CompileResult: Sendable {
    /// The SQL, when every stage succeeded.
    public var compiled: CompiledQuery?
    /// The checked query, when parsing and checking succeeded.
    public var checked: CheckedQuery?
    /// Every diagnostic of every stage, warnings included.
    public var diagnostics: [Diagnostic]
}

extension DiagnosticCode {
    /// The store's tables do not match the schema (a missing table or column).
    public static let storeMismatch: DiagnosticCode = "lower.storeMismatch"
    /// The SQL would nest deeper than SQLite's parser can read.
    public static let sqlTooDeep: DiagnosticCode = "limit.sqlNesting"
    /// The query binds more values than SQLite allows in one statement.
    public static let tooManyBoundValues: DiagnosticCode = "limit.boundValues"
}

/// Compiles query text for a store.
public enum QueryCompiler {
    /// Parses, checks and lowers `text`.
    public static func compile(
        _ text: String, schema: Schema, mapping: StoreMapping, defaultEntity: String? = nil, count: Bool = false,
        summaries: Bool = false, limits: Limits = .standard
    ) -> CompileResult {
        let parsed = Parser.parse(text, limits: limits)
        guard let query = parsed.query else {
            return CompileResult(compiled: nil, checked: nil, diagnostics: parsed.diagnostics)
        }
        return compile(
            query, schema: schema, mapping: mapping, defaultEntity: defaultEntity, count: count, summaries: summaries,
            limits: limits)
    }

    /// Checks and lowers a syntax tree (from the parser, or built in code).
    public static func compile(
        _ query: Query, schema: Schema, mapping: StoreMapping, defaultEntity: String? = nil, count: Bool = false,
        summaries: Bool = false, limits: Limits = .standard
    ) -> CompileResult {
        let checked = TypeChecker.check(query, schema: schema, defaultEntity: defaultEntity, limits: limits)
        guard let result = checked.query else {
            return CompileResult(compiled: nil, checked: nil, diagnostics: checked.diagnostics)
        }
        if let deadline = limits.deadline, ContinuousClock.now >= deadline {
            let late = TypeChecker.deadlineError(at: query.predicate?.span ?? .point(0))
            return CompileResult(compiled: nil, checked: result, diagnostics: checked.diagnostics + [late])
        }
        // Counted on the checked tree, before lowering spends time on SQL that cannot run.
        let values = result.boundValueCount
        if values > BindingResolver.maxPlaceholders {
            let refused = Diagnostic.error(
                .tooManyBoundValues, BindingResolver.tooManyValuesMessage(values), at: query.predicate?.span ?? .point(0))
            return CompileResult(compiled: nil, checked: result, diagnostics: checked.diagnostics + [refused])
        }
        do {
            let compiled = try SQLLowering.lower(result, mapping: mapping, count: count, summaries: summaries)
            return CompileResult(compiled: compiled, checked: result, diagnostics: checked.diagnostics)
        } catch {
            var span = error.code == .sqlTooDeep ? (query.predicate?.span ?? .point(0)) : .point(0)
            if let literal = error.literal, let found = query.predicate.flatMap({ Self.span(of: literal, in: $0) }) {
                span = found
            }
            let diagnostic = Diagnostic.error(error.code, error.message, at: span)
            return CompileResult(compiled: nil, checked: result, diagnostics: checked.diagnostics + [diagnostic])
        }
    }

    /// The span of the first string literal written as `text`, scalar by scalar.
    private static func span(of text: String, in expr: Expr) -> SourceSpan? {
        if case .literal(.string(let value)) = expr.kind, value.unicodeScalars.elementsEqual(text.unicodeScalars) {
            return expr.span
        }
        for child in expr.children {
            if let found = span(of: text, in: child) { return found }
        }
        return nil
    }
}
