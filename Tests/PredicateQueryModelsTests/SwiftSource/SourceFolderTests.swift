// The folder walk that `pq --model` and `pq lint` share: every subfolder, hidden
// entries and `.build` skipped with their contents, exclusions, path order.

import Foundation
import Testing

@testable import PredicateQueryModels

struct SourceFolderTests {
    /// A tree with files at several depths, hidden and excluded ones among them;
    /// `body` gets its root, and the tree is removed after.
    private static func withTree(_ body: (String) throws -> Void) throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("pq-source-folder-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        for file in [
            "App.swift", "README.md", "Models/Book.swift", "Models/Deep/Shelf.swift", "Models/.Draft.swift",
            ".hidden/Ghost.swift", ".build/checkouts/Dependency.swift", "Generated/Mock.swift", "Models/Old.swift",
            "App.xcodeproj/project.pbxproj",
        ] {
            let path = (root as NSString).appendingPathComponent(file)
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try "// \(file)\n".write(toFile: path, atomically: true, encoding: .utf8)
        }
        try body(root)
    }

    @Test func findsWhatIsWantedAtEveryDepthInPathOrder() throws {
        try Self.withTree { root in
            let found = SourceFolder.files(under: root) { name, _ in name.hasSuffix(".swift") }
            #expect(
                found == ["App.swift", "Generated/Mock.swift", "Models/Book.swift", "Models/Deep/Shelf.swift", "Models/Old.swift"].map {
                    (root as NSString).appendingPathComponent($0)
                })
        }
    }

    @Test func skipsHiddenEntriesAndTheBuildFolderWithTheirContents() throws {
        try Self.withTree { root in
            let everything = SourceFolder.files(under: root) { _, _ in true } ?? []
            #expect(!everything.isEmpty)
            let inside = everything.map { String($0.dropFirst(root.count + 1)) }
            #expect(!inside.contains { $0.hasPrefix(".") || $0.contains("/.") }, "\(inside)")
            // Only files: a folder is walked into, not returned.
            #expect(!inside.contains("Models") && !inside.contains("Models/Deep"), "\(inside)")
            #expect(inside.contains("Models/Deep/Shelf.swift") && inside.contains("README.md"), "\(inside)")
        }
    }

    @Test func anExcludedFolderIsSkippedWithEverythingInItAndAnExcludedFileAlone() throws {
        try Self.withTree { root in
            var asked: [String] = []
            let found = SourceFolder.files(
                under: root,
                excluding: { path in
                    asked.append(path)
                    return path.hasSuffix("/Generated") || path.hasSuffix("/Old.swift")
                },
                where: { name, _ in name.hasSuffix(".swift") })
            #expect(
                found == ["App.swift", "Models/Book.swift", "Models/Deep/Shelf.swift"].map {
                    (root as NSString).appendingPathComponent($0)
                })
            // Nothing inside an excluded folder is even asked about.
            #expect(!asked.contains { $0.contains("/Generated/") }, "\(asked)")
        }
    }

    @Test func theWantedTestSeesTheNameAndTheWholePath() throws {
        try Self.withTree { root in
            let projects = SourceFolder.files(under: root) { name, path in
                name == "project.pbxproj" && path.hasSuffix(".xcodeproj/project.pbxproj")
            }
            #expect(projects == [(root as NSString).appendingPathComponent("App.xcodeproj/project.pbxproj")])
        }
    }

    @Test func aFolderNamedLikeASwiftFileIsWalkedIntoNotReturned() throws {
        try Self.withTree { root in
            let odd = (root as NSString).appendingPathComponent("Views.swift")
            try FileManager.default.createDirectory(atPath: odd, withIntermediateDirectories: true)
            try "// inside\n".write(toFile: odd + "/Row.swift", atomically: true, encoding: .utf8)
            let found = SourceFolder.files(under: root) { name, _ in name.hasSuffix(".swift") } ?? []
            #expect(found.contains(odd + "/Row.swift"))
            #expect(!found.contains(odd))
        }
    }

    @Test func aMissingFolderOrAFileIsNilNotEmpty() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("pq-no-such-\(UUID().uuidString)").path
        #expect(SourceFolder.files(under: missing) { _, _ in true } == nil)
        try Self.withTree { root in
            #expect(SourceFolder.files(under: root + "/App.swift") { _, _ in true } == nil)
        }
    }
}
