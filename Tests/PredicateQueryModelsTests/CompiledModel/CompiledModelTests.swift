// Compiled models from the corpus: every .mom loads, the .momd's current version
// comes from VersionInfo.plist, and each compiled version gives the same schema
// as the Xcode model it was compiled from.

import Foundation
import PredicateQuery
import Testing

@testable import PredicateQueryModels

@Suite(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus/coredata"))
struct CompiledModelTests {
    @Test func everyCorpusCompiledModelLoads() throws {
        let models = Corpus.compiledModels()
        #expect(models.count >= 6)
        for path in models {
            let start = ContinuousClock.now
            let (schema, _) = try CompiledModel.schema(momAt: path)
            let elapsed = ContinuousClock.now - start
            print("loaded \((path as NSString).lastPathComponent): \(schema.entities.count) entities in \(elapsed)")
            #expect(!schema.entities.isEmpty, "\(path)")
            #expect(schema.validate().isEmpty, "\(path): \(schema.validate().map(\.message))")
        }
    }

    @Test func eachCompiledVersionEqualsItsXcodeModel() throws {
        for bundle in ["SampleModel", "SampleModel3"] {
            let momd = Corpus.path("models/coredataplus/\(bundle).momd")
            let xcdatamodeld = Corpus.path("models/coredataplus/\(bundle).xcdatamodeld")
            let versions = Corpus.files(under: "models/coredataplus/\(bundle).momd") { $0.hasSuffix(".mom") }
                .map { (($0 as NSString).lastPathComponent as NSString).deletingPathExtension }
            #expect(versions.count == 3)
            for version in versions {
                let (compiled, compiledWarnings) = try CompiledModel.schema(bundleAt: momd, version: version)
                let (xml, xmlWarnings) = try XcodeModel.schema(bundleAt: xcdatamodeld, version: version)
                // A compiled model keeps a transformable's transformer but not its custom
                // class name (Xcode's customClassName), so those names are compared apart.
                #expect(compiled.withoutTransformableNames == xml.withoutTransformableNames, "\(bundle) \(version)")
                #expect(compiled.entities.map(\.name) == xml.entities.map(\.name))
                for (compiledEntity, xmlEntity) in zip(compiled.entities, xml.entities) {
                    for (compiledAttribute, xmlAttribute) in zip(compiledEntity.attributes, xmlEntity.attributes) {
                        if case .transformable(let name) = compiledAttribute.type {
                            #expect(
                                name == "ColorTransformer" || name == "NSSecureUnarchiveFromData"
                                    || xmlAttribute.type == .transformable(name))
                        }
                    }
                }
                #expect(compiledWarnings.count == xmlWarnings.count)
            }
        }
    }

    @Test func theCurrentVersionComesFromVersionInfo() throws {
        let momd = Corpus.path("models/coredataplus/SampleModel.momd")
        let current = try #require(try CompiledModel.currentVersion(bundleAt: momd))
        #expect(["SampleModel", "SampleModel2", "SampleModel3"].contains(current))
        let (schema, _) = try CompiledModel.schema(bundleAt: momd)
        let (named, _) = try CompiledModel.schema(momAt: momd + "/\(current).mom")
        #expect(schema == named)
    }

    @Test func sampleModelVersion2ReadsAsTheXMLSays() throws {
        let (schema, _) = try CompiledModel.schema(
            momAt: Corpus.path("models/coredataplus/SampleModel.momd/SampleModel2.mom"))
        #expect(schema.entities.map(\.name) == ["Car", "LuxuryCar", "Person", "SportCar"])
        let luxury = try #require(schema.entity(named: "LuxuryCar"))
        #expect(luxury.parent == "SportCar" && luxury.originalName == "ExpensiveSportCar")
        #expect(schema.entity(named: "SportCar")?.parent == "Car")
        let person = try #require(schema.entity(named: "Person"))
        #expect(person.attributes.map(\.name) == ["firstName", "lastName", "updatedAt"])
        #expect(person.attributes.map(\.isOptional) == [true, true, false])
        let cars = try #require(person.relationships.first)
        #expect(cars.isToMany && cars.destination == "Car" && cars.inverse == "owner" && cars.deleteRule == .nullify)
    }

    @Test func anUnknownVersionNamesTheVersionsThereAre() {
        do {
            _ = try CompiledModel.schema(bundleAt: Corpus.path("models/coredataplus/SampleModel3.momd"), version: "v9")
            Issue.record("expected an error")
        } catch {
            #expect(
                error.message
                    == "'SampleModel3.momd' has no version named 'v9'; its versions are SampleModel3, SampleModel3_v2, SampleModel3_v3"
            )
        }
    }
}
