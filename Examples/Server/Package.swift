// swift-tools-version:6.1
//
// Using pq as a server would: filters and sorts arrive as text in HTTP requests,
// their parameters are bound from the request, the query runs on SQLite, and
// errors go back as JSON diagnostics. Plus the typed builder composing a filter
// from optional UI state.
//
// An example package apart from pq's own, so it may depend on a web framework;
// pq itself depends on nothing.

import PackageDescription

let package = Package(
    name: "pq-server-example",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "pq-server", targets: ["pq-server"]),
        .executable(name: "compose-filter", targets: ["compose-filter"]),
        .executable(name: "pq-load", targets: ["pq-load"]),
    ],
    dependencies: [
        .package(name: "pq", path: "../.."),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
    ],
    targets: [
        // Requests in, JSON out: no HTTP here, so it is tested without a server.
        .target(
            name: "QueryService",
            dependencies: [
                .product(name: "PredicateQuery", package: "pq"),
                .product(name: "PredicateQuerySQLite", package: "pq"),
                .product(name: "PredicateQueryPostgres", package: "pq"),
                .product(name: "PredicateQueryExamples", package: "pq"),
            ]),
        // The HTTP routes: Hummingbird handlers that hand requests to QueryService.
        .target(
            name: "PQServer",
            dependencies: ["QueryService", .product(name: "Hummingbird", package: "hummingbird")]),
        // The server itself: the routes on a port, over the example store or a store file.
        .executableTarget(
            name: "pq-server",
            dependencies: [
                "PQServer", "QueryService", .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "PredicateQueryPostgres", package: "pq"),
                .product(name: "PredicateQueryExamples", package: "pq"),
            ]),
        // A bare TCP client on loopback, for the load test and the tests.
        .target(name: "LoopbackSocket"),
        // A load test run by hand: the server driven at 1–256 connections over loopback.
        .executableTarget(name: "pq-load", dependencies: ["LoopbackSocket"]),
        // The typed builder: a filter composed from optional UI state.
        .target(
            name: "FilterComposition",
            dependencies: [
                .product(name: "PredicateQuery", package: "pq"),
                .product(name: "PredicateQueryExamples", package: "pq"),
            ]),
        .executableTarget(
            name: "compose-filter",
            dependencies: [
                "FilterComposition",
                .product(name: "PredicateQuerySQLite", package: "pq"),
                .product(name: "PredicateQueryExamples", package: "pq"),
            ]),
        .testTarget(
            name: "QueryServiceTests",
            dependencies: [
                "QueryService", "PQServer", "LoopbackSocket",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "PredicateQueryPostgres", package: "pq"),
                .product(name: "PredicateQueryTestSupport", package: "pq"),
            ]),
        .testTarget(
            name: "FilterCompositionTests",
            dependencies: [
                "FilterComposition",
                .product(name: "PredicateQuery", package: "pq"),
                .product(name: "PredicateQuerySQLite", package: "pq"),
                .product(name: "PredicateQueryExamples", package: "pq"),
            ]),
    ]
)
