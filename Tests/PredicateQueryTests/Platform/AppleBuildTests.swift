// The library targets an app imports must build with nothing but Apple's SDKs for
// macOS 14 and iOS 17 (Package.swift's platforms). No Mac is at hand to build
// them, so this reads their sources for what would stop that build: APIs iOS
// lacks (Process, the user's home folder), APIs newer than the declared platforms
// (Synchronization's Mutex and Atomic: macOS 15, iOS 18), Linux's C library or
// corelibs-only modules outside a platform check, and C headers an SDK lacks.

import Foundation
import PredicateQueryTestSupport
import Testing

struct AppleBuildTests {
    /// The targets an app links: the core, the store layer, the stores, the model readers, the examples.
    static let libraryTargets = [
        "PredicateQuery", "PredicateQueryStore", "PredicateQuerySQLite", "PredicateQueryPostgres", "PredicateQueryModels",
        "PredicateQueryExamples",
    ]

    /// Spellings that do not build for an Apple platform pq declares, and why.
    static let forbidden: [(pattern: String, reason: String)] = [
        ("import Synchronization", "Mutex and Atomic need macOS 15 and iOS 18; pq declares macOS 14 and iOS 17"),
        ("Process()", "Foundation's Process is not on iOS"),
        ("homeDirectoryForCurrentUser", "not on iOS"),
        ("import FoundationNetworking", "a swift-corelibs-foundation module: Apple's Foundation has none"),
        ("import FoundationXML", "a swift-corelibs-foundation module: Apple's Foundation has none"),
        ("@_implementationOnly import Glibc", "Linux's C library"),
    ]

    static func sources() throws -> [(path: String, text: String)] {
        let root = GoldenFile.repositoryRoot.appendingPathComponent("Sources")
        var files: [(String, String)] = []
        for target in libraryTargets {
            let folder = root.appendingPathComponent(target)
            guard let walker = FileManager.default.enumerator(atPath: folder.path) else { continue }
            for case let relative as String in walker where relative.hasSuffix(".swift") {
                let url = folder.appendingPathComponent(relative)
                files.append(("\(target)/\(relative)", try String(contentsOf: url, encoding: .utf8)))
            }
        }
        return files
    }

    @Test func theLibraryTargetsUseNoAPIAnApplePlatformLacks() throws {
        let files = try Self.sources()
        #expect(files.count > 100, "found only \(files.count) source files")
        for (path, text) in files {
            for (index, line) in text.components(separatedBy: "\n").enumerated() {
                let code = line.components(separatedBy: "//").first ?? ""
                for (pattern, reason) in Self.forbidden where code.contains(pattern) {
                    Issue.record("\(path):\(index + 1): '\(pattern)': \(reason)")
                }
            }
        }
    }

    /// `import Glibc` (or Musl) only inside `#if canImport(Glibc)` / `#if os(Linux)`.
    @Test func linuxsCLibraryIsImportedOnlyBehindAPlatformCheck() throws {
        for (path, text) in try Self.sources() {
            var conditions: [String] = []
            for (index, line) in text.components(separatedBy: "\n").enumerated() {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.hasPrefix("#if ") {
                    conditions.append(trimmed)
                } else if trimmed.hasPrefix("#elseif ") || trimmed.hasPrefix("#else") {
                    if !conditions.isEmpty { conditions[conditions.count - 1] = trimmed }
                } else if trimmed.hasPrefix("#endif") {
                    _ = conditions.popLast()
                } else if trimmed == "import Glibc" || trimmed == "import Musl" {
                    let guarded = conditions.last.map { $0.contains("Glibc") || $0.contains("Musl") || $0.contains("os(Linux)") }
                    #expect(guarded == true, "\(path):\(index + 1): \(trimmed) outside a platform check")
                }
            }
        }
    }

    /// The system libraries the package links are in every Apple SDK (SQLite, zlib);
    /// libpq is loaded at run time, so no target includes its header.
    @Test func theSystemLibrariesAreOnesTheSDKsHave() throws {
        let manifest = try String(
            contentsOf: GoldenFile.repositoryRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        let systemLibraries = manifest.matches(of: /\.systemLibrary\(name: "(\w+)"/).map { String($0.output.1) }
        #expect(Set(systemLibraries) == ["CSQLite", "CZlib"], "\(systemLibraries)")
        #expect(manifest.contains("platforms: [.macOS(.v14), .iOS(.v17)"))
    }
}
