// Hostile shapes and sizes end in a clean diagnostic, in linear time, without
// overflowing the stack: 100,000 nested parentheses, 100,000 `!`, 10 MB inputs.

import Foundation
import PredicateQueryTestSupport
import Testing

@testable import PredicateQuery

struct LimitTests {
    @Test func aMegabyteOfErrorsGivesFiftyDiagnosticsRenderedQuickly() {
        // Found by the injection tests: every stray backslash was one diagnostic, and
        // each rendering decoded the whole megabyte-long line, so this took minutes.
        let text = "Budget where " + String(repeating: "Vac'--%_\\\\*", count: 100_000) + " == 1"
        let clock = ContinuousClock()
        var rendered = ""
        let elapsed = clock.measure {
            let result = Parser.parse(text)
            #expect(result.diagnostics.count == Parser.maxDiagnostics)
            #expect(result.diagnostics.last?.notes.map(\.message) == ["too many errors; pq stops after 50"])
            rendered = DiagnosticRenderer().render(result.diagnostics, in: text)
        }
        #expect(rendered.utf8.count < 50 * 400)
        #expect(elapsed < .seconds(20), "took \(elapsed)")
    }

    @Test func deepParenthesesStopAtTheNestingLimit() {
        let text = String(repeating: "(", count: 100_000) + "a" + String(repeating: ")", count: 100_000)
        let result = Parser.parse(text)
        #expect(result.query == nil)
        #expect(result.diagnostics.map(\.code) == [.nestingTooDeep])
    }

    @Test func chainedNegationsStopAtTheNestingLimit() {
        let result = Parser.parse(String(repeating: "!", count: 100_000) + "a")
        #expect(result.diagnostics.map(\.code) == [.nestingTooDeep])
        let words = Parser.parse(String(repeating: "not ", count: 100_000) + "a")
        #expect(words.diagnostics.map(\.code) == [.nestingTooDeep])
    }

    @Test func chainedMinusesAndArithmeticStopAtTheNestingLimit() {
        #expect(parseCodes(String(repeating: "-", count: 100_000) + "a > 1") == ["limit.nestingDepth"])
        let sum = "a" + String(repeating: " + a", count: 100_000) + " > 1"
        #expect(parseCodes(sum) == ["limit.nestingDepth"])
        let closures = String(repeating: "xs.contains { ", count: 50_000) + "true" + String(repeating: " }", count: 50_000)
        #expect(parseCodes(closures) == ["limit.nestingDepth"])
        let lists = String(repeating: "[", count: 100_000)
        #expect(parseCodes("x in " + lists) == ["limit.nestingDepth"])
    }

    /// Minus signs on a number literal fold into it: no node, no recursion, no nesting
    /// level. So `x ^ -1` costs what `~x` (the same tree) does, and a chain of them as
    /// long as the limit allows parses (the fuzzer found `~` x 128, printed then as 128
    /// `^ -1`, which each minus had pushed over the limit;
    /// Fuzz/Regressions/printer-tilde-minus-depth).
    @Test func minusesOnANumberLiteralCostNoNestingLevel() throws {
        let limits = Limits(maxNestingDepth: 50)
        let tildes = Parser.parse("a > " + String(repeating: "~", count: 50) + "b", limits: limits)
        let written = Parser.parse("a > b" + String(repeating: " ^ -1", count: 50), limits: limits)
        #expect(written.diagnostics.isEmpty)
        #expect(written.query?.syntaxDump == tildes.query?.syntaxDump)
        // Any number of them: they fold as they are read.
        let folded = Parser.parse(String(repeating: "-", count: 100_000) + "2.5 < a")
        #expect(folded.diagnostics.isEmpty)
        guard case .comparison(_, let lhs, _, _)? = folded.query?.predicate?.kind else {
            Issue.record("not a comparison: \(String(describing: folded.query?.predicate))")
            return
        }
        guard case .literal(.decimal(let value)) = lhs.kind else {
            Issue.record("the minuses did not fold: \(lhs.kind)")
            return
        }
        #expect(value == 2.5)
        // A minus on something else still nests, and so does one on -Int64.min, which does not fold.
        #expect(parseCodes(String(repeating: "-", count: 100_000) + "9223372036854775808 < a") == ["limit.nestingDepth"])
        #expect(parseCodes(String(repeating: "-", count: 100_000) + "1.days < a") == ["limit.nestingDepth"])
        #expect(parseCodes("x ^ -1" + String(repeating: " ^ -(1)", count: 50) + " > 0", limits: limits) == ["limit.nestingDepth"])
    }

