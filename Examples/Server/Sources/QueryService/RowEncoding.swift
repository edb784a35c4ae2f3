// Rows as JSON objects: every attribute (null when unset), enum attributes by case
// name, to-one relationships by the key of the object they point to.

import Foundation
import PredicateQuery
import PredicateQuerySQLite

enum RowEncoding {
    static func json(_ row: Row, columns: [ResultColumn], schema: Schema) -> [String: JSONValue] {
        var object: [String: JSONValue] = ["id": .integer(row.id.key)]
        for column in columns {
            switch column {
            case .attribute(let attribute):
                object[attribute.name] = json(row.values[attribute.name] ?? .null, attribute.type, schema)
            case .toOne(let relationship):
                object[relationship.name] = row.toOne[relationship.name].map { .integer($0) } ?? .null
            default:
                break
            }
        }
        return object
    }

    private static func json(_ value: Value, _ type: AttributeType, _ schema: Schema) -> JSONValue {
        if case .named(let name) = type, let enumType = schema.enumType(named: name) {
            let raw: EnumType.RawValue? =
                switch value {
                case .int(let number): .int(number)
                case .string(let text): .string(text)
                default: nil
                }
            if let raw, let enumCase = enumType.enumCase(rawValue: raw) { return .string(enumCase.name) }
        }
        switch value {
        case .null: return .null
        case .bool(let flag): return .bool(flag)
        case .int(let number): return .integer(number)
        case .double(let number): return number.isFinite ? .number(number) : .null
        case .string(let text): return .string(text)
        case .date(let date): return .string(date.formatted(.iso8601))
        case .uuid(let uuid): return .string(uuid.uuidString)
        case .data(let data): return .string(data.base64EncodedString())
        }
    }
}
