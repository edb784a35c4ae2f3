// swift-tools-version:6.0
//
// pq's benchmarks: compile cost, and query cost end to end against hand-written
// SQL on the same connection, Foundation's #Predicate over objects in memory, and
// GRDB's query interface. A package of its own, so that it may depend on GRDB; pq
// itself depends on nothing. See README.md for the numbers and how to reproduce them.

import PackageDescription

let package = Package(
    name: "pq-benchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "pq", path: ".."),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        // The data generator, the timing harness and the benchmark cases.
        .target(
            name: "PQBenchmarks",
            dependencies: [
                .product(name: "PredicateQuery", package: "pq"),
                .product(name: "PredicateQuerySQLite", package: "pq"),
                .product(name: "PredicateQueryPostgres", package: "pq"),
                .product(name: "PredicateQueryExamples", package: "pq"),
                .product(name: "GRDB", package: "GRDB.swift"),
                // The sqlite3 C API, for the hand-written baseline.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]),
        .executableTarget(name: "pq-bench", dependencies: ["PQBenchmarks"]),
        // On a small generated store: every approach of every case selects the same
        // rows, so the benchmark compares like with like.
        .testTarget(name: "PQBenchmarksTests", dependencies: ["PQBenchmarks"]),
    ]
)
