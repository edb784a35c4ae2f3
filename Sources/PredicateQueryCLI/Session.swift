// A session: a store and the settings queries run with. The one-shot command,
// piped input and the REPL all run queries through a session, so they behave
// the same way.

import Foundation
import PredicateQuery
import PredicateQuerySQLite

/// Where output goes: standard output and standard error by default.
struct Output: Sendable {
    var write: @Sendable (String) -> Void
    /// Writes UTF-8 text given as bytes (rows, many at a time).
    var writeUTF8: @Sendable (UnsafeRawBufferPointer) -> Void
    var writeError: @Sendable (String) -> Void
    /// Whether nothing more can be written: the output's reader has gone (a closed
    /// pipe) or a write failed (a full disk). A running query stops, and pq ends.
    var isClosed: @Sendable () -> Bool
    /// Whether to watch the output for its reader going while a query runs
    /// (`ClosedPipeWatch`): standard output is the process's own.
    var watchesForClosing = false

    static let standard = Output(
        write: { StandardStream.output.write($0) },
        writeUTF8: { StandardStream.output.write(utf8: $0) },
        writeError: { StandardStream.error.write($0) },
        isClosed: { StandardStream.output.state != .open },
        watchesForClosing: true)
}

final class Session {
    let open: OpenStore
    let output: Output
    var defaultEntity: String?
    var showSQL: Bool
    var explain: Bool
    var timer = false
    var format: CommandLineOptions.Format
    /// What tables and Markdown print for nil (`--null`, `.nullvalue`).
    var nullText: String
    /// The columns shown (`--columns`, `.columns`); nil for all.
    var columns: [String]?
    /// Parameter values as typed, converted when a query declares their type.
    var parameters: [String: String] = [:]
    /// `--sort`, `--limit`, `--offset`, `--count` and `--check`, for every query of the session.
    let overrides: Overrides
    /// `--emit swift`, `.emit swift`: print each query as Swift source instead of running it.
    var emitsSwift = false

    var store: any QueryStore { open.store }
    var schema: Schema { open.store.schema }

    init(open: OpenStore, options: CommandLineOptions, output: Output) {
        self.open = open
        self.output = output
        defaultEntity = options.entity
        showSQL = options.showSQL
        explain = options.explain
        format = options.format
        nullText = options.nullText ?? ResultFormatter.defaultNullText
        columns = options.columns
        emitsSwift = options.emitSwift
        overrides = Overrides(
            sort: options.sort, limit: options.limit, offset: options.offset, count: options.count,
            checkOnly: options.checkOnly, dumpTree: options.dumpTree)
        open.store.timeout = options.timeout
        for assignment in options.parameters { parameters[assignment.name] = assignment.value }
        if options.storePath == nil, options.modelPaths.isEmpty { preferredEntity = ExampleStore.defaultEntity }
    }

    /// Clauses from the command line that replace the query's own.
    struct Overrides {
        var sort: String?
        var limit: Int64?
        var offset: Int64?
        var count = false
        var checkOnly = false
        var dumpTree = false
    }

    /// The entity a query runs against when several fit and none is named: the
    /// example store's `ExampleStore.defaultEntity`; nil for other stores, where
    /// that is an error.
    var preferredEntity: String?

    /// A format string a query was expanded from (`--predicate-format`): its
    /// diagnostics point into the format, and its arguments are the parameters.
    struct FormatSource {
        var format: String
        var expansion: FormatExpansion

        /// Renders diagnostics about the expanded text, pointed into the format.
        func render(_ diagnostics: [Diagnostic]) -> String {
            renderFormat(expansion.originalDiagnostics(diagnostics))
        }

        /// Renders diagnostics that already point into the format.
        func renderFormat(_ diagnostics: [Diagnostic]) -> String {
            DiagnosticRenderer(fileName: "<format>").render(diagnostics, in: format)
        }
    }

    /// Runs one query and prints its result; false if it failed (the error is printed).
    @discardableResult
    func run(_ text: String, from source: FormatSource? = nil) -> Bool {
        let renderer = DiagnosticRenderer()
        let parsed = Parser.parse(text)
        guard let query = parsed.query else {
            output.writeError(source?.render(parsed.diagnostics) ?? renderer.render(parsed.diagnostics, in: text))
            return false
        }
        return run(query, source: text, renderer: renderer, format: source)
    }

