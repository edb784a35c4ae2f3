// parse → print → parse: the printer is a tested product. Random trees (in the
// parser's normal form) print to text that parses back to the same tree.

import PredicateQueryTestSupport
import Testing

@testable import PredicateQuery

struct RoundTripTests {
    @Test("printed trees parse back to the same tree", arguments: TestSeeds.with([1, 2, 3, 4]))
    func printedTreesParseBack(seed: UInt64) {
        var generator = SyntaxTreeGenerator(seed: seed)
        var failures = 0
        for index in 0..<2_500 where failures < 5 {
            let query = generator.query()
            let text = Printer.print(query)
            let reparsed = Parser.parse(text)
            guard let again = reparsed.query else {
                failures += 1
                Issue.record(
                    "seed \(seed) case \(index): printed text does not parse:\n\(text)\n\(DiagnosticRenderer().render(reparsed.diagnostics, in: text))"
                )
                continue
            }
            if again.syntaxDump != query.syntaxDump {
                failures += 1
                Issue.record("seed \(seed) case \(index): \(text)\nexpected \(query.syntaxDump)\n     got \(again.syntaxDump)")
            }
            // Printing is idempotent on its own output.
            #expect(Printer.print(again) == text)
        }
    }

    @Test func printingAddsNoNestingToRepeatedMinuses() throws {
        // Found by the fuzzer (Fuzz/Regressions/printer-nested-minus-depth): 100 minuses
        // printed as -(-(…)) doubled the depth and no longer parsed.
        let text = String(repeating: "-", count: 100) + "x > 1"
        let query = try #require(Parser.parse(text).query)
        let printed = Printer.print(query)
        #expect(printed == String(repeating: "- ", count: 99) + "-x > 1")
        #expect(Parser.parse(printed).query?.syntaxDump == query.syntaxDump)
    }

    @Test func aBitFlipPrintsAsOneAndCostsNoMoreNestingThanItWas() throws {
        // `~x` is `x ^ -1` in the tree; printed as `x ^ -1`, it took parentheses under
        // `*`, one level more than `~` did, so at the nesting limit it did not parse back.
        let limits = Limits(maxNestingDepth: 40)
        for text in ["a * " + String(repeating: "~", count: 39) + "b > 0", String(repeating: "~", count: 39) + "b * a > 0"] {
            let query = try #require(Parser.parse(text, limits: limits).query, "\(text)")
            let printed = Printer.print(query)
            #expect(Parser.parse(printed, limits: limits).query?.syntaxDump == query.syntaxDump, "\(printed)")
        }
        // And `x ^ -1` written out is the same tree, so it prints the same way.
        #expect(Printer.print(try #require(Parser.parse("a ^ -1 > 0").query)) == "~a > 0")
        #expect(Printer.print(try #require(Parser.parse("((a + b) ^ -1) * 2 > 0").query)) == "~(a + b) * 2 > 0")
        #expect(Printer.print(try #require(Parser.parse("a ^ -2 > 0").query)) == "a ^ -2 > 0")
    }

    @Test func aModifiedMembershipCostsNoMoreNestingPrintedThanItWas() throws {
        // `x in[c] {'p', 'q'}` is read as `x ==[c] 'p' || x ==[c] 'q'`; printed that
        // way under `&&`, it took parentheses, and its element went one level deeper
        // than it was written, so an element nested to the limit did not parse back.
        let limits = Limits(maxNestingDepth: 40)
        let shapes: [(String) -> String] = [
            { "b && \($0) in[c] {'p', 'q'}" },
            { "\($0) in[c] {'p', 'q'} && b" },
            { "\($0) in[c] {'p', 'q'}" },
            { "b || \($0) in[cd] {'p', nil, $q}" },
            { "any tags.name in[c] {\($0), 'q'}" },
            { "b && x in[c] {'p', \($0)}" },
            { "x ==[c] \($0) || x ==[c] 'q'" },
        ]
        try expectDeepestParsesBack(shapes, limits: limits)
    }

