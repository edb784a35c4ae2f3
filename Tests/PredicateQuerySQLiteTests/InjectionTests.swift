// Hostile input: strings built to break out of SQL, of pq's string syntax or of
// its pattern languages, used as literals in query text, as bound parameters and
// as names. Whatever they are, the store answers exactly what the evaluator
// answers, no value reaches the SQL text, names never become SQL identifiers,
// and the store file (opened read-write, so an injection could write) is
// byte-identical afterwards.

import Foundation
import PredicateQueryExamples
import PredicateQueryFuzzing
import Testing

@testable import PredicateQuery
@testable import PredicateQuerySQLite

@Suite(.serialized)
struct InjectionTests {
    /// The hostile strings, each with a label for failure messages.
    static let hostile: [(label: String, text: String)] = [
        ("single quote", "'"), ("double quote", "\""), ("backtick", "`"), ("two single quotes", "''"),
        ("backslash quote", "\\'"), ("typographic quotes", "‘’“”"), ("tautology", "' OR '1'='1"),
        ("double-quoted tautology", "\" OR \"\"=\""), ("drop table", "'; DROP TABLE ZBUDGET; --"),
        ("drop quoted table", "\"; DROP TABLE \"ZBUDGET\"; --"), ("line comment", "--"),
        ("comment after value", "Rent' --"), ("block comment open", "/*"), ("block comment close", "*/"),
        ("block comment", "Rent/* x */"), ("second statement", "1; DELETE FROM ZTRANSACTION"),
        ("union select", "x' UNION SELECT sql FROM sqlite_master --"), ("attach", "'; ATTACH DATABASE '/tmp/pq-x' AS x; --"),
        ("pragma", "'; PRAGMA writable_schema = 1; --"), ("closing parenthesis", ") OR 1=1 --"), ("parenthesis", "("),
        ("like percent", "%"), ("like underscore", "_"), ("percent inside", "Va%n"), ("underscore inside", "R_nt"),
        ("escape character", "\\"), ("escaped percent", "\\%"), ("escaped underscore", "\\_"), ("star", "*"),
        ("question mark", "?"), ("escaped star", "\\*"), ("escaped question mark", "\\?"), ("trailing backslash", "Rent\\"),
        ("star in the middle", "V*n"), ("regex metacharacters", ".*"), ("regex group", "(Rent|Gifts)"),
        ("unbalanced regex", "(["), ("NUL", "\0"), ("NUL inside", "Ren\0t"), ("NUL then quote", "\0'"),
        ("replacement character", "\u{FFFD}"), ("invalid UTF-8, repaired", String(decoding: [0x52, 0xC3, 0x28, 0xFF, 0x74], as: UTF8.self)),
        ("newline", "Rent\n"), ("carriage return", "\r\n"), ("tab", "\t"), ("emoji", "💸"),
        ("right-to-left override", "\u{202E}tneR"), ("combining accent", "e\u{301}"), ("sharp s", "ß"),
        ("dotted capital I", "İ"), ("zero-width space", "Re\u{200B}nt"), ("numbered placeholder", "?1"),
        ("named placeholders", ":name @name $name"), ("SQL keyword", "SELECT"), ("char function", "char(39)"),
        ("hex literal", "X'27'"), ("huge number text", "1e999"), ("NULL text", "NULL"), ("empty", ""),
    ]

    /// A megabyte of quotes, comments and pattern characters (its own test: folding
    /// it for `[c]` on every row would make the main suite slow, not more thorough).
    static let megabyte = String(repeating: "Vac'--%_\\*", count: 1_048_576 / 10)

    /// Names that look like SQL, or like the store's own tables and columns.
    static let sqlLookingNames = [
        "ZNAME", "Z_PK", "Z_ENT", "Z_OPT", "ZBUDGET", "Z_PRIMARYKEY", "Z_METADATA", "PQ_SCHEMA", "sqlite_master",
        "rowid", "oid", "_rowid_", "SELECT", "DROP", "t0", "j1", "pq_fold",
    ]

    /// Query templates with `S` where a string literal goes.
    static let literalTemplates = [
        "Budget where name == S", "Budget where name != S", "Budget where name ==[c] S", "Budget where name contains S",
        "Budget where name contains[cd] S", "Budget where name beginswith S", "Budget where name beginswith[c] S",
        "Budget where name endswith S", "Budget where name like S", "Budget where name like[c] S",
        "Budget where name matches S", "Budget where name in {S, 'Rent'}", "Budget where name < S",
        "Transaction where budget.name == S", "Budget where any transactions.note contains S",
        "Budget where transactions.@count > 0 && name >= S sort by name",
    ]

