// One fuzz input through every stage of pq, with the invariants each must keep.
//
// The coverage-guided fuzzer (Fuzz/, libFuzzer) calls `violations(of:)` on
// arbitrary bytes and aborts when it returns any; `swift test` replays every
// committed regression input through the same function. The invariants:
//
// - nothing crashes or hangs (the fuzzer itself watches for those);
// - a query that parses prints as text that parses back to the same tree;
// - a query that checks lowers to SQL holding no literal from the query;
// - on the example data, SQLite returns exactly the evaluator's rows, in order,
//   or both fail.

import Foundation
import PredicateQuery
import PredicateQueryExamples
import PredicateQuerySQLite

public enum FuzzPipeline {
    /// How far an input got through the pipeline.
    public enum Stage: Int, Comparable, Sendable {
        /// The parser rejected it (with diagnostics).
        case rejectedByParser
        /// It parsed; the checker rejected it.
        case rejectedByChecker
        /// It checked and lowered; SQLite and the evaluator both ran it (or both failed).
        case executed

        public static func < (lhs: Stage, rhs: Stage) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// What happened to one input.
    public struct Outcome: Sendable {
        public var stage: Stage
        /// Every broken invariant; empty when all hold.
        public var violations: [String]
    }

    /// Every broken invariant for this input; empty when all hold.
    public static func violations(of bytes: [UInt8]) -> [String] {
        run(bytes).violations
    }

    /// Runs one input through every stage and checks the invariants. One input at a
    /// time: the shared fixture's store is one SQLite connection (with its kept
    /// statements), and `swift test` runs test cases on several threads at once.
    public static func run(_ bytes: [UInt8]) -> Outcome {
        fixtureLock.lock()
        defer { fixtureLock.unlock() }
        let text = String(decoding: bytes, as: UTF8.self)
        var problems: [String] = []
        let parsed = Parser.parse(text)
        guard let query = parsed.query else {
            if parsed.diagnostics.isEmpty { problems.append("the parser gave neither a query nor a diagnostic: \(text.debugDescription)") }
            return Outcome(stage: .rejectedByParser, violations: problems)
        }
        let printed = Printer.print(query)
        var reparsed = Parser.parse(printed)
        if reparsed.query == nil, reparsed.diagnostics.allSatisfy({ $0.code == .nestingTooDeep }) {
            // The printer parenthesizes a comparison under `!` (`!(a == b)`), one level
            // more than `NOT a == b`; near the depth limit those levels can tip it over.
            // It adds no other depth, so it gets one extra level per `!`.
            let extra = query.predicate.map(Self.negationCount) ?? 0
            let limits = Limits(maxNestingDepth: Limits.standard.maxNestingDepth + extra)
            reparsed = Parser.parse(printed, limits: limits)
        }
        if reparsed.query?.syntaxDump != query.syntaxDump {
            problems.append("round trip: \(text.debugDescription) printed as \(printed.debugDescription)")
        }
        guard let fixture = FuzzFixture.shared else {
            return Outcome(stage: .rejectedByParser, violations: ["the fuzz fixture could not be created"])
        }
        // A query that names no entity is checked as pq infers it; if that fails,
        // against an entity picked by the input's first byte.
        var result = QueryCompiler.compile(query, schema: fixture.schema, mapping: fixture.store.mapping)
        if result.compiled == nil, !fixture.schema.entities.isEmpty {
            let entity = fixture.schema.entities[Int(bytes.first ?? 0) % fixture.schema.entities.count].name
            result = QueryCompiler.compile(query, schema: fixture.schema, mapping: fixture.store.mapping, defaultEntity: entity)
        }
        guard let compiled = result.compiled, let checked = result.checked else {
            if result.diagnostics.isEmpty { problems.append("the checker gave neither a query nor a diagnostic: \(text.debugDescription)") }
            return Outcome(stage: .rejectedByChecker, violations: problems)
        }
        if let literal = SQLLiteralCheck.literal(in: compiled.sql) {
            problems.append("literal in SQL (\(literal)): \(text.debugDescription)\n\(compiled.sql)")
        }
        let parameters = FuzzParameters.values(for: checked)
        let evaluated = Result { try Evaluator(graph: fixture.graph, parameters: parameters, environment: fixture.environment).run(checked) }
        let fetched = Result { try fixture.store.fetch(compiled, parameters: parameters, environment: fixture.environment).map(\.id) }
        switch (evaluated, fetched) {
        case (.success(let expected), .success(let actual)) where expected != actual:
            problems.append("SQLite and the evaluator disagree on \(text.debugDescription):\nevaluator \(expected)\nSQLite    \(actual)\n\(compiled.sql)")
        case (.failure(let error), .success):
            problems.append("the evaluator failed (\(error)) where SQLite did not: \(text.debugDescription)")
        case (.success, .failure(let error)):
            problems.append("SQLite failed (\(error)) where the evaluator did not: \(text.debugDescription)\n\(compiled.sql)")
        default:
            break
        }
        return Outcome(stage: .executed, violations: problems)
    }
}

extension FuzzPipeline {
    /// The number of `!` nodes in a tree, counted without recursion.
    static func negationCount(_ root: Expr) -> Int {
        var count = 0
        var stack = [root]
        while let expr = stack.popLast() {
            if case .not = expr.kind { count += 1 }
            stack.append(contentsOf: expr.children)
        }
        return count
    }
}

private let fixtureLock = NSLock()

/// The store, data and schema fuzz inputs run against: the hand-written example
/// objects of every example model, in memory, created once.
public struct FuzzFixture: @unchecked Sendable {
    public let schema: Schema
    public let graph: ObjectGraph
    public let store: SQLiteStore
    public let environment = QueryEnvironment(
        now: Date(timeIntervalSinceReferenceDate: 740_145_600), timeZone: TimeZone(identifier: "UTC") ?? .current)

    public static let shared: FuzzFixture? = {
        let graph = ExampleData.graph()
        guard let store = try? SQLiteStore.create(at: ":memory:", schema: ExampleSchemas.combined),
            (try? store.insert(graph)) != nil
        else { return nil }
        store.timeout = .seconds(5)
        return FuzzFixture(schema: ExampleSchemas.combined, graph: graph, store: store)
    }()
}

/// Values for the parameters a fuzzed query declares: the same for SQLite and the
/// evaluator, chosen by type so both run.
enum FuzzParameters {
    static func values(for query: CheckedQuery) -> [String: ParameterValue] {
        var values: [String: ParameterValue] = [:]
        for declaration in query.parameters {
            if case .list(let element) = declaration.type {
                values[declaration.name] = .list([value(element), value(element)])
            } else {
                values[declaration.name] = .single(value(declaration.type))
            }
        }
        return values
    }

    private static func value(_ type: ValueType) -> Value {
        switch type {
        case .bool: .bool(true)
        case .int: .int(2)
        case .double, .duration: .double(100)
        case .string, .url: .string("Vac")
        case .date: .date(Date(timeIntervalSinceReferenceDate: 730_000_000))
        case .uuid: .uuid(UUID(uuid: (0, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, 1)))
        case .enumeration(let enumType):
            switch enumType.cases.first?.rawValue {
            case .int(let raw)?: .int(raw)
            case .string(let raw)?: .string(raw)
            case nil: .null
            }
        default: .null
        }
    }
}
