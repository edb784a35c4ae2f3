// Foundation itself as the oracle of the export direction: for every query of
// the lowering golden corpus and for generated queries (the differential
// tests' generator, 2,000 per run by default), the `Predicate` pq builds,
// evaluated by Foundation over the example data as Swift objects, must select
// exactly the objects pq's SQL returns from the same data in SQLite, and
// `sorted(using:)` with pq's sort descriptors must give the same order.
// Every refusal is counted by its reason and printed.
//
// PQ_FOUNDATION_ORACLE_CASES sets the number of generated queries.

import Foundation
import PredicateQuery
import PredicateQueryExamples
import PredicateQueryStoreTestSupport
import PredicateQueryTestSupport
import Testing

@testable import PredicateQuerySQLite

struct FoundationExportOracleTests {
    static var generatedCases: Int {
        Int(ProcessInfo.processInfo.environment["PQ_FOUNDATION_ORACLE_CASES"] ?? "") ?? 2_000
    }

    struct Tally {
        var compared = 0
        var nonEmpty = 0
        var refused: [String: Int] = [:]
        var mismatches: [String] = []
        /// Queries whose answers differ where Documentation/SwiftDataApps.md says Swift's String differs
        /// from pq's: text not in composed form (NFC), or a needle that starts with or
        /// holds a combining mark or joiner (Swift compares Characters).
        var stringDifferences: [String] = []
        /// Queries whose Int arithmetic would overflow on some object: pq goes on in
        /// Double, the Foundation predicate throws there (Swift would trap).
        var overflowStops = 0

        var report: String {
            let reasons = refused.sorted { $0.value > $1.value }.map { "\($0.value) \($0.key)" }.joined(separator: "\n  ")
            return "compared \(compared) (\(nonEmpty) selecting something), \(stringDifferences.count) of them differing as Documentation/SwiftDataApps.md documents for text not in NFC or split inside a Character, \(overflowStops) stopped by the Int overflow guard, refused \(refused.values.reduce(0, +)):\n  \(reasons)"
        }
    }

    /// The example data in SQLite and as Swift objects.
    struct Fixture {
        let store: SQLiteStore
        let objects: ExampleObjects
        let environment = QueryEnvironment(now: Date(timeIntervalSinceReferenceDate: 750_000_000), timeZone: TimeZone(identifier: "UTC")!)

        init() throws {
            let graph = ExampleData.graph(fillerPerEntity: 40)
            store = try SQLiteStore.create(at: ":memory:", schema: ExampleSchemas.combined)
            try store.insert(graph)
            objects = ExampleObjects(graph)
        }

        /// Compares Foundation's answer with SQLite's for one query, whatever its entity.
        func compare(_ text: String, parameters: [String: ParameterValue] = [:], tally: inout Tally) {
            let result = QueryCompiler.compile(text, schema: store.schema, mapping: store.mapping)
            guard let entity = result.checked?.entity.name else {
                tally.refused["does not compile on the example store", default: 0] += 1
                return
            }
            switch entity {
            case "Budget": compare(Budget.self, text, parameters, &tally)
            case "Transaction": compare(Transaction.self, text, parameters, &tally)
            case "Movie": compare(Movie.self, text, parameters, &tally)
            case "Folder": compare(Folder.self, text, parameters, &tally)
            case "Snippet": compare(Snippet.self, text, parameters, &tally)
            case "Tag": compare(Tag.self, text, parameters, &tally)
            case "Recipe": compare(Recipe.self, text, parameters, &tally)
            case "Ingredient": compare(Ingredient.self, text, parameters, &tally)
            case "User": compare(User.self, text, parameters, &tally)
            case "Pet": compare(Pet.self, text, parameters, &tally)
            default: tally.refused["entity '\(entity)' has no model class", default: 0] += 1
            }
        }

