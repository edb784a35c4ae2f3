// swift-tools-version:6.1
//
// pq: a predicate query language and compiler for Swift.
//
// The product depends on nothing but the Swift toolchain (and, from the store
// modules on, the system's SQLite and zlib; libpq is loaded at run time, so no
// target needs its headers to build). Benchmarks/ and Examples/ are separate
// packages and may depend on others.

import PackageDescription

let package = Package(
    name: "pq",
    // SwiftData's first releases: Foundation's Predicate and SortDescriptor need them.
    // (Only built on Linux so far, where this line has no effect; see README.md.)
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "PredicateQuery", targets: ["PredicateQuery"]),
        .library(name: "PredicateQueryExamples", targets: ["PredicateQueryExamples"]),
        .library(name: "PredicateQueryStore", targets: ["PredicateQueryStore"]),
        .library(name: "PredicateQuerySQLite", targets: ["PredicateQuerySQLite"]),
        .library(name: "PredicateQueryPostgres", targets: ["PredicateQueryPostgres"]),
        .library(name: "PredicateQueryModels", targets: ["PredicateQueryModels"]),
        .executable(name: "pq", targets: ["pq"]),
        // `pq lint` as SwiftPM/Xcode plugins: `swift package pq-lint`, and a build tool
        // that lints a target as it builds (Documentation/Lint.md, "In Xcode and CI").
        .plugin(name: "PQLintCommand", targets: ["PQLintCommand"]),
        .plugin(name: "PQLintBuildTool", targets: ["PQLintBuildTool"]),
        // For the fuzzer package in Fuzz/, which builds with sanitizers in its own folder.
        .library(name: "PredicateQueryFuzzing", targets: ["PredicateQueryFuzzing"]),
        // For the example packages' tests only (Examples/Server runs against a throwaway
        // PostgreSQL server): one copy of the start/stop logic, not two.
        .library(name: "PredicateQueryTestSupport", targets: ["PredicateQueryTestSupport"]),
    ],
    targets: [
        // The compiler core: syntax, diagnostics, schema, checking. Never links SQLite.
        .target(name: "PredicateQuery"),
        // The system's SQLite (libsqlite3; Debian's libsqlite3-dev provides the header).
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // What every store shares, whatever the database: the store and pool protocols,
        // errors by kind, rows and their decoding, lending connections, budgets and
        // cancellation. Links no database.
        .target(name: "PredicateQueryStore", dependencies: ["PredicateQuery"]),
        // Runs compiled queries on SQLite stores; creates stores and writes object graphs.
        // The store modules depend on the core and the store layer, never on each other.
        .target(name: "PredicateQuerySQLite", dependencies: ["PredicateQuery", "PredicateQueryStore", "CSQLite"]),
        // Runs compiled queries on PostgreSQL databases; creates tables and loads object graphs.
        // Loads the system's libpq (PostgreSQL's client library) with dlopen when first used.
        .target(name: "PredicateQueryPostgres", dependencies: ["PredicateQuery", "PredicateQueryStore"]),
        // The system's zlib (Debian's zlib1g-dev), to inflate a store's model cache.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // Model sources → Schema: Swift @Model files, Xcode and compiled Core Data models,
        // a store's model cache. Never links SQLite.
        .target(name: "PredicateQueryModels", dependencies: ["PredicateQuery", "CZlib"]),
        // The command line and the REPL.
        .target(
            name: "PredicateQueryCLI",
            dependencies: [
                "PredicateQuery", "PredicateQueryModels", "PredicateQuerySQLite", "PredicateQueryExamples",
                "PredicateQueryPostgres", "PredicateQueryLintCommand",
            ]),
        .executableTarget(name: "pq", dependencies: ["PredicateQueryCLI"]),
        // `pq lint` as a command of its own, the tool the plugins below run: it needs the
        // core and the model readers only, so that SwiftPM, which builds a plugin's tool
        // a second time for the host (as `-tool` modules), does not build the stores and
        // the rest of the CLI twice (a fresh `swift build --build-tests` here: 167 s ->
        // 159 s wall, 313 -> 297 s of CPU; and less to build in an app that uses the plugins).
        .target(name: "PredicateQueryLintCommand", dependencies: ["PredicateQuery", "PredicateQueryModels"]),
        .executableTarget(name: "pq-lint", dependencies: ["PredicateQueryLintCommand"]),
        .plugin(
            name: "PQLintCommand",
            capability: .command(
                intent: .custom(verb: "pq-lint", description: "Check the package's SwiftData queries with pq lint")),
            dependencies: ["pq-lint"]),
        .plugin(name: "PQLintBuildTool", capability: .buildTool(), dependencies: ["pq-lint"]),
        // The schemas of the seed articles' models, declared through the schema API.
        .target(name: "PredicateQueryExamples", dependencies: ["PredicateQuery"]),
        // One fuzz input through every stage, with the invariants each must keep: run
        // by the libFuzzer target in Fuzz/ and, for committed inputs, by `swift test`.
        .target(
            name: "PredicateQueryFuzzing",
            dependencies: ["PredicateQuery", "PredicateQuerySQLite", "PredicateQueryExamples"]),
        // Helpers shared by the test targets: golden files, a seedable random generator.
        .target(name: "PredicateQueryTestSupport", path: "Tests/PredicateQueryTestSupport"),
        // What the store test targets (SQLite's, PostgreSQL's) share: random data and
        // queries, the values they draw from, the string oracle's cases.
        .target(
            name: "PredicateQueryStoreTestSupport",
            dependencies: ["PredicateQuery", "PredicateQueryExamples", "PredicateQueryTestSupport"],
            path: "Tests/PredicateQueryStoreTestSupport"),
        .testTarget(
            name: "PredicateQueryTests",
            dependencies: ["PredicateQuery", "PredicateQueryExamples", "PredicateQueryTestSupport"],
            exclude: ["Golden"]
        ),
        .testTarget(
            name: "PredicateQueryModelsTests",
            dependencies: [
                "PredicateQuery", "PredicateQueryModels", "PredicateQuerySQLite", "CSQLite", "CZlib", "PredicateQueryExamples",
                "PredicateQueryTestSupport",
            ],
            exclude: ["Golden"]
        ),
        .testTarget(
            name: "PredicateQueryCLITests",
            dependencies: [
                "pq", "pq-lint", "PredicateQueryCLI", "PredicateQueryLintCommand", "PredicateQuery", "PredicateQuerySQLite",
                "CSQLite", "PredicateQueryExamples", "PredicateQueryTestSupport",
            ],
            exclude: ["Golden"]
        ),
        .testTarget(
            name: "PredicateQuerySQLiteTests",
            dependencies: [
                "PredicateQuery", "PredicateQuerySQLite", "PredicateQueryExamples", "PredicateQueryFuzzing",
                "PredicateQueryTestSupport", "PredicateQueryStoreTestSupport",
            ],
            exclude: ["Golden"]
        ),
        // The store layer on its own, with no database behind it.
        .testTarget(name: "PredicateQueryStoreTests", dependencies: ["PredicateQuery", "PredicateQueryStore"]),
        // On a throwaway PostgreSQL server each test starts; SQLite too where a test
        // compares the two stores.
        .testTarget(
            name: "PredicateQueryPostgresTests",
            dependencies: [
                "PredicateQuery", "PredicateQueryStore", "PredicateQueryPostgres", "PredicateQuerySQLite",
                "PredicateQueryExamples", "PredicateQueryTestSupport", "PredicateQueryStoreTestSupport",
            ]
        ),
        .testTarget(
            name: "PredicateQueryFuzzingTests",
            dependencies: ["PredicateQuery", "PredicateQueryFuzzing", "PredicateQueryTestSupport"]
        ),
    ]
)
