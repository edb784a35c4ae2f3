// The Foundation export: how long building a `Predicate` from text takes (parse,
// check, convert) for each SPEC example, and how fast Foundation evaluates a
// pq-built predicate over 100k objects against the same predicate written with
// `#Predicate` (the nodes are the same, so the ratio should be about 1).

import Foundation
import PredicateQuery
import PredicateQueryExamples

public enum FoundationPredicateBenchmark {
    public struct BuildMeasurement: Sendable {
        public var query: String
        /// The median time to build, or why the query has no Foundation predicate.
        public var result: Result<Duration, BuildRefusal>
    }

    public struct BuildRefusal: Error, Sendable {
        public var reason: String
    }

    public struct EvaluationMeasurement: Sendable {
        public var name: String
        public var objects: Int
        public var selected: Int
        public var pq: Duration
        public var handWritten: Duration
    }

    /// The model classes' schema, made once: only to find each example's entity.
    static let schema = ExampleSchemas.fromModels

    /// The model class of `text`'s entity (found once, before the timing: an app
    /// knows its model type).
    static func model(of text: String) throws -> any QueryModel.Type {
        guard let checked = TypeChecker.check(try parse(text), schema: schema).query else {
            throw BuildRefusal(reason: "does not check against the model classes")
        }
        guard let model = ExampleSchemas.modelTypes[checked.entity.name] else {
            throw BuildRefusal(reason: "no model class for \(checked.entity.name)")
        }
        return model
    }

    /// `ModelQuery<model>(parsing:)` and `foundationPredicate()` for `text`: what is timed.
    static func build(_ text: String, _ model: any QueryModel.Type) throws -> Any {
        func make<M: QueryModel>(_: M.Type) throws -> Any { try ModelQuery<M>(parsing: text).foundationPredicate() }
        do {
            return try make(model)
        } catch let error as ModelQueryError {
            throw BuildRefusal(reason: error.diagnostics.first?.message ?? "\(error)")
        }
    }

    static func build(_ text: String) throws -> Any {
        try build(text, model(of: text))
    }

    private static func parse(_ text: String) throws -> Query {
        guard let query = Parser.parse(text).query else { throw BuildRefusal(reason: "does not parse") }
        return query
    }

    /// The median time to build each SPEC example's predicate from its text.
    public static func buildTimes(batches: Int = 7) -> [BuildMeasurement] {
        CompileBenchmark.specExamples.map { text in
            let model: any QueryModel.Type
            do {
                model = try self.model(of: text)
                _ = try build(text, model)
            } catch let refusal as BuildRefusal {
                return BuildMeasurement(query: text, result: .failure(refusal))
            } catch {
                return BuildMeasurement(query: text, result: .failure(BuildRefusal(reason: "\(error)")))
            }
            let (once, _) = Stopwatch.time { try? build(text, model) }
            let iterations = max(1, Int(0.005 / max(once.seconds, 1e-7)))
            var samples: [Duration] = []
            for _ in 0..<batches {
                let (total, _) = Stopwatch.time { for _ in 0..<iterations { _ = try? build(text, model) } }
                samples.append(total / iterations)
            }
            return BuildMeasurement(query: text, result: .success(Stopwatch.median(samples)))
        }
    }

    /// Objects for the evaluation benchmark: `count` budgets with 0–4 transactions
    /// each (one in ten without a budget), and `count` movies.
    struct Objects {
        var budgets: [Budget] = []
        var transactions: [Transaction] = []
        var movies: [Movie] = []

