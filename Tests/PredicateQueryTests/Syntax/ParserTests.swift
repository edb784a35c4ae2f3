// The parser against hand-checked trees: precedence, associativity, the query
// form, postfix forms and variable scoping.

import Testing

@testable import PredicateQuery

struct ParserTests {
    static let trees: [(String, String)] = [
        // Precedence: && over ||, comparisons over both, ! looser than comparisons.
        ("a || b && c", "(query (or (key a) (and (key b) (key c))))"),
        ("a && b || c", "(query (or (and (key a) (key b)) (key c)))"),
        ("(a || b) && c", "(query (and (or (key a) (key b)) (key c)))"),
        ("a || b || c", "(query (or (key a) (key b) (key c)))"),
        ("(a || b) || c", "(query (or (or (key a) (key b)) (key c)))"),
        ("!a > 1", "(query (not (> (key a) 1)))"),
        ("!a && b", "(query (and (not (key a)) (key b)))"),
        ("a + b * c == d", "(query (== (+ (key a) (* (key b) (key c))) (key d)))"),
        ("a - b - c == 0", "(query (== (- (- (key a) (key b)) (key c)) 0))"),
        ("a - (b - c) == 0", "(query (== (- (key a) (- (key b) (key c))) 0))"),
        ("a % 2 == 1", "(query (== (% (key a) 2) 1))"),
        ("-a < 3", "(query (< (neg (key a)) 3))"),
        ("--5 == a", "(query (== 5 (key a)))"),
        ("x in 1 + 1...2 * 5", "(query (in (key x) (range... (+ 1 1) (* 2 5))))"),
        ("x in 1..<5", "(query (in (key x) (range..< 1 5)))"),
        // Literals.
        ("a == 1.5e3", "(query (== (key a) (decimal 1500.0)))"),
        ("a == -0.25", "(query (== (key a) (decimal -0.25)))"),
        ("a == -9223372036854775808", "(query (== (key a) -9223372036854775808))"),
        ("a == 9223372036854775807", "(query (== (key a) 9223372036854775807))"),
        ("d > now() - 7d", "(query (> (key d) (- (call now) (duration 7.0 d))))"),
        ("d < today() + 1.5h", "(query (< (key d) (+ (call today) (duration 1.5 h))))"),
        ("d == date('2024-05-01')", #"(query (== (key d) (call date "2024-05-01")))"#),
        (
            "u == uuid('E621E1F8-C36C-495A-93FC-0C247A3E6E5F')",
            #"(query (== (key u) (call uuid "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")))"#
        ),
        (#"s == 'it\'s \u{E9} "ok"'"#, #"(query (== (key s) "it\'s é \"ok\""))"#),
        (#"s == "tab\there""#, #"(query (== (key s) "tab\there"))"#),
        ("g == .action", "(query (== (key g) .action))"),
        ("g == Genre.action", "(query (== (key g) (key Genre action)))"),
        ("a == $min", "(query (== (key a) (param min)))"),
        // Key paths and postfix forms.
        ("budget?.name.first == 'x'", "(query (== (key budget ?name first) \"x\"))"),
        ("`count` == 1 && folder.`count` == 2", "(query (and (== (key count) 1) (== (key folder count) 2)))"),
        ("SELF == nil", "(query (== (key SELF) nil))"),
        ("tags.isEmpty", "(query (isEmpty (key tags)))"),
        ("!tags.isEmpty", "(query (not (isEmpty (key tags))))"),
        ("ts.@avg.amount > ts.@min.budget.limit", "(query (> (@avg (key ts) amount) (@min (key ts) budget.limit)))"),
        ("(a).b == 1", "(query (== (key a b) 1))"),
        ("(a == 1).b == 1", "(query (== (member (== (key a) 1) b) 1))"),
        ("'abc'.contains(name)", "(query (contains \"abc\" (key name)))"),
        // Closures and variable scope.
        ("tags.contains { $0.name == name }", "(query (any-element (key tags) $0 (== (key $0 name) (key name))))"),
        ("tags.contains { t in t.name == $t }", "(query (any-element (key tags) $t (== (key $t name) (param t))))"),
        ("SUBQUERY(tags, $t, $t.name == t)", "(query (filter (key tags) $t (== (key $t name) (key t))))"),
        (
            "xs.contains { $0.ys.contains { $0.z == 1 } }",
            "(query (any-element (key xs) $0 (any-element (key $0 ys) $0 (== (key $0 z) 1))))"
        ),
        (
            "xs.contains { x in x.ys.allSatisfy { y in y.z == x.z } }",
            "(query (any-element (key xs) $x (all-element (key $x ys) $y (== (key $y z) (key $x z)))))"
        ),
        ("$0 == 1", "(query (== (param 0) 1))"),
        ("xs.filter { x IN [1] }.count > 0", "(query (> (@count (filter (key xs) $0 (in (key x) (list 1)))) 0))"),
        ("xs.filter { nil in [1] }.count > 0", "(query (> (@count (filter (key xs) $0 (in nil (list 1)))) 0))"),
        ("xs.filter { `in` in `in`.a }.count > 0", "(query (> (@count (filter (key xs) $in (key $in a))) 0))"),
        ("SELF?.name == 'x'", "(query (== (key name) \"x\"))"),
        ("$0?.name == 'x'", "(query (== (member (param 0) ?name) \"x\"))"),
        ("xs.@sum.a.b > 1", "(query (> (@sum (key xs) a.b) 1))"),
        ("xs.@max.note.hasPrefix('x')", "(query (beginswith (@max (key xs) note) \"x\"))"),
        ("xs.@sum.b.count > 1", "(query (> (@count (@sum (key xs) b)) 1))"),
        ("xs.@sum.`count` > 1", "(query (> (@sum (key xs) count) 1))"),
        // The query form.
        ("Budget", "(query entity:Budget)"),
        ("`users`", "(query entity:users)"),
        ("users where age > 1", "(query entity:users (> (key age) 1))"),
        ("Budget sort by name", "(query entity:Budget (sort (key name) asc))"),
        ("Budget limit 5", "(query entity:Budget (limit 5))"),
        ("SELF.Budget", "(query (key Budget))"),
        ("limit > 100 limit 5", "(query (> (key limit) 100) (limit 5))"),
        ("limit limit 5", "(query (key limit) (limit 5))"),
        ("limit 5", "(query (limit 5))"),
        ("sort by name[c] desc, budget.name", "(query (sort (key name)[c] desc) (sort (key budget name) asc))"),
        ("sort == 1 sort by sort", "(query (== (key sort) 1) (sort (key sort) asc))"),
        ("a == 1 limit $n offset $m", "(query (== (key a) 1) (limit $n) (offset $m))"),
        ("", "(query)"),
        ("   ", "(query)"),
    ]

    @Test("parses to the expected tree", arguments: trees)
    func parsesToTree(_ input: String, _ expected: String) {
        #expect(dump(input) == expected)
    }

    @Test("prints text that parses back to the same tree", arguments: trees)
    func printsRoundTrip(_ input: String, _ expected: String) throws {
        let query = try #require(parseOrRecord(input))
        let printed = Printer.print(query)
        #expect(dump(printed) == expected, "printed as \(printed.debugDescription)")
    }

    @Test func spansPointAtTheirText() throws {
        let text = "limit > 100 && budget?.name contains 'Vac'"
        let query = try #require(parseOrRecord(text))
        guard case .and(let operands)? = query.predicate?.kind, operands.count == 2 else {
            Issue.record("expected a conjunction")
            return
        }
        let bytes = Array(text.utf8)
        let slice = { (span: SourceSpan) -> String in String(decoding: bytes[span.start..<span.end], as: UTF8.self) }
        #expect(slice(operands[0].span) == "limit > 100")
        #expect(slice(operands[1].span) == "budget?.name contains 'Vac'")
        guard case .stringTest(_, let lhs, let rhs, _) = operands[1].kind, case .keyPath(let path) = lhs.kind else {
            Issue.record("expected a string test on a key path")
            return
        }
        #expect(slice(path.components[1].span) == "name")
        #expect(slice(rhs.span) == "'Vac'")
    }
}
