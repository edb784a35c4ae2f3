// The type checker: a syntax tree and a schema to a typed query.
//
// It resolves names against the entity, gives every expression a type, turns enum
// cases into raw values, and rejects what cannot be queried (computed and
// transient properties, to-many paths without a quantifier, …), each with its own
// diagnostic code. It does not stop at the first error: every independent problem
// in the input is reported. When no entity is named, it tries each entity of the
// schema and keeps the one the query type-checks against.

/// Checks parsed queries against a schema.
public struct TypeChecker {
    let schema: Schema
    /// The entity whose objects the query filters (level 0).
    let root: Entity
    /// The first `Parser.maxDiagnostics` diagnostics; the rest are only counted.
    var diagnostics: [Diagnostic] = []
    /// How many diagnostics were found beyond those kept.
    var omittedDiagnostics = 0
    var parameters: [ParameterDeclaration] = []
    /// Closure and SUBQUERY variables in scope, innermost last.
    var scopes: [Scope] = []
    /// The level of the innermost bound element; 0 at the top.
    var level = 0
    /// Counter for the variables quantifiers introduce.
    var syntheticVariables = 0
    /// Parameters used as `matches` patterns.
    var patternParameters: Set<String> = []
    /// `Limits.deadline`: the clock is read every 1,024 expressions checked.
    var deadline: ContinuousClock.Instant?
    var expressionsChecked = 0
    /// Whether the deadline passed; every check then fails at once.
    var passedDeadline = false

    /// A variable bound by a closure, a SUBQUERY or a quantifier.
    struct Scope {
        var name: String
        var level: Int
        var entity: Entity
    }

    /// The outcome of checking: a checked query when there were no errors, and every diagnostic.
    public struct Result: Sendable {
        /// The checked query, or nil when the query has errors.
        public var query: CheckedQuery?
        /// The errors and warnings, in source order.
        public var diagnostics: [Diagnostic]
        /// Diagnostics found beyond the ones kept (the last kept one says how many).
        var omitted = 0
    }

    init(schema: Schema, root: Entity) {
        self.schema = schema
        self.root = root
    }

    /// Checks `query`. Its own entity wins over `defaultEntity` (the CLI's `--entity`,
    /// the REPL's `.use`); with neither, the entity is inferred.
    public static func check(
        _ query: Query, schema: Schema, defaultEntity: String? = nil, limits: Limits = .standard
    ) -> Result {
        if let violation = query.limitViolation(limits) {
            return Result(query: nil, diagnostics: [violation])
        }
        if let name = query.entity?.text ?? defaultEntity {
            guard let entity = schema.entity(named: name) else {
                let span = query.entity?.span ?? .synthesized
                let note = NameSuggestion.note(for: name, among: schema.entities.map(\.name))
                return Result(
                    query: nil,
                    diagnostics: [
                        .error(
                            .unknownEntity, "cannot find entity '\(name)' in the schema", at: span,
                            notes: note.map { [$0] } ?? [])
                    ])
            }
            return check(query, against: entity, schema: schema, deadline: limits.deadline)
        }
        return inferEntity(for: query, schema: schema, deadline: limits.deadline)
    }

    /// Checks the query against one entity.
    static func check(
        _ query: Query, against entity: Entity, schema: Schema, deadline: ContinuousClock.Instant? = nil
    ) -> Result {
        var checker = TypeChecker(schema: schema, root: entity)
        checker.deadline = deadline
        let predicate = query.predicate.flatMap { checker.checkPredicate($0) }
        let sortKeys = query.sortKeys.compactMap { checker.checkSortKey($0) }
        let limit = query.limit.map { checker.checkCount($0) }
        let offset = query.offset.map { checker.checkCount($0) }
        if checker.passedDeadline {
            // The only answer: what was found so far is not all there is.
            return Result(query: nil, diagnostics: [Self.deadlineError(at: query.predicate?.span ?? .point(0))])
        }
        var diagnostics = checker.diagnostics.sorted { $0.span.start < $1.span.start }
        let omitted = checker.omittedDiagnostics
        if omitted > 0, !diagnostics.isEmpty {
            diagnostics[diagnostics.count - 1].notes.append(
                DiagnosticNote("and \(omitted) more not shown; pq reports at most \(Parser.maxDiagnostics) per input"))
        }
        guard !diagnostics.containsErrors else {
            return Result(query: nil, diagnostics: diagnostics, omitted: omitted)
        }
        let checked = CheckedQuery(
            schema: schema, entity: entity, predicate: predicate, sortKeys: sortKeys, limit: limit,
            offset: offset, parameters: checker.parameters, patternParameters: checker.patternParameters,
            warnings: diagnostics)
        return Result(query: checked, diagnostics: diagnostics)
    }

