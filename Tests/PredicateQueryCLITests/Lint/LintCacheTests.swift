// `pq lint` on a tree it has seen prints the cached result (issue 24, item 8), and
// any change is seen: a model changed in one file re-checks the queries of another
// file that did not change. Each run of a new tree adds one result to the cache;
// a run of the same tree adds none; `--no-cache` neither reads nor writes it.

import Foundation
import Testing

struct LintCacheTests {
    static let model = """
        import SwiftData

        @Model final class Trip {
            var name: String
            var stops: Int
            init(name: String, stops: Int) { self.name = name; self.stops = stops }
        }
        """

    static let queries = """
        import SwiftData

        let longTrips = #Predicate<Trip> { $0.stops > 3 && $0.name.contains("a") }
        """

    @Test func anUnchangedTreeIsReadFromTheCacheAndAModelChangeIsSeen() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("pq-lint-cache-\(UUID().uuidString)")
        let app = root.appendingPathComponent("App")
        let cache = root.appendingPathComponent("cache")
        try FileManager.default.createDirectory(at: app, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try Self.model.write(to: app.appendingPathComponent("Trip.swift"), atomically: true, encoding: .utf8)
        try Self.queries.write(to: app.appendingPathComponent("Queries.swift"), atomically: true, encoding: .utf8)
        let environment = ["PQ_CACHE_DIR": cache.path]
        func lint(_ extra: [String] = []) throws -> PQResult {
            try PQProcess.run(["lint"] + extra + [app.path], environment: environment)
        }
        func cached() -> Int {
            ((try? FileManager.default.contentsOfDirectory(atPath: cache.appendingPathComponent("lint").path)) ?? []).count
        }

        let first = try lint()
        #expect(first.status == 0, "\(first.output)\(first.error)")
        #expect(first.output.contains("1 query in 2 files: 0 errors"), "\(first.output)")
        #expect(cached() == 1)
        let second = try lint()
        #expect(second.output == first.output && second.status == first.status)
        #expect(cached() == 1, "the same tree was checked again")

        // `stops` becomes computed: the unchanged Queries.swift now has an error.
        let computed = Self.model.replacingOccurrences(
            of: "var stops: Int\n", with: "var legs: [Int] = []\n    var stops: Int { legs.count }\n")
            .replacingOccurrences(of: "self.stops = stops", with: "self.legs = Array(repeating: 0, count: stops)")
        try computed.write(to: app.appendingPathComponent("Trip.swift"), atomically: true, encoding: .utf8)
        let third = try lint()
        #expect(third.status == 1, "\(third.output)")
        #expect(third.output.contains("Queries.swift:3:"), "\(third.output)")
        #expect(cached() == 2)

        let uncached = try lint(["--no-cache"])
        #expect(uncached.output == third.output && uncached.status == third.status)
        #expect(cached() == 2, "--no-cache wrote the cache")
    }
}
