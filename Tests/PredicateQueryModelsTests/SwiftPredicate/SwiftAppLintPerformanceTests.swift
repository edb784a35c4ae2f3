// `pq lint` reads a folder of 100 model files in under a second: 100 `@Model`
// classes, each with attributes, a to-one and a to-many relationship, and three
// query sites, checked in process. The bound asserted is generous (10 s) so a
// loaded 2-core machine cannot make it flake; the real time is printed.

import Foundation
import PredicateQuery
import PredicateQueryModels
import Testing

struct SwiftAppLintPerformanceTests {
    static func modelFile(_ number: Int, of total: Int) -> SwiftModelSource.File {
        let next = "Model\((number + 1) % total)"
        let text = """
            import Foundation
            import SwiftData

            @Model
            final class Model\(number) {
                var name: String
                var title: String?
                var count: Int
                var amount: Double
                var created: Date
                var isDone: Bool
                var partner: \(next)?
                var children: [Child\(number)] = []

                init(name: String) {
                    self.name = name
                    self.count = 0
                    self.amount = 0
                    self.created = .now
                    self.isDone = false
                }
            }

            @Model
            final class Child\(number) {
                var label: String
                var weight: Double
                var owner: Model\(number)?

                init(label: String) {
                    self.label = label
                    self.weight = 0
                }
            }

            struct View\(number) {
                @Query(filter: #Predicate<Model\(number)> { $0.count > 3 && $0.name.localizedStandardContains(search) }, sort: \\Model\(number).created, order: .reverse)
                var items: [Model\(number)]

                func fetch(limit: Double) -> FetchDescriptor<Model\(number)> {
                    FetchDescriptor<Model\(number)>(
                        predicate: #Predicate { model in
                            if let partner = model.partner { partner.amount > limit } else { model.children.contains { $0.weight > limit } }
                        },
                        sortBy: [SortDescriptor(\\.name, comparator: .lexical), SortDescriptor(\\.partner?.name, comparator: .lexical, order: .reverse)])
                }

                let done = #Predicate<Model\(number)> { $0.isDone && ($0.title ?? "") != "" && $0.children.filter { $0.label.starts(with: "a") }.count >= 2 }
            }
            """
        return SwiftModelSource.File(path: "Models/Model\(number).swift", text: text)
    }

    @Test func aHundredModelFilesInUnderASecond() {
        let files = (0..<100).map { Self.modelFile($0, of: 100) }
        let clock = ContinuousClock()
        let start = clock.now
        let report = SwiftAppLint.lint(files, sql: true)
        let elapsed = clock.now - start
        print("pq lint: 100 model files, \(report.sites.count) query sites, in \(elapsed)")
        #expect(report.schema.entities.count == 200)
        #expect(report.sites.count == 300)
        // One warning per file's search, by design (`localized-standard-contains`); nothing else.
        let others = report.diagnostics.filter { $0.diagnostic.code != .swiftLocalizedStandardContains }
        #expect(others.isEmpty, "\(others.prefix(3).map(\.diagnostic.message))")
        #expect(report.diagnostics.count - others.count == 100)
        #expect(report.sites.allSatisfy { $0.sql != nil })
        #expect(elapsed < .seconds(10))
    }

    /// Thousands of sites whose model comes from their context (a descriptor declared before, an
    /// `@Query` property, the app's generic method) or cannot be told: the look-ups stay indexed
    /// (before the index, 15,000 such sites took a minute).
    @Test func manySitesTypedByTheirContextStayFast() {
        var lines = [
            "import SwiftData", "@Model final class Item { var a: Int = 0; init() {} }",
            "struct Query<T: PersistentModel> { func include(_ p: Predicate<T>) -> Self { self } }",
            "struct V {", "@Query var items: [Item]",
        ]
        for number in 0..<3_000 {
            lines.append(
                "func f\(number)() { var d = FetchDescriptor<Item>(); d.predicate = #Predicate { $0.a > \(number) }; "
                    + "_items = Query(filter: #Predicate { $0.a > 1 }); let q = Query<Item>().include(#Predicate { $0.a > 2 }); "
                    + "e.predicate = #Predicate { $0.a > 3 } }")
        }
        lines.append("}")
        let file = SwiftModelSource.File(path: "Big.swift", text: lines.joined(separator: "\n"))
        let clock = ContinuousClock()
        let start = clock.now
        let report = SwiftAppLint.lint([file])
        let elapsed = clock.now - start
        print("pq lint: \(report.sites.count) sites typed by their context, in \(elapsed)")
        #expect(report.sites.count == 12_000)
        #expect(report.skippedSites.count == 3_000, "only e.predicate, whose e is never declared")
        #expect(report.diagnostics.isEmpty)
        #expect(elapsed < .seconds(20))
    }
}
