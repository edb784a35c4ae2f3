// swift-tools-version:6.0
//
// pq's coverage-guided fuzzer: libFuzzer, through SwiftPM's sanitizers. A package
// of its own so that its instrumented build never mixes with the main one:
//
//   Fuzz/run.sh 60        build in .build-fuzz/ and fuzz for 60 seconds
//
// The fuzz target is `FuzzPipeline` in the main package's PredicateQueryFuzzing
// module; this package only hands it libFuzzer's bytes.

import PackageDescription

let package = Package(
    name: "PQFuzz",
    platforms: [.macOS(.v14)],
    dependencies: [.package(name: "pq", path: "..")],
    targets: [
        .executableTarget(
            name: "PQFuzz",
            dependencies: [.product(name: "PredicateQueryFuzzing", package: "pq")]
        )
    ]
)
