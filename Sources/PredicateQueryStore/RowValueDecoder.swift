// A `Row` read into an app's own `Decodable` type, the same way on every store:
// a property named like an attribute reads that attribute's value, one named like
// a to-one relationship reads the key of the object it points to, and `id` (when
// no attribute has that name) reads the object's own key. Values convert only
// where no information is lost (an integer into a Double, a whole Double into an
// Int), so a wrong type is an error that names the property, never a silent nil.

import Foundation
import PredicateQuery

/// Reads one row through `Decodable`.
struct RowValueDecoder: Decoder {
    let row: Row
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard codingPath.isEmpty else { throw Self.nested(codingPath) }
        return KeyedDecodingContainer(RowContainer<Key>(row: row))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw Self.nested(codingPath) }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { throw Self.nested(codingPath) }

    static func nested(_ path: [any CodingKey]) -> DecodingError {
        .typeMismatch(
            [String: Any].self,
            .init(codingPath: path, debugDescription: "a row's fields are values: a record reads them as properties of one type"))
    }
}

/// The fields of a row, by property name.
private struct RowContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let row: Row
    var codingPath: [any CodingKey] { [] }

    var allKeys: [Key] {
        (Array(row.values.dictionary.keys) + Array(row.toOne.dictionary.keys) + ["id"]).compactMap(Key.init(stringValue:))
    }

    /// The value of `key`'s field: an attribute, a to-one relationship's key, or the object's key.
    func value(_ key: Key) -> Value? {
        if let value = row.values[key.stringValue] { return value }
        if row.values.slot(of: key.stringValue) != nil { return .null }
        if let target = row.toOne[key.stringValue] { return .int(target) }
        if row.toOne.slot(of: key.stringValue) != nil { return .null }
        if key.stringValue == "id" { return .int(row.id.key) }
        return nil
    }

    /// Every key, so that an optional property asks `decodeNil(forKey:)`, which tells a field
    /// that is unset (nil) from a name the rows do not have (an error: a misspelling is not nil).
    func contains(_ key: Key) -> Bool { true }

    func field(_ key: Key) throws -> Value {
        guard let value = value(key) else {
            throw DecodingError.keyNotFound(
                key, .init(codingPath: [key], debugDescription: "the rows have no attribute or to-one relationship '\(key.stringValue)'"))
        }
        return value
    }

    func decodeNil(forKey key: Key) throws -> Bool { try field(key).isNull }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let value = try field(key)
        if value.isNull {
            throw DecodingError.valueNotFound(
                type, .init(codingPath: [key], debugDescription: "'\(key.stringValue)' is unset in this row: make the property optional"))
        }
        return try FieldDecoder(value: value, key: key).decode(type)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        throw RowValueDecoder.nested([key])
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        throw RowValueDecoder.nested([key])
    }

    func superDecoder() throws -> any Decoder { throw RowValueDecoder.nested([]) }

    func superDecoder(forKey key: Key) throws -> any Decoder { throw RowValueDecoder.nested([key]) }
}

/// One field's value, read as the property's type: through the single-value
/// container for scalars and raw-value enums, and directly for Foundation's types.
private struct FieldDecoder: Decoder, SingleValueDecodingContainer {
    let value: Value
    let key: any CodingKey
    var codingPath: [any CodingKey] { [key] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        throw RowValueDecoder.nested(codingPath)
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw RowValueDecoder.nested(codingPath) }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func mismatch(_ type: Any.Type) -> DecodingError {
        .typeMismatch(
            type, .init(codingPath: codingPath, debugDescription: "'\(key.stringValue)' holds \(value), which is not a \(type)"))
    }

    func decodeNil() -> Bool { value.isNull }

    func decode(_ type: Bool.Type) throws -> Bool {
        switch value {
        case .bool(let flag): return flag
        case .int(let number) where number == 0 || number == 1: return number == 1
        default: throw mismatch(type)
        }
    }

    func decode(_ type: String.Type) throws -> String {
        guard case .string(let text) = value else { throw mismatch(type) }
        return text
    }

    func decode(_ type: Double.Type) throws -> Double {
        switch value {
        case .double(let number): return number
        case .int(let number): return Double(number)
        default: throw mismatch(type)
        }
    }

    func decode(_ type: Float.Type) throws -> Float { Float(try decode(Double.self)) }

    func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        switch value {
        case .int(let number):
            guard let exact = T(exactly: number) else { throw mismatch(type) }
            return exact
        case .double(let number):
            guard let exact = T(exactly: number) else { throw mismatch(type) }
            return exact
        case .bool(let flag): return flag ? 1 : 0
        default: throw mismatch(type)
        }
    }

    func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        // Foundation's own types decode from numbers or text; a row holds them as they are.
        guard T.self == Date.self || T.self == UUID.self || T.self == Data.self || T.self == URL.self else {
            return try T(from: self)
        }
        let object: Any? =
            switch value {
            case .date(let date): date
            case .uuid(let uuid): uuid
            case .data(let data): data
            case .string(let text): URL(string: text)
            default: nil
            }
        guard let typed = object as? T else { throw mismatch(type) }
        return typed
    }
}
