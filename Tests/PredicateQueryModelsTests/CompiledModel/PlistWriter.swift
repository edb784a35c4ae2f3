// A minimal binary property list writer for tests: builds the `bplist00`
// archives that the corpus has no example of (composite attributes, ordered
// relationships, cycles) and malformed variants of them.

import Foundation

/// A value to write; containers hold object numbers, as in the file.
enum PlistObject {
    case null
    case bool(Bool)
    case int(Int64)
    case real(Double)
    case string(String)
    case uid(Int)
    case array([Int])
    case dictionary([(Int, Int)])
}

/// Writes objects into a binary property list, with two-byte references and offsets.
struct PlistWriter {
    var objects: [PlistObject] = []

    /// Adds an object and returns its number.
    @discardableResult mutating func add(_ object: PlistObject) -> Int {
        objects.append(object)
        return objects.count - 1
    }

    func data(top: Int) -> Data {
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        func two(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
        func header(_ kind: UInt8, _ count: Int) {
            if count < 15 {
                bytes.append(kind << 4 | UInt8(count))
            } else {
                bytes.append(kind << 4 | 0x0F)
                bytes.append(0x11)
                bytes.append(UInt8(count >> 8))
                bytes.append(UInt8(count & 0xFF))
            }
        }
        for object in objects {
            offsets.append(bytes.count)
            switch object {
            case .null: bytes.append(0x00)
            case .bool(let value): bytes.append(value ? 0x09 : 0x08)
            case .int(let value):
                bytes.append(0x13)
                for shift in stride(from: 56, through: 0, by: -8) {
                    bytes.append(UInt8(truncatingIfNeeded: value >> Int64(shift)))
                }
            case .real(let value):
                bytes.append(0x23)
                let raw = value.bitPattern
                for shift in stride(from: 56, through: 0, by: -8) {
                    bytes.append(UInt8(truncatingIfNeeded: raw >> UInt64(shift)))
                }
            case .string(let text):
                header(0x5, text.utf8.count)
                bytes += Array(text.utf8)
            case .uid(let value):
                bytes.append(0x81)
                bytes += two(value)
            case .array(let elements):
                header(0xA, elements.count)
                bytes += elements.flatMap(two)
            case .dictionary(let pairs):
                header(0xD, pairs.count)
                bytes += pairs.flatMap { two($0.0) } + pairs.flatMap { two($0.1) }
            }
        }
        let tableOffset = bytes.count
        for offset in offsets {
            bytes.append(UInt8(offset >> 8))
            bytes.append(UInt8(offset & 0xFF))
        }
        var trailer = [UInt8](repeating: 0, count: 6) + [2, 2]
        for value in [objects.count, top, tableOffset] {
            for shift in stride(from: 56, through: 0, by: -8) { trailer.append(UInt8(truncatingIfNeeded: value >> shift)) }
        }
        return Data(bytes + trailer)
    }
}

/// Builds an NSKeyedArchiver archive of a managed object model, entry by entry.
struct ArchiveBuilder {
    var writer = PlistWriter()
    /// The plist object number of each `$objects` entry.
    var entries: [Int] = []
    var classes: [String: Int] = [:]

    init() {
        entries.append(writer.add(.string("$null")))
    }

    /// Adds an entry holding `object` and returns the entry's number.
    mutating func entry(_ object: PlistObject) -> Int {
        entries.append(writer.add(object))
        return entries.count - 1
    }

    mutating func string(_ text: String) -> Int { entry(.string(text)) }

    /// The entry of a class description.
    mutating func classEntry(_ name: String) -> Int {
        if let known = classes[name] { return known }
        let nameNumber = writer.add(.string("$classname"))
        let value = writer.add(.string(name))
        let made = entry(.dictionary([(nameNumber, value)]))
        classes[name] = made
        return made
    }

    /// An instance: fields that are entry references (`uid`) or plain values.
    mutating func instance(_ className: String, _ fields: [(String, PlistObject)]) -> Int {
        let placeholder = entry(.null)
        fill(placeholder, className, fields)
        return placeholder
    }

    /// Sets the fields of an entry made earlier (for cycles).
    mutating func fill(_ entryNumber: Int, _ className: String, _ fields: [(String, PlistObject)]) {
        let classNumber = classEntry(className)
        var pairs: [(Int, Int)] = [(writer.add(.string("$class")), writer.add(.uid(classNumber)))]
        for (key, value) in fields { pairs.append((writer.add(.string(key)), writer.add(value))) }
        writer.objects[entries[entryNumber]] = .dictionary(pairs)
    }

    /// An NSArray (`NS.objects`) of entries.
    mutating func array(_ elements: [Int]) -> Int {
        let list = writer.add(.array(elements.map { writer.add(.uid($0)) }))
        return instanceWithRaw("NSArray", [("NS.objects", list)])
    }

    /// An NSDictionary of entries.
    mutating func dictionary(_ pairs: [(Int, Int)]) -> Int {
        let keys = writer.add(.array(pairs.map { writer.add(.uid($0.0)) }))
        let values = writer.add(.array(pairs.map { writer.add(.uid($0.1)) }))
        return instanceWithRaw("NSDictionary", [("NS.keys", keys), ("NS.objects", values)])
    }

    private mutating func instanceWithRaw(_ className: String, _ fields: [(String, Int)]) -> Int {
        let made = entry(.null)
        let classNumber = classEntry(className)
        var pairs: [(Int, Int)] = [(writer.add(.string("$class")), writer.add(.uid(classNumber)))]
        for (key, number) in fields { pairs.append((writer.add(.string(key)), number)) }
        writer.objects[entries[made]] = .dictionary(pairs)
        return made
    }

    /// The archive's bytes, with `root` as `$top.root`.
    mutating func data(root: Int) -> Data {
        let objects = writer.add(.array(entries))
        let rootUID = writer.add(.uid(root))
        let topDictionary = writer.add(.dictionary([(writer.add(.string("root")), rootUID)]))
        let archiver = writer.add(.string("NSKeyedArchiver"))
        let top = writer.add(
            .dictionary([
                (writer.add(.string("$archiver")), archiver), (writer.add(.string("$top")), topDictionary),
                (writer.add(.string("$objects")), objects),
            ]))
        return writer.data(top: top)
    }
}
