// Every string operator through every stage of pq (issue 25): its row in
// `StringOperator` is the one place a new operator is named, and this test fails,
// naming the operator and the stage, for each stage that does not know it yet.
//
// The stages: its keyword parses (in any case, with a modifier) and is reserved;
// its Swift methods parse the same in pq's text and in `#Predicate` closures, and
// both parsers list them when a method is unknown; the
// checker types it; SQLite runs the lowered SQL (through the function its row
// names) and agrees with the evaluator, which agrees with `StringFunctions.test`
// on every example object; PostgreSQL lowering takes it; the printer writes it so
// that it parses back; the Foundation export builds it or refuses it by name, as
// its row says; a misspelling gets "did you mean"; the REPL completes it; and the
// grammar, Grammar/pq.ebnf, lists its keyword and methods. This target is the one
// that sees every stage (the REPL's completion lives in the CLI).

import Foundation
import PredicateQueryExamples
import PredicateQueryModels
import PredicateQueryTestSupport
import Testing

@testable import PredicateQuery
@testable import PredicateQueryCLI
@testable import PredicateQuerySQLite

struct OperatorTableTests {
    /// A right operand of the kind the operator takes, which some example budgets'
    /// names match: a whole name is one's prefix, suffix and substring.
    static func operand(of op: StringOperator) -> String {
        switch op.definition.operand {
        case .text: firstBudgetName
        case .likePattern: "*a*"
        case .regex: ".*a.*"
        }
    }

    /// The name of the first example budget.
    static let firstBudgetName: String = {
        let graph = ExampleData.graph()
        let first = graph.objectsByEntity["Budget"]?.first.flatMap { graph[$0]?.value("name") }
        if case .string(let name)? = first { return name }
        return "a"
    }()

    /// `operand(of:)` as a string literal of pq's text.
    static func quotedOperand(of op: StringOperator) -> String { Printer.quoted(operand(of: op)) }

    static let modifiers: [StringOptions] = [[], [.caseInsensitive], [.caseInsensitive, .diacriticInsensitive]]

    /// The operator and options of a query's predicate, if it is one string test.
    static func stringTest(in query: Query?) -> (StringOperator, StringOptions)? {
        guard case .stringTest(let op, _, _, let options)? = query?.predicate?.kind else { return nil }
        return (op, options)
    }

