// Syntax errors: each with its code, its message and the caret in the right place.

import PredicateQueryExamples
import Testing

@testable import PredicateQuery

struct ParserErrorTests {
    static let errors: [(String, String)] = [
        (
            "a == b == c",
            """
            <input>:1:8: error: adjacent operators are in non-associative precedence group 'ComparisonPrecedence'
            a == b == c
                   ^~
            note: comparisons do not chain; combine them with '&&', as in 'a < b && b < c'

            """
        ),
        (
            "a ==",
            """
            <input>:1:5: error: expected an expression, found end of input
            a ==
                ^

            """
        ),
        (
            "(a == 1",
            """
            <input>:1:8: error: expected ')' to match this '('
            (a == 1
                   ^

            """
        ),
        (
            "a == 1 )",
            """
            <input>:1:8: error: unexpected ')' after the end of the query
            a == 1 )
                   ^

            """
        ),
        (
            "a == && b == ) || c == 1",
            """
            <input>:1:6: error: expected an expression, found '&&'
            a == && b == ) || c == 1
                 ^~
            <input>:1:14: error: expected an expression, found ')'
            a == && b == ) || c == 1
                         ^

            """
        ),
        (
            "name.uppercased() == 'A'",
            """
            <input>:1:6: error: pq does not support the method 'uppercased'
            name.uppercased() == 'A'
                 ^~~~~~~~~~
            note: supported methods: contains(_:), contains(where:), allSatisfy(_:), filter(_:), starts(with:), hasPrefix(_:), hasSuffix(_:), localizedStandardContains(_:), localizedCaseInsensitiveContains(_:)

            """
        ),
        (
            "ts.@distinct.x > 1",
            """
            <input>:1:4: error: unknown collection operator '@distinct'
            ts.@distinct.x > 1
               ^~~~~~~~~
            note: pq supports @count, @sum, @avg, @min and @max

            """
        ),
        (
            "ts.@sum > 1",
            """
            <input>:1:9: error: expected '.' and a property after '@sum', as in 'transactions.@sum.amount'
            ts.@sum > 1
                    ^

            """
        ),
        (
            "lower(name) == 'a'",
            """
            <input>:1:1: error: pq has no function named 'lower'
            lower(name) == 'a'
            ^~~~~
            note: functions: date('2024-05-01'), uuid('…'), now(), today()

            """
        ),
        (
            "date(x) > 1",
            """
            <input>:1:6: error: date() takes a string literal, as in date('2024-05-01')
            date(x) > 1
                 ^

            """
        ),
        (
            "in == 1",
            """
            <input>:1:1: error: expected an expression, found the reserved word 'in'
            in == 1
            ^~
            note: to use it as a name, escape it with backticks: `in`

            """
        ),
        (
            "x between 1 or 2",
            """
            <input>:1:13: error: expected 'and' between the bounds of 'between'
            x between 1 or 2
                        ^~
            <input>:1:3: note: write 'x between 1 and 10' or 'x between {1, 10}'
            x between 1 or 2
              ^~~~~~~

            """
        ),
        (
            "a == 1 limit x",
            """
            <input>:1:14: error: expected a non-negative integer or a parameter after 'limit'
            a == 1 limit x
                         ^

            """
        ),
        (
            "a == 1 offset 1 limit 2",
            """
            <input>:1:17: error: unexpected 'limit' after the end of the query
            a == 1 offset 1 limit 2
                            ^~~~~
            note: clauses go in the order: sort by, limit, offset

            """
        ),
        (
            "a == 1 sort name",
            """
            <input>:1:13: error: expected 'by' after 'sort'
            a == 1 sort name
                        ^~~~

            """
        ),
        (
            "a == 9223372036854775808",
            """
            <input>:1:6: error: integer literal overflows a 64-bit integer
            a == 9223372036854775808
                 ^~~~~~~~~~~~~~~~~~~
            note: the largest integer is 9223372036854775807

            """
        ),
        (
            "SUBQUERY(tags, t, t.x == 1).@count > 0",
            """
            <input>:1:16: error: expected a variable such as '$x' as the second argument of SUBQUERY
            SUBQUERY(tags, t, t.x == 1).@count > 0
                           ^

            """
        ),
        (
            "x in 1...2...3",
            """
            <input>:1:11: error: adjacent operators are in non-associative precedence group 'RangeFormationPrecedence'
            x in 1...2...3
                      ^~~

            """
        ),
        (
            "tags.contains { in in true }",
            """
            <input>:1:17: error: expected an expression, found the reserved word 'in'
            tags.contains { in in true }
                            ^~
            note: to use it as a name, escape it with backticks: `in`

            """
        ),
        (
            "budget?.count > 1",
            """
            <input>:1:7: error: 'count' after '?.' is not supported; write '.count'
            budget?.count > 1
                  ^~~~~~~

            """
        ),
    ]

    @Test("reports the expected diagnostics", arguments: errors)
    func reportsDiagnostics(_ input: String, _ expected: String) {
        #expect(parseErrors(input) == expected)
    }

    @Test func syntaxErrorsYieldNoQuery() {
        for (input, _) in Self.errors {
            #expect(Parser.parse(input).query == nil, "\(input.debugDescription) should not produce a query")
        }
    }