        init(count: Int) {
            var state: UInt64 = 42
            func next() -> UInt64 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return state >> 33
            }
            let words = ["Vacation", "Rent", "Groceries", "Travel", "Gifts", "Vacuum", "Books"]
            for index in 0..<count {
                let budget = Budget(name: "\(words[Int(next() % 7)]) \(index)", limit: Double(next() % 3000))
                budgets.append(budget)
                for _ in 0..<Int(next() % 5) {
                    let transaction = Transaction(
                        note: words[Int(next() % 7)], amount: Double(next() % 1000),
                        date: Date(timeIntervalSinceReferenceDate: Double(next() % 100_000_000)), hasReceipt: next() % 2 == 0,
                        budget: next() % 10 == 0 ? nil : budget)
                    transaction.budget?.transactions.append(transaction)
                    transactions.append(transaction)
                }
                movies.append(Movie(name: "Movie \(index)", genre: [Genre.action, .kids, .horror][Int(next() % 3)]))
            }
        }
    }

    /// Each case: pq's predicate from text, and the same written with `#Predicate`,
    /// over the same objects; the medians of `repetitions` runs, side by side.
    public static func evaluationTimes(count: Int = 100_000, repetitions: Int = 7) throws -> [EvaluationMeasurement] {
        let objects = Objects(count: count)
        let minimum = 1000.0
        let vac = "Vac"
        let three = 3
        let action = Genre.action.rawValue
        let falseValue = false
        var results: [EvaluationMeasurement] = []
        func measure<M>(_ name: String, _ items: [M], _ text: String, _ handWritten: Predicate<M>) throws where M: QueryModel {
            let pq = try ModelQuery<M>(parsing: text).foundationPredicate()
            let expected = try items.filter { try handWritten.evaluate($0) }.count
            let got = try items.filter { try pq.evaluate($0) }.count
            guard got == expected else {
                throw BuildRefusal(reason: "\(name): pq's predicate selects \(got), the hand-written one \(expected)")
            }
            var pqSamples: [Duration] = []
            var handSamples: [Duration] = []
            for _ in 0..<repetitions {
                pqSamples.append(Stopwatch.time { _ = try? items.filter { try pq.evaluate($0) } }.0)
                handSamples.append(Stopwatch.time { _ = try? items.filter { try handWritten.evaluate($0) } }.0)
            }
            results.append(
                EvaluationMeasurement(
                    name: name, objects: items.count, selected: got, pq: Stopwatch.median(pqSamples),
                    handWritten: Stopwatch.median(handSamples)))
        }
        try measure(
            "attribute and string test", objects.budgets, "limit > 1000 && name contains 'Vac'",
            #Predicate<Budget> { $0.limit > minimum && $0.name.contains(vac) })
        try measure(
            "optional to-one", objects.transactions, "budget?.name contains 'Vac'",
            #Predicate<Transaction> { $0.budget?.name.contains(vac) ?? falseValue })
        try measure(
            "to-many count", objects.budgets, "transactions.@count >= 3",
            #Predicate<Budget> { $0.transactions.count >= three })
        try measure(
            "to-many quantifier", objects.budgets, "any transactions.amount > 900",
            #Predicate<Budget> { $0.transactions.contains { $0.amount > 900 } })
        try measure(
            "enum by raw value", objects.movies, "genre == .action", #Predicate<Movie> { $0.genre.rawValue == action })
        return results
    }

    /// Both benchmarks, as Markdown tables.
    public static func report(count: Int = 100_000, repetitions: Int = 7) throws -> String {
        var lines = ["| query | build the Predicate (median) |", "|---|---:|"]
        for measurement in buildTimes(batches: repetitions) {
            switch measurement.result {
            case .success(let median): lines.append("| `\(measurement.query)` | \(median.formatted) |")
            case .failure(let refusal): lines.append("| `\(measurement.query)` | refused: \(refusal.reason) |")
            }
        }
        lines += ["", "| case | objects | selected | pq's Predicate | #Predicate | ratio |", "|---|---:|---:|---:|---:|---:|"]
        for measurement in try evaluationTimes(count: count, repetitions: repetitions) {
            let ratio = measurement.pq.seconds / max(measurement.handWritten.seconds, 1e-12)
            lines.append(
                "| \(measurement.name) | \(measurement.objects) | \(measurement.selected) | \(measurement.pq.formatted) | \(measurement.handWritten.formatted) | \(String(format: "%.2f", ratio))× |"
            )
        }
        return lines.joined(separator: "\n")
    }
}
