// Compile cost: parse + check + lower, for each SPEC example and for generated
// predicates of 1k, 10k and 100k nodes, with literals and without, which must
// grow linearly.

import Foundation
import PredicateQuery
import PredicateQueryExamples

public struct CompileMeasurement: Sendable {
    public var query: String
    /// Syntax-tree nodes of the predicate (for the generated ones).
    public var nodes: Int?
    public var median: Duration
}

public enum CompileBenchmark {
    /// One example of each form SPEC §1 and §4 name.
    public static let specExamples = [
        "limit > 100 && name contains 'Vac'",
        "Budget where transactions.@sum.amount > 500 sort by name limit 10",
        "Movie where genre == .action",
        "Transaction where budget.name contains 'x'",
        "Transaction where budget?.name contains 'x'",
        "Snippet where any tags.name == 'swift'",
        "Budget where transactions.contains(where: { $0.amount > 50 && $0.hasReceipt })",
        "Budget where transactions.@count > 3 && !transactions.isEmpty",
        "Budget where limit in [100, 400, 1200]",
        "Budget where limit between 100 and 2000",
        "Budget where name beginswith[c] 'va' || name endswith 'nt'",
        "Budget where name like 'Vac*' || name matches 'R.*t'",
        "Budget where name ==[cd] 'vacation'",
        "Transaction where date > date('2024-03-01') sort by date desc, amount",
        "Transaction where amount * 2 + 1 > $min",
        "User where all pets.age > 2",
        "Budget where transactions.@avg.amount > 100",
        "Snippet where folder?.newName == nil || language == .swift sort by notes[c] limit 5",
    ]

    /// The generated predicates: each kind at 1k, 10k and 100k nodes must cost the
    /// same per node.
    public enum Shape: String, CaseIterable, Sendable {
        /// `||` over `&&` pairs of a comparison and a string test, each with a literal.
        case mixed
        /// `name == 'v0' || name == 'v1' || …`: one bound value per 4 nodes, the shape
        /// of a long list of names pasted as equalities.
        case literals
        /// `limit > limit || …`: the same chain with nothing to bind.
        case noLiterals = "no literals"
    }

    /// A predicate of about `nodes` nodes: `||` over `&&` pairs of comparisons
    /// and string tests on Budget.
    public static func generated(nodes: Int) -> (text: String, nodes: Int) {
        generated(.mixed, nodes: nodes)
    }

    /// A predicate of about `nodes` nodes of the given shape. A comparison or string
    /// test is 3 nodes, an `&&` 1, and each `||` operand after the first 1.
    public static func generated(_ shape: Shape, nodes: Int) -> (text: String, nodes: Int) {
        var terms: [String] = []
        var count = 0
        var index = 0
        while count < nodes {
            switch shape {
            case .mixed:
                terms.append("(limit > \(index) && name contains 'n\(index)')")
                count += 7
            case .literals:
                terms.append("name == 'v\(index)'")
                count += 3
            case .noLiterals:
                terms.append("limit > limit")
                count += 3
            }
            if terms.count > 1 { count += 1 }
            index += 1
        }
        return ("Budget where " + terms.joined(separator: " || "), count)
    }

    /// Medians of `batches` batches; each batch runs a query enough times to last a few milliseconds.
    public static func run(batches: Int = 7, only: String? = nil, log: (String) -> Void) -> [CompileMeasurement] {
        let schema = ExampleSchemas.combined
        let mapping = StoreMapping.make(for: schema, layout: .coreData)
        let limits = Limits(maxListLength: 1_000_000)
        func measure(_ text: String) -> Duration {
            let once = Stopwatch.time { QueryCompiler.compile(text, schema: schema, mapping: mapping, limits: limits) }
            guard once.1.compiled != nil else {
                log("does not compile: \(text.prefix(80)): \(once.1.diagnostics.map(\.message))")
                return .zero
            }
            let iterations = max(1, Int(0.005 / max(once.0.seconds, 1e-7)))
            var samples: [Duration] = []
            for _ in 0..<batches {
                let (total, _) = Stopwatch.time {
                    for _ in 0..<iterations { _ = QueryCompiler.compile(text, schema: schema, mapping: mapping, limits: limits) }
                }
                samples.append(total / iterations)
            }
            return Stopwatch.median(samples)
        }
        var results = specExamples.filter { only == nil || $0.contains(only!) }.map {
            CompileMeasurement(query: $0, nodes: nil, median: measure($0))
        }
        for shape in Shape.allCases {
            let name = shape == .mixed ? "generated" : "generated, \(shape.rawValue)"
            for size in [1_000, 10_000, 100_000] where only == nil || name.contains(only!) {
                let (text, nodes) = generated(shape, nodes: size)
                log("compiling a predicate of \(nodes) nodes (\(shape.rawValue))")
                results.append(CompileMeasurement(query: "\(name), \(size / 1000)k nodes", nodes: nodes, median: measure(text)))
            }
        }
        return results
    }
}