    /// Runs a parsed query (from the text language, a format string or Swift);
    /// diagnostics render against `text`, or point into the format it came from.
    func run(
        _ parsedQuery: Query, source text: String, renderer: DiagnosticRenderer, format source: FormatSource? = nil
    )
        -> Bool
    {
        func render(_ diagnostics: [Diagnostic]) -> String {
            source?.render(diagnostics) ?? renderer.render(diagnostics, in: text)
        }
        func reworded(_ message: String) -> String { source?.expansion.reworded(message) ?? message }
        var query = parsedQuery
        if let sort = overrides.sort {
            let keys = Parser.parseSortKeys(sort)
            guard let sortQuery = keys.query else {
                output.writeError(DiagnosticRenderer(fileName: "<--sort>").render(keys.diagnostics, in: sort))
                return false
            }
            query.sortKeys = sortQuery.sortKeys
        }
        if let limit = overrides.limit { query.limit = QueryCount(.literal(limit)) }
        if let offset = overrides.offset { query.offset = QueryCount(.literal(offset)) }
        var result = QueryCompiler.compile(
            query, schema: schema, mapping: store.mapping, defaultEntity: defaultEntity, count: overrides.count,
            summaries: !overrides.count)
        if let preferred = preferredEntity, defaultEntity == nil, query.entity == nil,
            result.diagnostics.contains(where: { $0.code == .ambiguousEntity })
        {
            let retried = QueryCompiler.compile(
                query, schema: schema, mapping: store.mapping, defaultEntity: preferred, count: overrides.count,
                summaries: !overrides.count)
            if retried.compiled != nil {
                result = retried
                output.writeError(
                    "note: the query fits several entities; on the example store it runs against '\(preferred)' (name another with --entity)\n"
                )
            }
        }
        if !result.diagnostics.isEmpty { output.writeError(render(result.diagnostics)) }
        guard var compiled = result.compiled, let checked = result.checked else { return false }
        if overrides.checkOnly {
            output.write((overrides.dumpTree ? checked.typedDump : checkedText(query, checked)) + "\n")
            return true
        }
        do {
            if emitsSwift { return try emitSwift(query, checked, parameterValues(for: checked, from: source)) }
            let paths = try ResultFormatter.displayPaths(overrides.count ? nil : columns, of: checked.entity, schema: schema)
            if !paths.isEmpty {
                var withPaths = checked
                // In the order chosen, each once, so the SQL text is the same every run.
                var seen: Set<String> = []
                withPaths.displayPaths = (columns ?? []).compactMap { paths[$0] }.filter { seen.insert($0.dottedName).inserted }
                compiled = try SQLLowering.lower(withPaths, mapping: store.mapping, summaries: true)
            }
            if open.isModelOnly {
                // No store: the SQL for the layout the models imply, and what each placeholder takes.
                printUnboundSQL(compiled, source)
                return true
            }
            let values = try parameterValues(for: checked, from: source)
            if showSQL { try printSQL(compiled, values) }
            if explain {
                output.write(
                    try store.queryPlan(compiled, parameters: values).map { "QUERY PLAN: " + $0 }.joined(separator: "\n") + "\n")
            }
            var formatter = ResultFormatter(
                schema: schema, entity: checked.entity, nullText: nullText, chosenColumns: overrides.count ? nil : columns,
                displayPaths: paths)
            for case .attribute(let attribute) in compiled.columns {
                guard let dot = attribute.name.firstIndex(of: ".") else { continue }
                formatter.structFields[String(attribute.name[..<dot]), default: []].append(attribute)
            }
            if let problem = formatter.columnProblem { throw CLIError.query(problem) }
            let clock = ContinuousClock()
            let start = clock.now
            if overrides.count {
                output.write(String(try interruptible { try store.count(compiled, parameters: values) }) + "\n")
            } else {
                var stream = RowStream(formatter.printer(for: format), output: output)
                // Standard output's reader going while the query has nothing to write
                // yet stops it too (where the system tells).
                let running = RunningStore(store: store)
                let watch = output.watchesForClosing ? ClosedPipeWatch.start { running.store.interrupt() } : nil
                defer { watch?.stop() }
                do {
                    try interruptible { try store.fetch(compiled, parameters: values) { stream.add($0) } }
                } catch {
                    // Stopped because the reader went: nothing more to say, to no one.
                    if output.isClosed() { return true }
                    stream.abandon()
                    throw error
                }
                // The reader has gone or writing failed: the query stopped, and nothing
                // more can be shown (`CommandLineTool.main` says how pq ends).
                if output.isClosed() { return true }
                stream.finish()
            }
            if timer { output.write(String(format: "Run Time: %.3f s\n", (clock.now - start).seconds)) }
            return true
        } catch let error as RenderedDiagnostics {
            output.writeError(error.text)
        } catch let error as CLIError {
            output.writeError("error: \(reworded(error.message))\n")
        } catch let error as StoreError {
            output.writeError("error: \(reworded(error.message))\n")
        } catch {
            output.writeError("error: \(reworded("\(error)"))\n")
        }
        return false
    }

