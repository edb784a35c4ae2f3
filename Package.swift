// swift-tools-version:6.0
//
// pq: a predicate query language and compiler for Swift.
//
// The product depends on nothing but the Swift toolchain (and, from the store
// module on, the system's SQLite). Benchmarks/ and Examples/ are separate
// packages and may depend on others.

import PackageDescription

let package = Package(
    name: "pq",
    products: [
        .library(name: "PredicateQuery", targets: ["PredicateQuery"]),
        .library(name: "PredicateQueryExamples", targets: ["PredicateQueryExamples"]),
    ],
    targets: [
        // The compiler core: syntax, diagnostics, schema, checking. Never links SQLite.
        .target(name: "PredicateQuery"),
        // The schemas of the seed articles' models, declared through the schema API.
        .target(name: "PredicateQueryExamples", dependencies: ["PredicateQuery"]),
        .testTarget(
            name: "PredicateQueryTests",
            dependencies: ["PredicateQuery", "PredicateQueryExamples"],
            exclude: ["Golden"]
        ),
    ]
)
