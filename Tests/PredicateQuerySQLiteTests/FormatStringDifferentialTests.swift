// Generated format strings over the example data, run on the store and by the
// reference evaluator: BETWEEN %@, functions of lists and of to-many paths, a lone
// %K, objects and number specifiers must select the same rows both ways.

import Foundation
import PredicateQuery
import PredicateQueryExamples
import PredicateQuerySQLite
import PredicateQueryTestSupport
import Testing

struct FormatStringDifferentialTests {
    /// A format over Budget or Transaction, and a maker of its arguments.
    typealias Template = (format: String, arguments: @Sendable (inout SplitMix64) -> [FormatArgument])

    static func number(_ random: inout SplitMix64) -> Value {
        random.chance(50) ? .int(Int64(random.int(0...2000))) : .double(Double(random.int(0...40_000)) / 20)
    }

    static func numbers(_ random: inout SplitMix64) -> [Value] {
        (0..<random.int(0...4)).map { _ in random.chance(10) ? .null : number(&random) }
    }

    static let templates: [Template] = [
        ("Budget where limit BETWEEN %@", { r in [.list([number(&r), number(&r)])] }),
        ("Budget where limit BETWEEN %@", { r in [.text("\(r.int(0...1000)),\(r.int(0...3000))")] }),
        ("Budget where limit > max(%@)", { r in [.list(numbers(&r))] }),
        ("Budget where limit <= min(%@) OR limit == sum(%@)", { r in [.list(numbers(&r)), .list(numbers(&r))] }),
        ("Budget where limit >= average(%@)", { r in [.list(numbers(&r))] }),
        ("Budget where transactions.@count == count(%@)", { r in [.list(numbers(&r))] }),
        ("Budget where %K(transactions.amount) > %la", { _ in [] }),
        ("Budget where sum(transactions.amount) > %la", { r in [.value(number(&r))] }),
        (
            "Budget where max(%K) < %d OR count(transactions) > %lx",
            { r in
                ["transactions.amount", .value(.int(Int64(r.int(0...800)))), .value(.int(Int64(r.int(0...3))))]
            }
        ),
        ("Budget where limit < average({%d, %f, 300})", { r in [.value(.int(Int64(r.int(0...900)))), .value(number(&r))] }),
        ("Transaction where %K", { _ in ["hasReceipt"] }),
        ("Transaction where NOT %K AND amount > %a", { r in ["hasReceipt", .value(number(&r))] }),
        ("Transaction where budget == %@", { r in [.object(entity: "Budget", key: Int64(r.int(1...9)))] }),
        (
            "Transaction where budget != %@ OR amount < %g",
            { r in
                [r.chance(20) ? nil : .object(entity: "Budget", key: Int64(r.int(1...9))), .value(number(&r))]
            }
        ),
        ("Transaction where budget IN %@", { r in [.list((0..<r.int(0...3)).map { _ in .int(Int64(r.int(1...9))) })] }),
        (
            "Transaction where date BETWEEN %@",
            { r in
                let start = Date(timeIntervalSinceReferenceDate: Double(r.int(725_000_000...745_000_000)))
                return [.list([.date(start), .date(start.addingTimeInterval(Double(r.int(0...10_000_000))))])]
            }
        ),
    ]

    @Test(arguments: TestSeeds.with([11, 12]))
    func storeAndEvaluatorAgree(seed: UInt64) throws {
        let (store, graph) = try ExampleStore.make()
        var random = SplitMix64(seed: seed)
        var compared = 0
        var nonEmpty = 0
        for _ in 0..<150 {
            let template = random.pick(Self.templates)
            var format = template.format
            var arguments = template.arguments(&random)
            if format.contains("%K(") {
                // A function named by its spelling, to reach every aggregate.
                let function = random.pick(FormatFunction.allCases.filter { $0 != .count })
                format = format.replacingOccurrences(of: "%K(", with: function.rawValue + "(")
                arguments = [.value(Self.number(&random))]
            }
            let expansion = PredicateFormat.expand(format, arguments)
            let label = "seed \(seed): \(format) \(arguments)"
            guard expansion.diagnostics.isEmpty else {
                Issue.record("\(label): \(expansion.diagnostics.map(\.message))")
                continue
            }
            let result = QueryCompiler.compile(expansion.text, schema: store.schema, mapping: store.mapping)
            guard let compiled = result.compiled, let checked = result.checked else {
                Issue.record("\(label): \(expansion.originalDiagnostics(result.diagnostics).map(\.message))")
                continue
            }
            let (values, problems) = expansion.parameterValues(for: checked.parameters)
            #expect(problems.isEmpty, "\(label): \(problems.map(\.message))")
            let fromStore = try store.fetch(compiled, parameters: values, environment: ExampleStore.environment).map(\.id)
            let fromEvaluator = try Evaluator(graph: graph, parameters: values, environment: ExampleStore.environment)
                .run(checked)
            #expect(fromStore == fromEvaluator, "\(label)")
            compared += 1
            if !fromStore.isEmpty { nonEmpty += 1 }
        }
        #expect(compared == 150 && nonEmpty >= 60, "seed \(seed): \(compared) compared, \(nonEmpty) with rows")
    }
}