    /// Runs `body` with Ctrl-C set to interrupt the store's query.
    private func interruptible<T>(_ body: () throws -> T) throws -> T {
        Interruption.current = store
        defer {
            Interruption.current = nil
            store.clearInterrupt()
            Interruption.exitIfTerminating()
        }
        return try body()
    }

    /// The store of a running query, for stopping it from another thread
    /// (`QueryStore.interrupt` may be called from any thread; an interrupt that
    /// comes before the statement starts is kept for it).
    private struct RunningStore: @unchecked Sendable {
        let store: any QueryStore
    }

    /// Diagnostics already rendered, thrown past the rest of a run.
    private struct RenderedDiagnostics: Error {
        var text: String
    }

    private func parameterValues(
        for query: CheckedQuery, from source: FormatSource?
    ) throws
        -> [String: ParameterValue]
    {
        var values: [String: ParameterValue] = [:]
        if let source {
            let (given, diagnostics) = source.expansion.parameterValues(for: query.parameters)
            guard diagnostics.isEmpty else { throw RenderedDiagnostics(text: source.renderFormat(diagnostics)) }
            values = given
        }
        for declaration in query.parameters where values[declaration.name] == nil {
            guard let text = parameters[declaration.name] else {
                throw CLIError.query(
                    "the query needs a value for '$\(declaration.name)' (\(declaration.type)); give one with --param \(declaration.name)=VALUE or .param set \(declaration.name) VALUE"
                )
            }
            do {
                values[declaration.name] = try ParameterText.value(text, as: declaration.type, name: declaration.name)
            } catch {
                throw CLIError.query(error.message)
            }
        }
        return values
    }

    /// The SQL with its placeholders, and what each binds: constants as values,
    /// parameters by name (a list parameter's `?n[]` becomes one placeholder per value;
    /// an equality with a parameter shows as `=`, which becomes `IS` when it is bound to nil).
    private func printUnboundSQL(_ compiled: CompiledQuery, _ source: FormatSource?) {
        output.write("SQL: \(compiled.statement(listSizes: [:]))\n")
        /// A parameter of a format string is named by its specifier.
        func named(_ name: String) -> String { source?.expansion.label(of: name) ?? "$" + name }
        let shown = compiled.bindings.enumerated().map { index, binding -> String in
            let value: String
            switch binding {
            case .constant(let constant, _): value = Self.shown(constant)
            case .parameter(let name, let type): value = "\(named(name)) (\(type))"
            case .parameterList(let name, let type, let folding):
                value = "\(named(name)) ([\(type)])" + (folding.isEmpty ? "" : ", folded as \(folding.modifier)")
            case .currentDate(let function): value = "\(function.rawValue)()"
            case .prefixUpperBound(let of): value = "the successor of ?\(of + 1)"
            case .count(let name): value = "$\(name) (Int)"
            case .pattern(_, let of): value = "the PostgreSQL pattern for ?\(of + 1)"
            }
            return "?\(index + 1) = \(value)"
        }
        output.write("bindings: " + (shown.isEmpty ? "none" : shown.joined(separator: ", ")) + "\n")
    }

    private func printSQL(_ compiled: CompiledQuery, _ values: [String: ParameterValue]) throws {
        let resolved = try BindingResolver.resolve(compiled, parameters: values, environment: QueryEnvironment())
        output.write("SQL: \(resolved.sql)\n")
        let shown = resolved.values.enumerated().map { "\(compiled.placeholder($0.offset)) = \(Self.shown($0.element))" }
        output.write("bindings: " + (shown.isEmpty ? "none" : shown.joined(separator: ", ")) + "\n")
    }

    /// A bound value as printed; a long string (such as the classes and maps pq binds
    /// for PostgreSQL's [c]/[d] tests) is cut short, with its length.
    static func shown(_ value: Value) -> String {
        guard case .string(let text) = value, text.unicodeScalars.count > 120 else { return "\(value)" }
        var view = String.UnicodeScalarView()
        view.append(contentsOf: text.unicodeScalars.prefix(60))
        return "\(Value.string(String(view) + "…")) (\(text.unicodeScalars.count) characters)"
    }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
