// A session: a store and the settings queries run with. The one-shot command,
// piped input and the REPL all run queries through a session, so they behave
// the same way.

import Foundation
import PredicateQuery
import PredicateQuerySQLite

/// Where output goes: standard output and standard error by default.
struct Output: Sendable {
    var write: @Sendable (String) -> Void
    var writeError: @Sendable (String) -> Void

    static let standard = Output(
        write: { text in FileHandle.standardOutput.write(Data(text.utf8)) },
        writeError: { text in FileHandle.standardError.write(Data(text.utf8)) })
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
        overrides = Overrides(
            sort: options.sort, limit: options.limit, offset: options.offset, count: options.count,
            checkOnly: options.checkOnly)
        open.store.timeout = options.timeout
        for assignment in options.parameters { parameters[assignment.name] = assignment.value }
    }

    /// Clauses from the command line that replace the query's own.
    struct Overrides {
        var sort: String?
        var limit: Int64?
        var offset: Int64?
        var count = false
        var checkOnly = false
    }

    /// Runs one query and prints its result; false if it failed (the error is printed).
    @discardableResult
    func run(_ text: String) -> Bool {
        let renderer = DiagnosticRenderer()
        let parsed = Parser.parse(text)
        guard var query = parsed.query else {
            output.writeError(renderer.render(parsed.diagnostics, in: text))
            return false
        }
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
        let result = QueryCompiler.compile(
            query, schema: schema, mapping: store.mapping, defaultEntity: defaultEntity, count: overrides.count,
            summaries: !overrides.count)
        if !result.diagnostics.isEmpty { output.writeError(renderer.render(result.diagnostics, in: text)) }
        guard var compiled = result.compiled, let checked = result.checked else { return false }
        if overrides.checkOnly {
            output.write(checked.typedDump + "\n")
            return true
        }
        do {
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
                printUnboundSQL(compiled)
                return true
            }
            let values = try parameterValues(for: checked)
            if showSQL { try printSQL(compiled, values) }
            if explain {
                output.write(
                    try store.queryPlan(compiled, parameters: values).map { "QUERY PLAN: " + $0 }.joined(separator: "\n") + "\n")
            }
            let formatter = ResultFormatter(
                schema: schema, entity: checked.entity, nullText: nullText, chosenColumns: overrides.count ? nil : columns,
                displayPaths: paths)
            if let problem = formatter.columnProblem { throw CLIError.query(problem) }
            let clock = ContinuousClock()
            let start = clock.now
            if overrides.count {
                output.write(String(try interruptible { try store.count(compiled, parameters: values) }) + "\n")
            } else {
                let rows = try interruptible { try store.fetch(compiled, parameters: values) }
                output.write(formatter.format(rows, as: format))
            }
            if timer { output.write(String(format: "Run Time: %.3f s\n", (clock.now - start).seconds)) }
            return true
        } catch let error as CLIError {
            output.writeError("error: \(error.message)\n")
        } catch let error as StoreError {
            output.writeError("error: \(error.message)\n")
        } catch {
            output.writeError("error: \(error)\n")
        }
        return false
    }

    /// Runs `body` with Ctrl-C set to interrupt the store's query.
    private func interruptible<T>(_ body: () throws -> T) throws -> T {
        Interruption.current = store
        defer { Interruption.current = nil }
        return try body()
    }

    private func parameterValues(for query: CheckedQuery) throws(CLIError) -> [String: ParameterValue] {
        var values: [String: ParameterValue] = [:]
        for declaration in query.parameters {
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
    /// parameters by name (a list parameter's `?n[]` becomes one placeholder per value).
    private func printUnboundSQL(_ compiled: CompiledQuery) {
        output.write("SQL: \(compiled.sql)\n")
        let shown = compiled.bindings.enumerated().map { index, binding -> String in
            let value: String
            switch binding {
            case .constant(let constant, _): value = "\(constant)"
            case .parameter(let name, let type): value = "$\(name) (\(type))"
            case .parameterList(let name, let type): value = "$\(name) ([\(type)])"
            case .currentDate(let function): value = "\(function.rawValue)()"
            case .prefixUpperBound(let of): value = "the successor of ?\(of + 1)"
            case .count(let name): value = "$\(name) (Int)"
            }
            return "?\(index + 1) = \(value)"
        }
        output.write("bindings: " + (shown.isEmpty ? "none" : shown.joined(separator: ", ")) + "\n")
    }

    private func printSQL(_ compiled: CompiledQuery, _ values: [String: ParameterValue]) throws {
        let resolved = try BindingResolver.resolve(compiled, parameters: values, environment: QueryEnvironment())
        output.write("SQL: \(resolved.sql)\n")
        let sign = compiled.mapping.database == .postgreSQL ? "$" : "?"
        let shown = resolved.values.enumerated().map { "\(sign)\($0.offset + 1) = \($0.element)" }
        output.write("bindings: " + (shown.isEmpty ? "none" : shown.joined(separator: ", ")) + "\n")
    }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