    @Test func aModifiedMembershipPrintsAsOneWhereAnOrWouldTakeParentheses() throws {
        func printed(_ text: String) throws -> String {
            Printer.print(try #require(Parser.parse(text).query, "\(text)"))
        }
        #expect(try printed("b && name in[c] {'p', 'q'}") == "b && name in[c] ['p', 'q']")
        #expect(try printed("b && name ==[c] 'p' || name ==[c] 'q'") == "b && name ==[c] 'p' || name ==[c] 'q'")
        #expect(try printed("b && (name ==[c] 'p' || name ==[c] 'q')") == "b && name in[c] ['p', 'q']")
        #expect(try printed("any tags.name in[cd] {'p', nil}") == "any tags.name in[cd] ['p', nil]")
        // Where the `||` needs no parentheses, or where `!` puts them around it anyway, it stays.
        #expect(try printed("name in[c] {'p', 'q'}") == "name ==[c] 'p' || name ==[c] 'q'")
        #expect(try printed("!(name in[c] {'p', 'q'})") == "!(name ==[c] 'p' || name ==[c] 'q')")
        // Not a membership: different elements, modifiers, operators, or a nil with a modifier.
        for text in [
            "b && (name ==[c] 'p' || title ==[c] 'q')", "b && (name ==[c] 'p' || name ==[d] 'q')",
            "b && (name ==[c] 'p' || name == 'q')", "b && (name ==[c] 'p' || name !=[c] 'q')",
            "b && (name ==[c] nil || name ==[c] 'q')", "b && (name == nil || name == nil)",
        ] {
            #expect(try printed(text).contains("||"), "\(text)")
        }
    }

    @Test func aClosureCostsOneNestingLevelHoweverItIsWritten() throws {
        // `SUBQUERY(xs, $x, …)` and `xs.contains { … }` put their condition less deep
        // than `xs.filter({ x in … })` and `xs.contains(where: { … })`, the forms they
        // print as, whose parentheses and braces took a level each, so a condition
        // nested to the limit did not parse back. Now the parentheses around a closure
        // take no level, and SUBQUERY's condition is as deep as a closure's.
        let limits = Limits(maxNestingDepth: 40)
        let shapes: [(String) -> String] = [
            { "SUBQUERY(xs, $x, $x.a == \($0)).@count > 0" },
            { "SUBQUERY(xs, $x, $x.a in[c] {\($0), 'q'}).@count > 0" },
            { "xs.contains { $0.a == \($0) }" },
            { "xs.allSatisfy { t in t.a == \($0) }" },
            { "xs.filter { $0.a == \($0) }.count > 1" },
            { "xs.filter({ t in t.a == \($0) }).count > 1" },
            { "xs.contains(where: { $0.ys.contains { $0.b == \($0) } })" },
        ]
        try expectDeepestParsesBack(shapes, limits: limits)
        // The three spellings of one filter reach the same depth.
        let subquery = Self.deepestCount({ "SUBQUERY(xs, $x, $x.a == \($0)).@count > 0" }, limits)
        #expect(Self.deepestCount({ "xs.filter({ x in x.a == \($0) }).count > 0" }, limits) == subquery)
        #expect(Self.deepestCount({ "xs.filter { x in x.a == \($0) }.count > 0" }, limits) == subquery)
    }

    /// How many `~` before `x` the shape takes and still parses under `limits` (0 for none).
    private static func deepestCount(_ shape: (String) -> String, _ limits: Limits) -> Int {
        (1...limits.maxNestingDepth).last {
            Parser.parse(shape(String(repeating: "~", count: $0) + "x"), limits: limits).query != nil
        } ?? 0
    }

    /// Each shape, with its operand nested as deep as `limits` lets it parse, prints as
    /// text that parses back to the same tree under the same limits.
    private func expectDeepestParsesBack(_ shapes: [(String) -> String], limits: Limits) throws {
        for shape in shapes {
            let count = Self.deepestCount(shape, limits)
            try #require(count > 0, "\(shape("x"))")
            let query = try #require(Parser.parse(shape(String(repeating: "~", count: count) + "x"), limits: limits).query)
            let printed = Printer.print(query)
            #expect(Parser.parse(printed, limits: limits).query?.syntaxDump == query.syntaxDump, "\(printed)")
        }
    }
}
