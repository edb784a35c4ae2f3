// Binary property lists (`bplist00`), the container of compiled Core Data models
// (`.mom`), `VersionInfo.plist` and a store's model cache.
//
// The reader parses every object once into a flat table; containers hold the
// numbers of their elements, never the elements themselves, so shared or cyclic
// references cost nothing and cannot recurse. Every offset, length and reference
// is checked against the data: malformed input is an error, never a crash.

import Foundation

/// A parsed binary property list: its objects by number, and the top object.
struct BinaryPropertyList: Sendable {
    /// One object of the list. Containers refer to their elements by object number.
    enum Object: Sendable, Equatable {
        case null
        case bool(Bool)
        case int(Int64)
        case real(Double)
        /// Seconds since 2001-01-01 00:00:00 UTC.
        case date(Double)
        case data(Data)
        case string(String)
        /// A keyed archive's reference to an entry of `$objects`.
        case uid(Int)
        case array([Int])
        case set([Int])
        case dictionary(keys: [Int], values: [Int])
    }

    /// What is wrong with the bytes.
    struct Malformed: Error, Equatable, CustomStringConvertible {
        var description: String
    }

    /// The objects, by number.
    let objects: [Object]
    /// The number of the top object.
    let top: Int

    /// The object with this number, nil when out of range.
    func object(_ number: Int) -> Object? {
        objects.indices.contains(number) ? objects[number] : nil
    }

    /// The string with this object number.
    func string(_ number: Int) -> String? {
        if case .string(let value)? = object(number) { return value }
        return nil
    }

    /// The dictionary with this object number, as string keys to object numbers.
    func dictionary(_ number: Int) -> [String: Int]? {
        guard case .dictionary(let keys, let values)? = object(number) else { return nil }
        var result: [String: Int] = [:]
        for (key, value) in zip(keys, values) {
            if let name = string(key) { result[name] = value }
        }
        return result
    }

    /// Whether the bytes start like a binary property list.
    static func hasSignature(_ data: Data) -> Bool {
        data.starts(with: Array("bplist0".utf8))
    }

    /// Parses `data`; throws `Malformed` for anything that is not a well-formed list.
    init(_ data: Data) throws(Malformed) {
        let bytes = [UInt8](data)
        var reader = Reader(bytes: bytes)
        guard bytes.count >= 8 + 32, bytes.starts(with: Array("bplist0".utf8)) else {
            throw Malformed(description: "not a binary property list (no 'bplist0' signature or too short)")
        }
        let trailer = bytes.count - 32
        let offsetSize = Int(bytes[trailer + 6])
        let referenceSize = Int(bytes[trailer + 7])
        let count = try reader.unsigned(at: trailer + 8, size: 8)
        let top = try reader.unsigned(at: trailer + 16, size: 8)
        let tableOffset = try reader.unsigned(at: trailer + 24, size: 8)
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize) else {
            throw Malformed(
                description: "the trailer gives an offset size of \(offsetSize) and a reference size of \(referenceSize)")
        }
        guard count >= 1, count <= UInt64(bytes.count), top < count else {
            throw Malformed(description: "the trailer gives \(count) objects with top object \(top)")
        }
        let objectCount = Int(count)
        guard tableOffset >= 8, tableOffset <= UInt64(trailer),
            UInt64(objectCount) * UInt64(offsetSize) <= UInt64(trailer) - tableOffset
        else {
            throw Malformed(description: "the offset table (at \(tableOffset)) does not fit in the \(bytes.count) bytes")
        }
        reader.referenceSize = referenceSize
        reader.objectCount = objectCount
        reader.end = Int(tableOffset)
        var objects: [Object] = []
        objects.reserveCapacity(objectCount)
        for number in 0..<objectCount {
            let offset = try reader.unsigned(at: Int(tableOffset) + number * offsetSize, size: offsetSize)
            guard offset >= 8, offset < tableOffset else {
                throw Malformed(description: "object \(number) has offset \(offset), outside the object area")
            }
            objects.append(try reader.object(at: Int(offset), number: number))
        }
        self.objects = objects
        self.top = Int(top)
    }
}

/// Bounds-checked reading of the object area.
private struct Reader {
    let bytes: [UInt8]
    var referenceSize = 1
    var objectCount = 0
    /// The end of the object area (the offset table's start).
    var end = 0

    init(bytes: [UInt8]) {
        self.bytes = bytes
        self.end = bytes.count
    }

    func fail(_ message: String) -> BinaryPropertyList.Malformed {
        BinaryPropertyList.Malformed(description: message)
    }

    /// A big-endian unsigned integer of `size` (1…8) bytes at `offset`.
    func unsigned(at offset: Int, size: Int) throws(BinaryPropertyList.Malformed) -> UInt64 {
        guard offset >= 0, size >= 1, size <= 8, offset <= bytes.count - size else {
            throw fail("a \(size)-byte integer at offset \(offset) runs past the end of the data")
        }
        var value: UInt64 = 0
        for index in offset..<(offset + size) { value = value << 8 | UInt64(bytes[index]) }
        return value
    }

    /// `count` bytes at `offset`, inside the object area.
    func slice(at offset: Int, count: Int) throws(BinaryPropertyList.Malformed) -> ArraySlice<UInt8> {
        guard count >= 0, offset >= 0, offset <= end, count <= end - offset else {
            throw fail("\(count) bytes at offset \(offset) run past the object area")
        }
        return bytes[offset..<(offset + count)]
    }