    // MARK: - Habits from SQL (issue 27)

    /// The pq query the "pq is not SQL" error offers for a statement, or nil for none.
    private func pqForm(_ sql: String) -> String? {
        let diagnostics = Parser.parse(sql).diagnostics
        guard diagnostics.count == 1, diagnostics[0].code == .sqlStatement else { return "not reported: \(diagnostics)" }
        let prefix = "in pq: "
        return diagnostics[0].notes.first { $0.message.hasPrefix(prefix) }.map { String($0.message.dropFirst(prefix.count)) }
    }

    @Test func aSelectStatementGetsItsPQForm() {
        #expect(pqForm("SELECT * FROM Budget WHERE limit > 100") == "Budget where limit > 100")
        #expect(pqForm("  select * from Budget") == "Budget")
        // White space the lexer takes before it, and a first letter in either case (the
        // byte test that spares other queries the Character test must not miss these).
        #expect(pqForm("\t\r\n Select * from Budget") == "Budget")
        #expect(pqForm("\r\n\tsElEcT * from Budget") == "Budget")
        #expect(pqForm("SELECT*FROM Budget") == "Budget")
        #expect(pqForm("SELECT * FROM \"Budget\" WHERE name = 'a;b';") == "Budget where name = 'a;b'")
        #expect(pqForm("SELECT * FROM Budget ORDER BY name DESC LIMIT 2") == "Budget sort by name DESC LIMIT 2")
        #expect(pqForm("SELECT * FROM Budget WHERE limit > 1 LIMIT 5 OFFSET 10") == "Budget where limit > 1 LIMIT 5 OFFSET 10")
        // What pq has no form for gets the error alone.
        #expect(pqForm("SELECT * FROM Budget, Transaction") == nil)
        #expect(pqForm("SELECT count(*) FROM Budget GROUP BY name") == nil)
        #expect(pqForm("SELECT * FROM Budget WHERE") == nil)
    }

    /// SQL's `IS NULL`, `IS NOT NULL`, `IN (…)`, `LIKE` with `%` and `_`, and
    /// `count(*)` come out in pq's words, and each offered query checks (a new user
    /// found `Budget where name IS NULL` offered, which pq refused).
    @Test func aSelectStatementsConditionIsOfferedInPQsWords() throws {
        let cases = [
            ("SELECT * FROM Budget WHERE name IS NULL", "Budget where name == nil"),
            ("SELECT * FROM Budget WHERE name is not null AND limit > 5", "Budget where name != nil AND limit > 5"),
            (
                "SELECT * FROM Budget WHERE name IN ('Rent', 'Travel') ORDER BY name",
                "Budget where name in ['Rent', 'Travel'] sort by name"
            ),
            (
                "SELECT * FROM Budget WHERE (limit IN (1, 2)) OR name LIKE 'V%a_'",
                "Budget where (limit in [1, 2]) OR name like 'V*a?'"
            ),
            ("SELECT count(*) FROM Budget WHERE limit > 100", "pq --count 'Budget where limit > 100'"),
            // A pattern already in pq's wildcards, or with a backslash, is left as typed.
            ("SELECT * FROM Budget WHERE name LIKE 'a*%'", "Budget where name LIKE 'a*%'"),
        ]
        for (sql, expected) in cases {
            let offered = try #require(pqForm(sql), "\(sql)")
            #expect(offered == expected, "\(sql)")
            let query = offered.hasPrefix("pq --count '") ? String(offered.dropFirst(12).dropLast()) : offered
            let parsed = Parser.parse(query)
            let checked = try #require(parsed.query.map { TypeChecker.check($0, schema: ExampleSchemas.budgets) })
            #expect(checked.diagnostics.filter { $0.severity == .error }.isEmpty, "\(query): \(checked.diagnostics)")
        }
        #expect(
            Parser.parse("Budget where limit > 100 order by name").diagnostics.first?.notes.first?.message
                == "did you mean 'sort by'?")
    }

    @Test func wordsLikeSQLsAreStillNames() {
        // An attribute may be called `select` or `from`: only a statement's shape is SQL.
        // Nor is a query whose first word starts like `select`, or is spelled with a letter past ASCII.
        let queries = [
            "select > 3", "select == from", "select in [1, 2] && from == 'x'", "Item where select == 1",
            "selection > 3", "Snippet where selected == true", "sel > 1", "Sélect * 2 > from",
        ]
        for text in queries {
            #expect(Parser.parse(text).query != nil, "\(text)")
        }
    }

    @Test func aMisspelledOperatorOrClauseGetsADidYouMean() {
        func suggestion(_ text: String) -> String? {
            Parser.parse(text).diagnostics.first?.notes.first?.message
        }
        #expect(suggestion("name contians 'x'") == "did you mean 'contains'?")
        #expect(suggestion("name endwsith 'x'") == "did you mean 'endswith'?")
        #expect(suggestion("name mathces 'x'") == "did you mean 'matches'?")
        #expect(suggestion("limit > 1 ofset 2") == "did you mean 'offset'?")
        #expect(suggestion("name startswith 'x'") == "did you mean 'beginswith'?")
        // Short or far-off words get no guess.
        #expect(suggestion("name xx 'x'") == nil)
        #expect(suggestion("name frobnicate 'x'") == nil)
    }
}