    /// The templates the megabyte string goes through.
    static let megabyteTemplates = [
        "Budget where name == S", "Budget where name != S", "Budget where name contains S", "Budget where name beginswith S",
        "Budget where name endswith S", "Budget where name like S", "Budget where name in {S, 'Rent'}",
        "Transaction where budget.name < S",
    ]

    /// The same tests with `$p` bound to the hostile string.
    static let parameterTemplates = [
        "Budget where name == $p", "Budget where name contains[cd] $p", "Budget where name beginswith $p",
        "Budget where name endswith $p", "Budget where name like $p", "Budget where name matches $p",
        "Budget where name in $list", "Transaction where budget?.name == $p",
    ]

    /// `S` where a name goes.
    static let nameTemplates = [
        "Budget where S == 1", "S where name == 'Rent'", "Budget sort by S", "Budget where transactions.S > 1",
        "Budget where any transactions.S == 1",
    ]

    /// A string literal of pq's text syntax holding `text` exactly.
    static func literal(_ text: String) -> String {
        var result = "'"
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "'": result += "\\'"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\0": result += "\\0"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "'"
    }

    /// A store file holding the example objects plus one budget (with one
    /// transaction) named by each hostile string.
    static func makeStore(at path: String, strings: [String]) throws -> ObjectGraph {
        var graph = ExampleData.graph()
        for (index, text) in strings.enumerated() {
            let budget = graph.insert("Budget", ["name": .string(text), "limit": .double(Double(index))])
            let transaction = graph.insert("Transaction", ["note": .string(text), "amount": .double(1)])
            graph.link(transaction, "budget", to: budget)
        }
        let store = try SQLiteStore.create(at: path, schema: ExampleSchemas.combined)
        try store.insert(graph)
        return graph
    }

    /// Counts what the suite compared, so it can check that it compared enough.
    struct Tally {
        var compared = 0
        var rejected = 0
        var nonEmpty = 0
    }

    /// Runs `text` with `parameters` on the store and the evaluator; they must agree.
    func compare(
        _ text: String, _ parameters: [String: ParameterValue], label: String, store: SQLiteStore, graph: ObjectGraph,
        tally: inout Tally
    ) {
        let result = QueryCompiler.compile(text, schema: store.schema, mapping: store.mapping)
        guard let compiled = result.compiled, let checked = result.checked else {
            // Only an invalid regular expression may stop a well-formed template.
            #expect(result.diagnostics.map(\.code) == [.invalidRegex], "\(label): \(text.prefix(200))")
            tally.rejected += 1
            return
        }
        #expect(SQLLiteralCheck.literal(in: compiled.sql) == nil, "\(label): \(compiled.sql)")
        let expected = Result { try Evaluator(graph: graph, parameters: parameters).run(checked) }
        let actual = Result { try store.fetch(compiled, parameters: parameters).map(\.id) }
        switch (expected, actual) {
        case (.success(let expected), .success(let actual)):
            #expect(expected == actual, "\(label): \(text.prefix(200))")
            if !actual.isEmpty { tally.nonEmpty += 1 }
        case (.failure, .failure):
            break  // An invalid regex in a parameter fails in both.
        default:
            Issue.record("\(label): one side failed on \(text.prefix(200)): evaluator \(expected), SQLite \(actual)")
        }
        tally.compared += 1
    }