    /// The length in a marker's low nibble, or the integer object after it (nibble 0xF).
    /// Returns the length and the offset of what follows.
    func length(marker: UInt8, at offset: Int) throws(BinaryPropertyList.Malformed) -> (Int, Int) {
        let nibble = Int(marker & 0x0F)
        if nibble != 0x0F { return (nibble, offset + 1) }
        guard offset + 1 < end else { throw fail("a length at offset \(offset) runs past the object area") }
        let lengthMarker = bytes[offset + 1]
        guard lengthMarker & 0xF0 == 0x10, lengthMarker & 0x0F <= 3 else {
            throw fail("the length at offset \(offset + 1) is not an integer")
        }
        let size = 1 << Int(lengthMarker & 0x0F)
        let value = try unsigned(at: offset + 2, size: size)
        guard value <= UInt64(end) else { throw fail("a length of \(value) at offset \(offset) is larger than the data") }
        return (Int(value), offset + 2 + size)
    }

    /// `count` object references at `offset`, each a valid object number.
    func references(at offset: Int, count: Int) throws(BinaryPropertyList.Malformed) -> [Int] {
        guard count <= (end - min(offset, end)) / referenceSize else {
            throw fail("\(count) references at offset \(offset) run past the object area")
        }
        var result: [Int] = []
        result.reserveCapacity(count)
        for index in 0..<count {
            let reference = try unsigned(at: offset + index * referenceSize, size: referenceSize)
            guard reference < UInt64(objectCount) else {
                throw fail("a reference to object \(reference) at offset \(offset + index * referenceSize), of \(objectCount)")
            }
            result.append(Int(reference))
        }
        return result
    }

    func object(at offset: Int, number: Int) throws(BinaryPropertyList.Malformed) -> BinaryPropertyList.Object {
        let marker = bytes[offset]
        let nibble = Int(marker & 0x0F)
        switch marker >> 4 {
        case 0x0:
            switch marker {
            case 0x00: return .null
            case 0x08: return .bool(false)
            case 0x09: return .bool(true)
            default: throw fail("object \(number) has the unknown marker 0x\(String(marker, radix: 16))")
            }
        case 0x1:
            guard nibble <= 4 else { throw fail("object \(number) is an integer of 2^\(nibble) bytes") }
            if nibble == 4 {  // 128-bit: keep the low 64 bits, which hold every value Core Data writes
                _ = try slice(at: offset + 1, count: 16)
                return .int(Int64(bitPattern: try unsigned(at: offset + 9, size: 8)))
            }
            _ = try slice(at: offset + 1, count: 1 << nibble)
            return .int(Int64(bitPattern: try unsigned(at: offset + 1, size: 1 << nibble)))
        case 0x2:
            guard nibble == 2 || nibble == 3 else { throw fail("object \(number) is a real of 2^\(nibble) bytes") }
            _ = try slice(at: offset + 1, count: 1 << nibble)
            let raw = try unsigned(at: offset + 1, size: 1 << nibble)
            return .real(nibble == 2 ? Double(Float(bitPattern: UInt32(raw))) : Double(bitPattern: raw))
        case 0x3:
            guard marker == 0x33 else { throw fail("object \(number) has the unknown marker 0x\(String(marker, radix: 16))") }
            _ = try slice(at: offset + 1, count: 8)
            return .date(Double(bitPattern: try unsigned(at: offset + 1, size: 8)))
        case 0x4:
            let (count, start) = try length(marker: marker, at: offset)
            return .data(Data(try slice(at: start, count: count)))
        case 0x5:
            let (count, start) = try length(marker: marker, at: offset)
            let slice = try slice(at: start, count: count)
            guard let text = String(bytes: slice, encoding: .ascii) ?? String(bytes: slice, encoding: .isoLatin1) else {
                throw fail("object \(number) is not an ASCII string")
            }
            return .string(text)
        case 0x6:
            let (count, start) = try length(marker: marker, at: offset)
            guard count <= Int.max / 2 else { throw fail("object \(number) is a string too long for the data") }
            let slice = try slice(at: start, count: count * 2)
            var units: [UInt16] = []
            units.reserveCapacity(count)
            var index = slice.startIndex
            while index < slice.endIndex {
                units.append(UInt16(slice[index]) << 8 | UInt16(slice[index + 1]))
                index += 2
            }
            return .string(String(decoding: units, as: UTF16.self))
        case 0x8:
            _ = try slice(at: offset + 1, count: nibble + 1)
            let value = try unsigned(at: offset + 1, size: nibble + 1)
            guard value <= UInt64(Int32.max) else { throw fail("object \(number) is a reference to \(value)") }
            return .uid(Int(value))
        case 0xA, 0xC:
            let (count, start) = try length(marker: marker, at: offset)
            let elements = try references(at: start, count: count)
            return marker >> 4 == 0xA ? .array(elements) : .set(elements)
        case 0xD:
            let (count, start) = try length(marker: marker, at: offset)
            guard count <= Int.max / 2 / referenceSize else {
                throw fail("object \(number) is a dictionary too large for the data")
            }
            let keys = try references(at: start, count: count)
            let values = try references(at: start + count * referenceSize, count: count)
            return .dictionary(keys: keys, values: values)
        default:
            throw fail("object \(number) has the unknown marker 0x\(String(marker, radix: 16))")
        }
    }
}
