// Xcode models from the corpus: every .xcdatamodel loads, CoreDataPlus's
// SampleModel and CareKit's model read as their XML says, versions are chosen
// from .xccurrentversion or by name, and a bad bundle is a clear error.

import Foundation
import PredicateQuery
import PredicateQueryTestSupport
import Testing

@testable import PredicateQueryModels

@Suite(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus/coredata"))
struct XcodeModelTests {
    @Test func everyCorpusXcodeModelLoads() throws {
        let models = Corpus.xcodeModels()
        #expect(models.count >= 7)
        for path in models {
            let start = ContinuousClock.now
            let (schema, _) = try XcodeModel.schema(modelAt: path)
            let elapsed = ContinuousClock.now - start
            print("loaded \((path as NSString).lastPathComponent): \(schema.entities.count) entities in \(elapsed)")
            #expect(!schema.entities.isEmpty, "\(path)")
            #expect(schema.validate().isEmpty, "\(path): \(schema.validate().map(\.message))")
        }
    }

    @Test func sampleModelVersion2HasThreeLevelsOfInheritanceAndARenamedEntity() throws {
        let (schema, warnings) = try XcodeModel.schema(
            bundleAt: Corpus.path("models/coredataplus/SampleModel.xcdatamodeld"), version: "SampleModel2")
        #expect(warnings.isEmpty)
        #expect(schema.entities.map(\.name) == ["Car", "LuxuryCar", "Person", "SportCar"])
        let luxury = try #require(schema.entity(named: "LuxuryCar"))
        #expect(luxury.parent == "SportCar")
        #expect(luxury.originalName == "ExpensiveSportCar")
        #expect(luxury.attributes.map(\.name) == ["isLimitedEdition"])
        #expect(luxury.attributes.first?.type == .bool)
        #expect(luxury.attributes.first?.defaultValue == "false")
        #expect(schema.entity(named: "SportCar")?.parent == "Car")
        #expect(schema.lineage(of: luxury).map(\.name) == ["LuxuryCar", "SportCar", "Car"])
        let car = try #require(schema.entity(named: "Car"))
        #expect(car.parent == nil && car.originalName == nil)
        #expect(car.attributes.map(\.name) == ["maker", "markedForDeletionAsOf", "model", "numberPlate"])
        #expect(car.attributes.map(\.type) == [.string, .date, .string, .string])
        #expect(car.attributes.map(\.isOptional) == [true, true, true, false])
        #expect(car.attributes.first { $0.name == "numberPlate" }?.isUnique == true)
        let owner = try #require(car.relationships.first)
        #expect(owner.name == "owner" && owner.destination == "Person" && !owner.isToMany && owner.inverse == "cars")
        let cars = try #require(schema.entity(named: "Person")?.relationships.first)
        #expect(cars.name == "cars" && cars.isToMany && !cars.isOrdered && cars.inverse == "owner")
    }

    @Test func theCurrentVersionComesFromXccurrentversion() throws {
        let bundle = Corpus.path("models/coredataplus/SampleModel.xcdatamodeld")
        #expect(try XcodeModel.currentVersion(bundleAt: bundle) == "SampleModel")
        let (current, _) = try XcodeModel.schema(bundleAt: bundle)
        let (named, _) = try XcodeModel.schema(modelAt: bundle + "/SampleModel.xcdatamodel")
        #expect(current == named)
        #expect(current.entity(named: "LuxuryCar") == nil)
        #expect(current.entity(named: "ExpensiveSportCar") != nil)
    }

    @Test func careKitHasElevenEntities() throws {
        let path = Corpus.path("models/carekit/CareKitStore.xcdatamodeld/CareKitStore2.0.xcdatamodel")
        let (schema, _) = try XcodeModel.schema(modelAt: path)
        #expect(schema.entities.count == 11)
        #expect(schema.entities.allSatisfy { $0.name.hasPrefix("OCKCD") })
        let task = try #require(schema.entity(named: "OCKCDTask"))
        let carePlan = try #require(task.relationships.first { $0.name == "carePlan" })
        #expect(!carePlan.isToMany && carePlan.destination == "OCKCDCarePlan")
        let contacts = try #require(schema.entity(named: "OCKCDCarePlan")?.relationships.first { $0.name == "contacts" })
        #expect(contacts.isToMany && contacts.destination == "OCKCDContact" && contacts.inverse == "carePlan")
        let transformables = schema.entities.flatMap(\.attributes).filter {
            if case .transformable = $0.type { true } else { false }
        }
        let xml = try String(contentsOfFile: path + "/contents", encoding: .utf8)
        #expect(transformables.count == xml.components(separatedBy: "attributeType=\"Transformable\"").count - 1)
        #expect(transformables.count > 0)
    }

    @Test func aCurrentVersionTheBundleDoesNotHoldIsAClearError() {
        // CareKit's .xccurrentversion names 2.1, which the corpus copy does not hold.
        let bundle = Corpus.path("models/carekit/CareKitStore.xcdatamodeld")
        #expect(throws: ModelSourceError.self) { try XcodeModel.schema(bundleAt: bundle) }
        do {
            _ = try XcodeModel.schema(bundleAt: bundle)
        } catch {
            #expect(error.message.contains("names 'CareKitStore2.1' as its current version"))
            #expect(error.message.contains("its versions are CareKitStore2.0"))
        }
        #expect((try? XcodeModel.schema(bundleAt: bundle, version: "CareKitStore2.0"))?.0.entities.count == 11)
    }

    @Test func anUnknownVersionNamesTheVersionsThereAre() {
        let bundle = Corpus.path("models/coredataplus/SampleModel.xcdatamodeld")
        do {
            _ = try XcodeModel.schema(bundleAt: bundle, version: "SampleModel9")
            Issue.record("expected an error")
        } catch {
            #expect(
                error.message
                    == "'SampleModel.xcdatamodeld' has no version named 'SampleModel9'; its versions are SampleModel, SampleModel2, SampleModel3"
            )
        }
    }

    @Test func randomMutationsOfARealModelGiveAnErrorOrASchema() throws {
        let path = Corpus.path("models/coredataplus/SampleModel.xcdatamodeld/SampleModel3.xcdatamodel/contents")
        let original = try #require(FileManager.default.contents(atPath: path))
        var errors = 0
        var schemas = 0
        for seed in TestSeeds.with([4, 5]) {
            var random = SplitMix64(seed: seed)
            for _ in 0..<400 {
                var bytes = [UInt8](original)
                for _ in 0..<random.int(1...6) {
                    let mutation = random.pick([
                        UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\""), UInt8(ascii: "&"), UInt8(ascii: "/"), 0xFF,
                    ])
                    bytes[random.int(0...(bytes.count - 1))] = mutation
                }
                do {
                    _ = try XcodeModel.model(fromContents: Data(bytes), source: "mutated").schema(source: "mutated")
                    schemas += 1
                } catch {
                    #expect(error.message.hasPrefix("mutated"), "\(error.message)")
                    errors += 1
                }
            }
        }
        print("mutated SampleModel3's XML: \(errors) errors, \(schemas) schemas")
        #expect(errors > 0)
    }
}
