// Malformed binary property lists and archives: truncated, garbage, offsets and
// references out of range, impossible trailers, and random byte mutations of a
// real compiled model. Each is an error with a message, never a crash.

import Foundation
import PredicateQuery
import PredicateQueryTestSupport
import Testing

@testable import PredicateQueryModels

struct BinaryPropertyListTests {
    /// A small valid list: a dictionary of a string to an array of an int and a real.
    static func sample() -> Data {
        var writer = PlistWriter()
        let key = writer.add(.string("key"))
        let int = writer.add(.int(-5))
        let real = writer.add(.real(2.5))
        let array = writer.add(.array([int, real]))
        let top = writer.add(.dictionary([(key, array)]))
        return writer.data(top: top)
    }

    static func malformed(_ data: Data) -> String? {
        do {
            _ = try BinaryPropertyList(data)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func aWellFormedListReads() throws {
        let plist = try BinaryPropertyList(Self.sample())
        let dictionary = try #require(plist.dictionary(plist.top))
        let array = try #require(dictionary["key"])
        guard case .array(let elements)? = plist.object(array) else {
            Issue.record("not an array")
            return
        }
        #expect(elements.map { plist.object($0) } == [.int(-5), .real(2.5)])
    }

    @Test func emptyShortAndGarbageDataAreErrors() {
        #expect(Self.malformed(Data())?.contains("no 'bplist0' signature") == true)
        #expect(Self.malformed(Data("bplist00".utf8)) != nil)
        #expect(Self.malformed(Data((0..<200).map { UInt8($0) })) != nil)
        #expect(Self.malformed(Data(repeating: 0xFF, count: 100) + Data("bplist00".utf8)) != nil)
    }

    @Test func everyTruncationIsAnError() {
        let data = Self.sample()
        for length in 0..<data.count {
            #expect(Self.malformed(data.prefix(length)) != nil, "prefix of \(length) bytes")
        }
    }

    @Test func offsetsAndReferencesOutOfRangeAreErrors() {
        let data = Self.sample()
        let trailer = data.count - 32
        // The offset table pointing past the end.
        var pastEnd = data
        pastEnd[trailer + 31] = 0xFF
        pastEnd[trailer + 30] = 0xFF
        #expect(Self.malformed(pastEnd)?.contains("offset table") == true)
        // More objects than bytes.
        var tooMany = data
        tooMany[trailer + 12] = 0x7F
        #expect(Self.malformed(tooMany) != nil)
        // A top object beyond the count.
        var badTop = data
        badTop[trailer + 23] = 0xFF
        #expect(Self.malformed(badTop) != nil)
        // Zero-byte references.
        var zeroSize = data
        zeroSize[trailer + 7] = 0
        #expect(Self.malformed(zeroSize) != nil)
        // An array element referring to an object that does not exist (the array is object 3;
        // its first reference follows its one-byte marker).
        var badReference = data
        let arrayOffset = Int(data[trailer - 10 + 6]) << 8 | Int(data[trailer - 10 + 7])
        badReference[arrayOffset + 2] = 0x7F
        #expect(Self.malformed(badReference)?.contains("a reference to object") == true)
        // An object offset pointing into the offset table.
        var badOffset = data
        badOffset[trailer - 1] = UInt8(trailer - 4 & 0xFF)
        badOffset[trailer - 2] = UInt8(trailer - 4 >> 8)
        #expect(Self.malformed(badOffset) != nil)
    }

    @Test func aListThatIsNotAnArchiveIsAClearModelError() {
        #expect {
            try CompiledModel.schema(fromArchive: Self.sample(), source: "plain.plist")
        } throws: { error in
            (error as? ModelSourceError)?.message
                == "plain.plist is not a compiled Core Data model: not an NSKeyedArchiver archive (no '$archiver')"
        }
    }

    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus/coredata"))
    func randomMutationsOfARealModelGiveAnErrorOrASchema() throws {
        let path = Corpus.path("models/coredataplus/SampleModel.momd/SampleModel2.mom")
        let original = try #require(FileManager.default.contents(atPath: path))
        var errors = 0
        var schemas = 0
        for seed in TestSeeds.with([1, 2, 3]) {
            var random = SplitMix64(seed: seed)
            for _ in 0..<700 {
                var bytes = [UInt8](original)
                if random.chance(20) {
                    bytes = Array(bytes.prefix(random.int(0...(bytes.count - 1))))
                } else {
                    for _ in 0..<random.int(1...8) where !bytes.isEmpty {
                        bytes[random.int(0...(bytes.count - 1))] = UInt8(random.int(0...255))
                    }
                }
                do {
                    let (schema, _) = try CompiledModel.schema(fromArchive: Data(bytes), source: "mutated.mom")
                    _ = schema.validate()
                    schemas += 1
                } catch {
                    #expect(error.message.hasPrefix("mutated.mom is not"), "\(error.message)")
                    errors += 1
                }
            }
        }
        print("mutated SampleModel2.mom: \(errors) errors, \(schemas) schemas")
        #expect(errors > 0 && schemas > 0)
    }
}
