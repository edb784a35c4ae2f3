// The one entry point: each path read by what it is, versions chosen by name,
// schemas of several paths merged, and clear errors for what is not a model.

import Foundation
import PredicateQuery
import Testing

@testable import PredicateQueryModels

struct ModelSourcesTests {
    static func temporaryFolder() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pq-sources-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    static func message(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch let error as ModelSourceError {
            return error.message
        } catch {
            return "\(error)"
        }
    }

    @Test func pathsAreReadByWhatTheyAre() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let swift = folder + "/Models.swift"
        try "@Model final class Tag { var name: String = \"\" }".write(toFile: swift, atomically: true, encoding: .utf8)
        let renamedMom = folder + "/model.bin"
        try ArchivedModelTests.model { builder, entity in
            [("name", ArchivedModelTests.attribute(&builder, "name", type: 700, entity: entity))]
        }.write(to: URL(fileURLWithPath: renamedMom))
        #expect(try ModelSources.kind(of: swift) == .swiftSources)
        #expect(try ModelSources.kind(of: folder) == .swiftSources)
        #expect(try ModelSources.kind(of: renamedMom) == .compiledModel)
        let contents = folder + "/contents"
        try "<?xml version=\"1.0\"?>\n<model><entity name=\"Note\"/></model>".write(
            toFile: contents, atomically: true, encoding: .utf8)
        #expect(try ModelSources.kind(of: contents) == .xcodeModel)
        #expect(try ModelSources.load(paths: [contents]).0.entities.map(\.name) == ["Note"])
        let (schema, warnings) = try ModelSources.load(paths: [swift, renamedMom])
        #expect(warnings.isEmpty)
        #expect(schema.entities.map(\.name) == ["Tag", "Cocktail"])
    }

    @Test func anEntityInTwoSourcesIsAnError() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let data = ArchivedModelTests.model { _, _ in [] }
        try data.write(to: URL(fileURLWithPath: folder + "/a.mom"))
        try data.write(to: URL(fileURLWithPath: folder + "/b.mom"))
        #expect(
            Self.message { _ = try ModelSources.load(paths: [folder + "/a.mom", folder + "/b.mom"]) }
                == "the entity 'Cocktail' is declared both in \(folder)/a.mom and in \(folder)/b.mom")
    }

    @Test func missingAndEmptySourcesAreClearErrors() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(
            Self.message { _ = try ModelSources.load(paths: [folder + "/none.swift"]) }
                == "cannot read model file '\(folder)/none.swift': no such file or folder")
        try FileManager.default.createDirectory(atPath: folder + "/Empty.xcdatamodel", withIntermediateDirectories: true)
        #expect(
            Self.message { _ = try ModelSources.load(paths: [folder + "/Empty.xcdatamodel"]) }
                == "'\(folder)/Empty.xcdatamodel' is not a readable Xcode model: it has no 'contents' file")
        try FileManager.default.createDirectory(atPath: folder + "/Empty.xcdatamodeld", withIntermediateDirectories: true)
        #expect(
            Self.message { _ = try ModelSources.load(paths: [folder + "/Empty.xcdatamodeld"]) }
                == "'\(folder)/Empty.xcdatamodeld' holds no model versions (.xcdatamodel folders)")
        try FileManager.default.createDirectory(atPath: folder + "/Empty.momd", withIntermediateDirectories: true)
        #expect(
            Self.message { _ = try ModelSources.load(paths: [folder + "/Empty.momd"]) }
                == "'\(folder)/Empty.momd' holds no compiled models (.mom files)")
        try Data("bplist00 but nothing else".utf8).write(to: URL(fileURLWithPath: folder + "/bad.mom"))
        #expect(
            Self.message { _ = try ModelSources.load(paths: [folder + "/bad.mom"]) }?.hasPrefix(
                "\(folder)/bad.mom is not a compiled Core Data model:") == true)
    }

    @Test func anXcodeModelWithBrokenXMLNamesTheLine() throws {
        let folder = try Self.temporaryFolder() + "/Broken.xcdatamodel"
        defer { try? FileManager.default.removeItem(atPath: (folder as NSString).deletingLastPathComponent) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try "<?xml version=\"1.0\"?>\n<model>\n  <entity name=\"A\">\n</model>\n".write(
            toFile: folder + "/contents", atomically: true, encoding: .utf8)
        #expect(
            Self.message { _ = try ModelSources.load(paths: [folder]) }
                == "\(folder)/contents:4: not a readable Xcode model: </model> closes <entity>")
    }

    @Test func aVersionNeedsAVersionedModel() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try ArchivedModelTests.model { _, _ in [] }.write(to: URL(fileURLWithPath: folder + "/a.mom"))
        #expect(
            Self.message { _ = try ModelSources.load(paths: [folder + "/a.mom"], version: "V2") }
                == "version 'V2' was asked for, but no model given is versioned (.xcdatamodeld or .momd)")
    }

    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus/coredata"))
    func corpusBundlesLoadByVersion() throws {
        let (xml, _) = try ModelSources.load(
            paths: [Corpus.path("models/coredataplus/SampleModel3.xcdatamodeld")], version: "SampleModel3_v2.xcdatamodel")
        let (compiled, _) = try ModelSources.load(
            paths: [Corpus.path("models/coredataplus/SampleModel3.momd")], version: "SampleModel3_v2")
        #expect(xml.entities.count == 2)
        #expect(xml.withoutTransformableNames == compiled.withoutTransformableNames)
    }
}