        private func compare<M: QueryModel & AnyObject>(
            _: M.Type, _ text: String, _ parameters: [String: ParameterValue], _ tally: inout Tally
        ) {
            let query: ModelQuery<M>
            let predicate: Predicate<M>
            let descriptors: [SortDescriptor<M>]
            do {
                query = try ModelQuery<M>(parsing: text).binding(parameters)
                predicate = try query.foundationPredicate(environment: environment)
                descriptors = try query.foundationSortDescriptors()
            } catch {
                tally.refused[Self.reason(error), default: 0] += 1
                return
            }
            let sql = QueryCompiler.compile(query.text, schema: store.schema, mapping: store.mapping)
            guard let compiled = sql.compiled else {
                tally.refused["its printed text does not compile on the store", default: 0] += 1
                return
            }
            let pq: [ObjectID]
            do {
                pq = try store.fetch(compiled, parameters: query.boundValues.merging(parameters) { $1 }, environment: environment).map(\.id)
            } catch {
                tally.refused["SQLite stops it (\(error))", default: 0] += 1
                return
            }
            let all = objects.objects(M.self)
            let foundation: [ObjectID]
            do {
                var selected = try all.filter { try predicate.evaluate($0.object) }
                if !descriptors.isEmpty {
                    let ids = Dictionary(uniqueKeysWithValues: selected.map { (ObjectIdentifier($0.object), $0.id) })
                    selected = selected.map(\.object).sorted(using: descriptors).compactMap { object in
                        ids[ObjectIdentifier(object)].map { ($0, object) }
                    }
                }
                var ids = selected.map(\.id)
                if let offset = query.offset { ids = Array(ids.dropFirst(offset)) }
                if let limit = query.limit { ids = Array(ids.prefix(limit)) }
                foundation = ids
            } catch {
                // The guard pq builds where Swift would trap on an Int overflow: `nil!`.
                if "\(error)".contains("Found nil when unwrapping value of type 'Optional<Int>'"),
                    text.contains(where: { "+-*".contains($0) })
                {
                    tally.overflowStops += 1
                } else {
                    tally.mismatches.append("\(text)\nFoundation threw \(error); SQLite returned \(pq.count) rows")
                }
                return
            }
            tally.compared += 1
            if !pq.isEmpty { tally.nonEmpty += 1 }
            if foundation != pq {
                let report = "\(text)\npredicate: \(predicate)\nSQLite:     \(pq)\nFoundation: \(foundation)"
                let strings = [text] + parameters.values.flatMap { value -> [String] in
                    switch value {
                    case .single(.string(let string)): [string]
                    case .list(let values): values.compactMap { if case .string(let string) = $0 { string } else { nil } }
                    default: []
                    }
                }
                if strings.contains(where: Self.comparesDifferentlyInSwift) {
                    tally.stringDifferences.append(report)
                } else {
                    tally.mismatches.append(report)
                }
            }
        }

        /// Whether Swift's `String` may compare this text otherwise than pq, scalar by
        /// scalar: it is not in composed form (NFC), or holds a combining mark or a
        /// joiner, where Swift's Characters do not split where pq's scalars do.
        static func comparesDifferentlyInSwift(_ text: String) -> Bool {
            if !text.unicodeScalars.elementsEqual(text.precomposedStringWithCanonicalMapping.unicodeScalars) { return true }
            return text.unicodeScalars.contains { scalar in
                scalar == "\u{200D}" || scalar.properties.canonicalCombiningClass != .notReordered
                    || [.nonspacingMark, .spacingMark, .enclosingMark].contains(scalar.properties.generalCategory)
            }
        }

        /// The reason of a refusal, without the construct (so they group).
        static func reason(_ error: any Error) -> String {
            guard let error = error as? ModelQueryError, let first = error.diagnostics.first else { return "\(error)" }
            if let range = first.message.range(of: "cannot become a Foundation predicate: ") {
                return String(first.message[range.upperBound...])
            }
            if let range = first.message.range(of: "cannot become a SortDescriptor: ") {
                return "sort: " + String(first.message[range.upperBound...])
            }
            return "[\(first.code)] \(first.message)"
        }
    }

    /// The queries of the lowering golden corpus (`> query` lines).
    static var goldenQueries: [String] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden/Lowering/SpecForms.txt")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").filter { $0.hasPrefix("> ") }.map { String($0.dropFirst(2)) }
    }

    @Test func theGoldenCorpusMeansTheSameInFoundation() throws {
        let fixture = try Fixture()
        var tally = Tally()
        let queries = Self.goldenQueries
        #expect(queries.count > 100, "the golden corpus was not found or is small: \(queries.count)")
        for text in queries { fixture.compare(text, tally: &tally) }
        print("Foundation oracle, golden corpus (\(queries.count) queries): \(tally.report)")
        #expect(tally.mismatches.isEmpty, "\(tally.mismatches.count) differ:\n\(tally.mismatches.prefix(10).joined(separator: "\n\n"))")
        #expect(tally.compared * 2 >= queries.count, "only \(tally.compared) of \(queries.count) compared")
    }

    @Test(arguments: TestSeedsForOracle.seeds)
    func generatedQueriesMeanTheSameInFoundation(seed: UInt64) throws {
        let fixture = try Fixture()
        var tally = Tally()
        let schema = ExampleSchemas.fromModels
        var generator = RandomQueryGenerator(schema: schema, seed: seed)
        for _ in 0..<Self.generatedCases {
            guard let entity = schema.entities.randomElement(using: &generator.random) else { continue }
            let text = generator.query(for: entity)
            fixture.compare(text, parameters: generator.parameters, tally: &tally)
        }
        print("Foundation oracle, seed \(seed), \(Self.generatedCases) generated queries: \(tally.report)")
        #expect(tally.mismatches.isEmpty, "\(tally.mismatches.count) differ:\n\(tally.mismatches.prefix(10).joined(separator: "\n\n"))")
        #expect(tally.compared * 4 >= Self.generatedCases, "only \(tally.compared) of \(Self.generatedCases) compared")
    }
}

enum TestSeedsForOracle {
    static var seeds: [UInt64] { TestSeeds.with([11]) }
}
