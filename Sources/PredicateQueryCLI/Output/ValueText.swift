// How a value looks in output: in a table cell, and as JSON.

import Foundation
import PredicateQuery
import PredicateQueryModels

enum ValueText {
    /// A value for people: strings as they are (control characters escaped),
    /// numbers as Swift prints them, dates in ISO 8601 (UTC) at full precision
    /// (`ISODate`), enums by case name. nil is the caller's to print.
    static func plain(_ value: Value, type: AttributeType?, schema: Schema) -> String {
        if let enumCase = enumCase(value, type: type, schema: schema) { return enumCase }
        switch value {
        case .null: return ""
        case .bool(let flag): return flag ? "true" : "false"
        case .int(let number): return String(number)
        case .double(let number): return number.description
        case .string(let text): return escapedControls(text)
        case .date(let date): return ISODate.string(date)
        case .uuid(let uuid): return uuid.uuidString
        case .data(let data):
            // An array of values (SwiftData's `[String]`) is a binary property list.
            if case .transformable? = type, let list = StoredListSummary.summary(of: data) { return list }
            return "<\(data.count) bytes>"
        }
    }

    /// The case name of an enum attribute's raw value, if it has one.
    static func enumCase(_ value: Value, type: AttributeType?, schema: Schema) -> String? {
        guard case .named(let name)? = type, let enumType = schema.enumType(named: name) else { return nil }
        let raw: EnumType.RawValue? =
            switch value {
            case .int(let number): .int(number)
            case .string(let text): .string(text)
            default: nil
            }
        return raw.flatMap { enumType.enumCase(rawValue: $0)?.name }
    }

    static func escapedControls(_ text: String) -> String {
        // On bytes: these scalars are one byte each in UTF-8, and no other scalar has such a byte.
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    /// A value as JSON: numbers and Booleans as such, dates as ISO 8601 strings,
    /// UUIDs as strings, data as base64, enums by case name, nil as null.
    static func json(_ value: Value, type: AttributeType?, schema: Schema) -> String {
        if let enumCase = enumCase(value, type: type, schema: schema) { return jsonString(enumCase) }
        switch value {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .int(let number): return String(number)
        case .double(let number): return number.isFinite ? number.description : jsonString(number.description)
        case .string(let text): return jsonString(text)
        case .date(let date): return jsonString(ISODate.string(date))
        case .uuid(let uuid): return jsonString(uuid.uuidString)
        case .data(let data):
            if case .transformable? = type, let elements = StoredListSummary.elements(of: data) {
                return "[" + elements.map(jsonElement).joined(separator: ", ") + "]"
            }
            return jsonString(data.base64EncodedString())
        }
    }

    static func jsonString(_ text: String) -> String {
        // Most text needs no escape: on bytes, as every character escaped is ASCII.
        if !text.utf8.contains(where: { $0 == 0x22 || $0 == 0x5C || $0 < 0x20 || $0 == 0x7F }) {
            return "\"" + text + "\""
        }
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out += String(format: "\\u%04x", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}

extension ValueText {
    /// An element of an array of values, as JSON.
    static func jsonElement(_ element: StoredListSummary.Element) -> String {
        switch element {
        case .string(let text): jsonString(text)
        case .int(let number): String(number)
        case .double(let number): number.isFinite ? number.description : "null"
        case .bool(let flag): flag ? "true" : "false"
        }
    }
}