    /// The error of a check that ran past `Limits.deadline`.
    static func deadlineError(at span: SourceSpan) -> Diagnostic {
        .error(.deadlinePassed, "checking the query took longer than its time budget allows", at: span)
    }

    /// The entities that have a property for the first name of every key path the
    /// query starts from the object (an enum constant such as `Genre.action` aside).
    private static func candidateEntities(for query: Query, schema: Schema) -> [Entity] {
        // A query names a few properties: an array is cheaper than a set here.
        var names: [String] = []
        func note(_ path: PropertyPath) {
            guard case .object = path.root, let first = path.components.first?.name, !names.contains(first) else { return }
            if path.components.count == 2, schema.enumType(named: first) != nil { return }
            names.append(first)
        }
        // The parser's limits (or the limit walk, for a tree built in code) bound
        // the depth, so this recursion is safe.
        func visit(_ expr: Expr) {
            if case .keyPath(let path) = expr.kind { note(path) }
            expr.forEachChild(visit)
        }
        if let predicate = query.predicate { visit(predicate) }
        for key in query.sortKeys { note(key.path) }
        return schema.entities.filter { entity in names.allSatisfy { schema.hasProperty(named: $0, of: entity) } }
    }

    /// With no entity named: the one entity the query checks against.
    private static func inferEntity(
        for query: Query, schema: Schema, deadline: ContinuousClock.Instant?
    ) -> Result {
        if query.predicate == nil, query.sortKeys.isEmpty {
            if schema.entities.count == 1, let only = schema.entities.first {
                return check(query, against: only, schema: schema, deadline: deadline)
            }
            let names = schema.entities.map(\.name).joined(separator: ", ")
            return Result(
                query: nil,
                diagnostics: [
                    .error(
                        .missingEntity, "the query names no entity and has no condition to infer one from",
                        at: .point(0),
                        notes: [
                            DiagnosticNote("name one of \(names), as in '\(schema.entities.first?.name ?? "Entity") where …'")
                        ])
                ])
        }
        // Only entities with every property the query names at its top level can
        // match; checking those first keeps inference cheap. The others are checked
        // only when no candidate matches, for the diagnostics.
        let candidates = candidateEntities(for: query, schema: schema)
        var attempts = candidates.map { (entity: $0, result: check(query, against: $0, schema: schema, deadline: deadline)) }
        // The usual case, one candidate that the query checks against, without the
        // bookkeeping below (which reaches the same result for it).
        if attempts.count == 1, let only = attempts.first?.result, only.query != nil,
            !only.diagnostics.contains(where: { $0.code == .deadlinePassed })
        {
            return only
        }
        var matches = attempts.filter { $0.result.query != nil }
        if matches.isEmpty {
            attempts = schema.entities.map { (entity: $0, result: check(query, against: $0, schema: schema, deadline: deadline)) }
            matches = attempts.filter { $0.result.query != nil }
        }
        let span = query.predicate?.span ?? query.sortKeys.first?.span ?? .point(0)
        if let late = attempts.lazy.compactMap({ $0.result.diagnostics.first { $0.code == .deadlinePassed } }).first {
            return Result(query: nil, diagnostics: [late])
        }
        if matches.count == 1 { return matches[0].result }
        if matches.count > 1 {
            let names = matches.map(\.entity.name).sorted().map { "'\($0)'" }.joined(separator: ", ")
            return Result(
                query: nil,
                diagnostics: [
                    .error(
                        .ambiguousEntity, "the query type-checks against several entities: \(names)", at: span,
                        notes: [DiagnosticNote("name one, as in '\(matches[0].entity.name) where …'")])
                ])
        }
        if let unknown = unknownEverywhere(attempts.map(\.result), query: query, schema: schema) {
            return Result(query: nil, diagnostics: [unknown])
        }
        guard let best = attempts.min(by: { isCloser($0.result, than: $1.result) }) else {
            return Result(
                query: nil,
                diagnostics: [
                    .error(.missingEntity, "the schema has no entities", at: span)
                ])
        }
        var diagnostics = best.result.diagnostics
        if schema.entities.count > 1, let first = diagnostics.firstIndex(where: { $0.severity == .error }) {
            diagnostics[first].notes.append(
                DiagnosticNote(
                    "no entity was named, and none matches; checked against '\(best.entity.name)', the closest"))
        }
        return Result(query: nil, diagnostics: diagnostics)
    }