    @Test func nestingJustInsideTheLimitParses() {
        let limits = Limits(maxNestingDepth: 50)
        let inside = String(repeating: "(", count: 49) + "a" + String(repeating: ")", count: 49)
        #expect(Parser.parse(inside, limits: limits).query != nil)
        let outside = String(repeating: "(", count: 51) + "a" + String(repeating: ")", count: 51)
        #expect(parseCodes(outside, limits: limits) == ["limit.nestingDepth"])
    }

    @Test func tenMegabyteInputIsRejectedUpFront() {
        let text = String(repeating: "a == 1 || ", count: 1_000_000) + "a == 1"
        #expect(text.utf8.count > 10_000_000)
        let clock = ContinuousClock()
        var codes: [String] = []
        let elapsed = clock.measure { codes = parseCodes(text) }
        #expect(codes == ["limit.inputLength"])
        #expect(elapsed < .seconds(5))
    }

    @Test func longInputParsesInLinearTimeWhenAllowed() {
        // With the length limit raised, a 10 MB chain of 1,000,000 comparisons parses
        // (2 MB and 200,000 outside `PQ_TEST_BUDGET=thorough`, which CI sets).
        let comparisons = TestBudget.count(quick: 200_000, thorough: 1_000_000)
        let limits = Limits(maxInputLength: 16 * 1024 * 1024, maxListLength: 2_000_000)
        let small = String(repeating: "a == 1 || ", count: comparisons / 10) + "a == 1"
        let large = String(repeating: "a == 1 || ", count: comparisons) + "a == 1"
        let clock = ContinuousClock()
        var parsedLarge = false
        let smallTime = clock.measure { _ = Parser.parse(small, limits: limits) }
        let largeTime = clock.measure { parsedLarge = Parser.parse(large, limits: limits).query != nil }
        #expect(parsedLarge)
        // Ten times the input should take about ten times as long; allow generous noise.
        #expect(largeTime < smallTime * 40 + .seconds(1), "\(comparisons / 10): \(smallTime), \(comparisons): \(largeTime)")
    }

    @Test func oneMegabyteStringLiteralIsAccepted() throws {
        let payload = String(repeating: "x'\\\"", count: 250_000)
        let escaped = payload.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'")
        let query = try #require(parseOrRecord("name == '\(escaped)'"))
        guard case .comparison(_, _, let rhs, _)? = query.predicate?.kind, case .literal(.string(let value)) = rhs.kind else {
            Issue.record("expected a string comparison")
            return
        }
        #expect(value == payload)
    }

    @Test func longListsAndChainsAreBounded() {
        let limits = Limits(maxListLength: 100)
        let list = "x in [" + (0..<101).map(String.init).joined(separator: ", ") + "]"
        #expect(parseCodes(list, limits: limits) == ["limit.listLength"])
        let okList = "x in [" + (0..<100).map(String.init).joined(separator: ", ") + "]"
        #expect(Parser.parse(okList, limits: limits).query != nil)
        let chain = (0..<101).map { "a == \($0)" }.joined(separator: " && ")
        #expect(parseCodes(chain, limits: limits) == ["limit.listLength"])
    }

    @Test func longNamesAreRejected() {
        let name = String(repeating: "n", count: 257)
        #expect(parseCodes("\(name) == 1") == ["limit.identifierLength"])
        #expect(parseCodes("a == $\(name)") == ["limit.identifierLength"])
        #expect(Parser.parse(String(repeating: "n", count: 256) + " == 1").query != nil)
    }

    @Test func deepTreesBuiltInCodeAreRejectedByTheChecker() {
        var expr = Expr(.keyPath(PropertyPath("name")))
        for _ in 0..<10_000 { expr = Expr(.not(expr)) }
        let schema = Schema(entities: [Entity("Item", attributes: [Attribute("name", .bool)])])
        let result = TypeChecker.check(Query(predicate: expr), schema: schema)
        #expect(result.diagnostics.map(\.code) == [.nestingTooDeep])
    }
}