    @Test(arguments: StringOperator.allCases)
    func theKeywordParsesAndIsReserved(_ op: StringOperator) {
        for keyword in [op.keyword, op.keyword.uppercased()] {
            for options in Self.modifiers {
                let text = "Budget where name \(keyword)\(options.modifier) \(Self.quotedOperand(of: op))"
                let parsed = Parser.parse(text)
                let found = Self.stringTest(in: parsed.query)
                #expect(
                    found?.0 == op && found?.1 == options,
                    "'\(op.keyword)', parser: \(text) reads as \(parsed.query?.predicate?.syntaxDump ?? "an error: \(parsed.diagnostics.map(\.message))")"
                )
            }
        }
        #expect(Parser.isReserved(op.keyword), "'\(op.keyword)', parser: the keyword is not reserved")
    }

    @Test(arguments: StringOperator.allCases)
    func itsSwiftMethodsParseInTextAndInPredicates(_ op: StringOperator) {
        for method in op.definition.swiftMethods {
            let argument = (method.label.map { "\($0): " } ?? "")
            let text = "Budget where name.\(method.name)(\(argument)'a')"
            let parsed = Self.stringTest(in: Parser.parse(text).query)
            #expect(
                parsed?.0 == op && parsed?.1 == method.options,
                "'\(op.keyword)', text parser: \(text) is not the operator with \(method.options.modifier)")
            let swift = "#Predicate<Budget> { $0.name.\(method.name)(\(argument)\"a\") }"
            let read = SwiftPredicate.parse(swift)
            let fromSwift = Self.stringTest(in: read.query)
            #expect(
                fromSwift?.0 == op && fromSwift?.1 == method.options,
                "'\(op.keyword)', Swift predicate parser: \(swift) is not the operator with \(method.options.modifier): \(read.diagnostics.map(\.message))"
            )
        }
        if let own = op.definition.pqSwiftMethod {
            let swift = "#Predicate<Budget> { $0.name.\(own.name)(\"a\", options: .caseInsensitive) }"
            let read = SwiftPredicate.parse(swift)
            let found = Self.stringTest(in: read.query)
            #expect(
                found?.0 == op && found?.1 == [.caseInsensitive],
                "'\(op.keyword)', Swift predicate parser: pq's own \(swift) is not the operator with [c]: \(read.diagnostics.map(\.message))"
            )
        }
    }

    @Test(arguments: StringOperator.allCases)
    func anUnknownMethodsNoteListsItsSwiftMethods(_ op: StringOperator) {
        let text = Parser.parse("Budget where name.frobnicate('a')").diagnostics.flatMap(\.notes).map(\.message)
        let swift = SwiftPredicate.parse("#Predicate<Budget> { $0.name.frobnicate(\"a\") }").diagnostics.flatMap(\.notes)
            .map(\.message)
        if let own = op.definition.pqSwiftMethod {
            #expect(
                swift.contains { $0.contains("\(own.name)(") },
                "'\(op.keyword)', Swift predicate parser: the note on an unknown method does not list \(own.name): \(swift)")
        }
        for method in op.definition.swiftMethods {
            #expect(
                text.contains { $0.contains("\(method.name)(") },
                "'\(op.keyword)', text parser: the note on an unknown method does not list \(method.name): \(text)")
            #expect(
                swift.contains { $0.contains("\(method.name)(") },
                "'\(op.keyword)', Swift predicate parser: the note on an unknown method does not list \(method.name): \(swift)")
        }
    }

    @Test(arguments: StringOperator.allCases)
    func sqliteAndTheEvaluatorAgreeWithItsMeaning(_ op: StringOperator) throws {
        let graph = ExampleData.graph()
        let store = try SQLiteStore.create(at: ":memory:", schema: ExampleSchemas.combined, layout: .coreData)
        try store.insert(graph)
        let operand = Self.operand(of: op)
        for options in Self.modifiers {
            let text = "Budget where name \(op.keyword)\(options.modifier) \(Printer.quoted(operand))"
            let result = QueryCompiler.compile(text, schema: store.schema, mapping: store.mapping)
            guard let compiled = result.compiled, let checked = result.checked else {
                Issue.record(
                    "'\(op.keyword)', checker or lowering: \(text) does not compile: \(result.diagnostics.map(\.message))")
                continue
            }
            if !options.isEmpty {
                #expect(
                    compiled.sql.contains(op.definition.sqliteFunction),
                    "'\(op.keyword)', SQLite lowering: \(text) does not call \(op.definition.sqliteFunction): \(compiled.sql)")
            }
            let fromStore: [Int64]
            do {
                fromStore = try store.fetch(compiled).map(\.id.key).sorted()
            } catch {
                Issue.record("'\(op.keyword)', SQLite: \(text) fails on the store: \(error)")
                continue
            }
            let fromEvaluator = try Evaluator(graph: graph).run(checked).map(\.key).sorted()
            let meant = try (graph.objectsByEntity["Budget"] ?? []).filter { id in
                guard case .string(let name)? = graph[id]?.value("name") else { return false }
                return try StringFunctions.test(op, name, operand, options)
            }.map(\.key).sorted()
            #expect(fromEvaluator == meant, "'\(op.keyword)', evaluator: \(text) selects \(fromEvaluator), not \(meant)")
            #expect(fromStore == meant, "'\(op.keyword)', SQLite: \(text) selects \(fromStore), not \(meant)")
            #expect(!meant.isEmpty, "'\(op.keyword)': \(text) selects no example budget, so it tests little")
        }
    }

    @Test(arguments: StringOperator.allCases)
    func postgreSQLLoweringTakesIt(_ op: StringOperator) {
        var mapping = StoreMapping.make(for: ExampleSchemas.combined, layout: .plain)
        mapping.database = .postgreSQL
        // `[d]`, not `[c]`: PostgreSQL refuses `matches[c]` (its regular expressions fold case otherwise than ICU).
        for options: StringOptions in [[], [.diacriticInsensitive]] {
            let text = "Budget where name \(op.keyword)\(options.modifier) \(Self.quotedOperand(of: op))"
            let result = QueryCompiler.compile(text, schema: ExampleSchemas.combined, mapping: mapping)
            guard let sql = result.compiled?.sql, !sql.isEmpty else {
                Issue.record(
                    "'\(op.keyword)', PostgreSQL lowering: \(text) does not compile: \(result.diagnostics.map(\.message))")
                continue
            }
            // PostgreSQL has none of the functions SQLite's store registers.
            #expect(
                !sql.contains(op.definition.sqliteFunction + "("),
                "'\(op.keyword)', PostgreSQL lowering: \(text) calls \(op.definition.sqliteFunction), which only SQLite has: \(sql)"
            )
        }
    }

    @Test(arguments: StringOperator.allCases)
    func itPrintsAsItParses(_ op: StringOperator) {
        for options in Self.modifiers {
            let text = "Budget where name \(op.keyword)\(options.modifier) \(Self.quotedOperand(of: op))"
            guard let query = Parser.parse(text).query else {
                Issue.record("'\(op.keyword)', parser: \(text) does not parse")
                continue
            }
            let printed = Printer.print(query)
            let reparsed = Parser.parse(printed).query
            let found = Self.stringTest(in: reparsed)
            #expect(
                found?.0 == op && found?.1 == options && reparsed.map(Printer.print) == printed,
                "'\(op.keyword)', printer: \(text) prints as \(printed), which does not read back the same")
        }
    }

    @Test(arguments: StringOperator.allCases)
    func theFoundationExportBuildsItOrRefusesItByName(_ op: StringOperator) throws {
        let text = "name \(op.keyword) \(Self.quotedOperand(of: op))"
        let query = try ModelQuery<PredicateQueryExamples.Budget>(parsing: text)
        do {
            _ = try query.foundationPredicate()
            #expect(
                op.definition.foundationNode != nil,
                "'\(op.keyword)', Foundation export: \(text) exports, but its row says Foundation has no node for it")
        } catch {
            let message = error.diagnostics.first?.message ?? "\(error)"
            #expect(
                op.definition.foundationNode == nil,
                "'\(op.keyword)', Foundation export: \(text) is refused, but its row names a node: \(message)")
            #expect(
                message.hasPrefix("'\(op.keyword)' cannot become a Foundation predicate"),
                "'\(op.keyword)', Foundation export: the refusal does not name the operator: \(message)")
        }
    }

    @Test(arguments: StringOperator.allCases)
    func aMisspellingGetsDidYouMean(_ op: StringOperator) {
        let misspelled = op.keyword + String(op.keyword.last ?? "x")
        let text = "Budget where name \(misspelled) 'a'"
        let notes = Parser.parse(text).diagnostics.flatMap(\.notes).map(\.message)
        #expect(
            notes.contains("did you mean '\(op.keyword)'?"),
            "'\(op.keyword)', did-you-mean list: \(text) gets the notes \(notes)")
    }

    @Test(arguments: StringOperator.allCases)
    func theREPLCompletesIt(_ op: StringOperator) {
        let start = String(op.keyword.prefix(3))
        let candidates = Completion.candidates(
            for: start, line: "Budget where name \(start)", schema: ExampleSchemas.combined, entity: "Budget")
        #expect(candidates.contains(op.keyword), "'\(op.keyword)', REPL completion: '\(start)' completes to \(candidates)")
    }

    @Test(arguments: StringOperator.allCases)
    func theGrammarListsItsKeywordAndMethods(_ op: StringOperator) throws {
        let grammar = try String(
            contentsOf: GoldenFile.repositoryRoot.appendingPathComponent("Grammar/pq.ebnf"), encoding: .utf8)
        let quoted = "\"\(op.keyword.uppercased())\""
        for production in ["stringOperator", "RESERVED"] {
            #expect(
                Self.production(production, in: grammar).contains(quoted),
                "'\(op.keyword)', grammar: Grammar/pq.ebnf's \(production) does not list \(quoted)")
        }
        for method in op.definition.swiftMethods {
            #expect(
                Self.production("method", in: grammar).contains("\"\(method.name)\""),
                "'\(op.keyword)', grammar: Grammar/pq.ebnf's method does not list \"\(method.name)\"")
        }
    }

    /// The grammar's reserved words are the parser's.
    @Test func theGrammarReservesWhatTheParserReserves() throws {
        let grammar = try String(
            contentsOf: GoldenFile.repositoryRoot.appendingPathComponent("Grammar/pq.ebnf"), encoding: .utf8)
        let listed = Self.production("RESERVED", in: grammar).split(separator: "\"").enumerated()
            .filter { $0.offset % 2 == 1 }.map { $0.element.lowercased() }
        #expect(Set(listed) == Keywords.reserved, "RESERVED in Grammar/pq.ebnf differs from Keywords.reserved")
    }

    /// The text of production `name` in `grammar`: from its `::=` to the next blank line.
    static func production(_ name: String, in grammar: String) -> String {
        let lines = grammar.components(separatedBy: "\n")
        guard let start = lines.firstIndex(where: { $0.hasPrefix(name + " ") && $0.contains("::=") }) else { return "" }
        let rest = lines[start...].prefix { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        return rest.joined(separator: "\n")
    }
}