    /// When the first error against every entity is the same unknown name, one
    /// error that says so beats a guess at the entity meant.
    private static func unknownEverywhere(_ results: [Result], query: Query, schema: Schema) -> Diagnostic? {
        let firsts = results.map { $0.diagnostics.first { $0.severity == .error } }
        guard schema.entities.count > 1, let first = firsts.first, let span = first?.span,
            firsts.allSatisfy({ $0?.code == .unknownProperty && $0?.span == span })
        else { return nil }
        guard let name = componentName(at: span, in: query) else { return nil }
        let candidates = Set(schema.entities.flatMap { schema.allProperties(of: $0).map(\.name) }).sorted()
        let note = NameSuggestion.note(for: name, among: candidates)
        return .error(
            .unknownProperty, "cannot find '\(name)' in any entity of the schema", at: span,
            notes: (note.map { [$0] } ?? []) + [DiagnosticNote("no entity was named, so pq looked in all of them")])
    }

    /// The key path component written at `span`, in the predicate or the sort keys.
    private static func componentName(at span: SourceSpan, in query: Query) -> String? {
        var paths = query.sortKeys.map(\.path)
        var stack = query.predicate.map { [$0] } ?? []
        while let expr = stack.popLast() {
            if case .keyPath(let path) = expr.kind { paths.append(path) }
            stack += expr.children
        }
        return paths.lazy.flatMap(\.components).first { $0.span == span }?.name
    }

    /// Whether a query fails less badly against one entity than another: fewer
    /// names the entity does not have, then fewer errors, then a first error that
    /// comes later in the text (the check got further).
    private static func isCloser(_ lhs: Result, than rhs: Result) -> Bool {
        func score(_ result: Result) -> (Int, Int, Int) {
            let errors = result.diagnostics.filter { $0.severity == .error }
            let unknown = errors.filter { $0.code == .unknownProperty }.count
            return (unknown, errors.count + result.omitted, -(errors.first?.span.start ?? 0))
        }
        return score(lhs) < score(rhs)
    }

    // MARK: - Reporting

    /// Records an error; returns nil so callers can `return error(…)`.
    mutating func error<T>(
        _ code: DiagnosticCode, _ message: @autoclosure () -> String, at span: SourceSpan,
        notes: @autoclosure () -> [DiagnosticNote] = []
    ) -> T? {
        record(.error(code, message(), at: span, notes: notes()))
        return nil
    }

    mutating func warning(
        _ code: DiagnosticCode, _ message: @autoclosure () -> String, at span: SourceSpan,
        notes: @autoclosure () -> [DiagnosticNote] = []
    ) {
        record(.warning(code, message(), at: span, notes: notes()))
    }

    /// Keeps a diagnostic while fewer than `Parser.maxDiagnostics` are kept, and
    /// otherwise only counts it, without building its message and notes.
    mutating func record(_ diagnostic: @autoclosure () -> Diagnostic) {
        guard diagnostics.count < Parser.maxDiagnostics else {
            omittedDiagnostics += 1
            return
        }
        diagnostics.append(diagnostic())
    }

    // MARK: - Query parts

    /// A predicate: any expression of type Bool.
    mutating func checkPredicate(_ expr: Expr) -> TypedExpr? {
        guard let typed = check(expr, expecting: .bool) else { return nil }
        guard typed.type == .bool else {
            return error(
                .notABoolean, "expected a condition, but this is a value of type '\(typed.type)'",
                at: expr.span, notes: Self.conditionHint(for: typed))
        }
        return typed
    }

    private static func conditionHint(for typed: TypedExpr) -> [DiagnosticNote] {
        switch typed.type {
        case .string: [DiagnosticNote("compare it, as in 'name == \"…\"', or test it, as in 'name contains \"…\"'")]
        case .int, .double: [DiagnosticNote("compare it, as in 'x > 0'")]
        default: []
        }
    }

    /// `limit n`, `offset n`: a literal, or a parameter of type Int.
    private mutating func checkCount(_ count: QueryCount) -> CheckedCount {
        switch count.value {
        case .literal(let value): return .literal(value)
        case .parameter(let name):
            _ = declareParameter(name, type: .int, at: count.span)
            return .parameter(name)
        }
    }
}