    @Test func hostileStringsAsLiteralsAndParametersMeanWhatTheySay() throws {
        #expect(Self.hostile.count >= 50)
        let directory = try TemporaryDirectory()
        let path = directory.path("Injection.sqlite")
        let graph = try Self.makeStore(at: path, strings: Self.hostile.map(\.text))
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        var tally = Tally()
        do {
            let store = try SQLiteStore.open(at: path, readOnly: false)
            for (label, text) in Self.hostile {
                for template in Self.literalTemplates {
                    let query = template.replacingOccurrences(of: "S", with: Self.literal(text))
                    compare(query, [:], label: label, store: store, graph: graph, tally: &tally)
                }
                let parameters: [String: ParameterValue] = [
                    "p": .single(.string(text)), "list": .list([.string(text), .string("Rent")]),
                ]
                for template in Self.parameterTemplates {
                    compare(template, parameters, label: label, store: store, graph: graph, tally: &tally)
                }
                // Each hostile name is found by equality, as a literal and as a parameter.
                let byLiteral = try #require(
                    QueryCompiler.compile("Budget where name == \(Self.literal(text))", schema: store.schema, mapping: store.mapping)
                        .compiled)
                let found = try store.fetch(byLiteral).compactMap { row -> String? in
                    if case .string(let name)? = row.values["name"] { return name }
                    return nil
                }
                #expect(found == [text], "\(label)")
            }
        }
        let hostileTests = Self.hostile.count * (Self.literalTemplates.count + Self.parameterTemplates.count)
        #expect(tally.compared + tally.rejected == hostileTests)
        #expect(tally.rejected <= Self.hostile.count * 2, "only `matches` may reject a string")
        #expect(tally.nonEmpty * 2 > tally.compared, "most comparisons should select something")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test func aMegabyteOfHostileTextIsJustAString() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("Megabyte.sqlite")
        let graph = try Self.makeStore(at: path, strings: [Self.megabyte])
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        var tally = Tally()
        do {
            let store = try SQLiteStore.open(at: path, readOnly: false)
            for template in Self.megabyteTemplates {
                let query = template.replacingOccurrences(of: "S", with: Self.literal(Self.megabyte))
                compare(query, [:], label: "megabyte", store: store, graph: graph, tally: &tally)
            }
            let parameters: [String: ParameterValue] = ["p": .single(.string(Self.megabyte))]
            for template in ["Budget where name == $p", "Budget where name contains $p", "Budget where name like $p"] {
                compare(template, parameters, label: "megabyte", store: store, graph: graph, tally: &tally)
            }
        }
        #expect(tally.compared == Self.megabyteTemplates.count + 3)
        #expect(tally.nonEmpty >= 8)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test func hostileNamesAreDiagnosedAndNeverReachSQL() throws {
        let (store, _) = try ExampleStore.make()
        // (Not "NULL": in a query it is the nil literal, and `Budget where NULL == 1` is a fine query.)
        let names = Self.hostile.map(\.text).filter { $0 != "NULL" } + Self.sqlLookingNames + [Self.megabyte]
        var diagnosed = 0
        for name in names {
            for template in Self.nameTemplates {
                let text = template.replacingOccurrences(of: "S", with: name)
                let result = QueryCompiler.compile(text, schema: store.schema, mapping: store.mapping)
                #expect(result.compiled == nil, "\(name.debugDescription) in \(text.debugDescription) compiled")
                #expect(!result.diagnostics.isEmpty)
                #expect(!DiagnosticRenderer().render(result.diagnostics, in: text).isEmpty)
                diagnosed += 1
            }
            // Names handed over in code, as the builder and the bridge do, and as --entity.
            let coded = Query(entity: Name("Budget"), predicate: Expr(.keyPath(PropertyPath(name))))
            #expect(QueryCompiler.compile(coded, schema: store.schema, mapping: store.mapping).compiled == nil)
            let sorted = Query(entity: Name("Budget"), sortKeys: [SortKey(PropertyPath(name))])
            #expect(QueryCompiler.compile(sorted, schema: store.schema, mapping: store.mapping).compiled == nil)
            let entity = QueryCompiler.compile("limit > 1", schema: store.schema, mapping: store.mapping, defaultEntity: name)
            #expect(entity.compiled == nil)
            #expect(entity.diagnostics.map(\.code) == [.unknownEntity])
        }
        #expect(diagnosed == names.count * Self.nameTemplates.count)
    }

    @Test func brokenStringSyntaxIsDiagnosed() throws {
        let (store, _) = try ExampleStore.make()
        let texts = [
            "name == '\\u{D800}'", "name == '\\u{DFFF}x'", "name == '\\u{110000}'", "name == '\\u{}'",
            "name == 'Rent", "name == 'Rent' ; DROP TABLE ZBUDGET", "name == 'Rent' -- comment",
            "name == 'Rent' /* comment */", "name == \"Rent'", "name == 'a\\q'", "name == 'Rent'' OR ''1''=''1'",
        ]
        for text in texts {
            let result = QueryCompiler.compile("Budget where " + text, schema: store.schema, mapping: store.mapping)
            #expect(result.compiled == nil, "\(text.debugDescription) compiled")
            let rendered = DiagnosticRenderer().render(result.diagnostics, in: "Budget where " + text)
            #expect(rendered.contains("^"), "\(rendered)")
        }
    }
}
