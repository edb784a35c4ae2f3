// swift-tools-version:6.1
//
// A small app package that uses pq's lint plugins, as an app would: the build tool
// plugin lints each target as it builds, and `swift package pq-lint` lints on
// demand. Its queries hold one planted error (an enum compared as itself, which
// SwiftData cannot fetch); `check.sh` (run by pq's CI) proves both plugins report it
// at its line. The SwiftData code is inside `#if canImport(SwiftData)`, so the
// package also builds on Linux, where pq lint still reads it.

import PackageDescription

let package = Package(
    name: "LintPluginExample",
    platforms: [.macOS(.v14), .iOS(.v17)],
    dependencies: [.package(name: "pq", path: "../..")],
    targets: [
        .target(name: "TripModels", plugins: [.plugin(name: "PQLintBuildTool", package: "pq")]),
        .target(
            name: "TripQueries", dependencies: ["TripModels"],
            plugins: [.plugin(name: "PQLintBuildTool", package: "pq")]),
    ]
)
