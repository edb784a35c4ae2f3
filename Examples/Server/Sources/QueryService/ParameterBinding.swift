// Request parameters made into values of the types the checked query gives them.
// JSON values keep their JSON type (a JSON string is a string, quotes and all);
// text from a URL's query string is read as pq's --param reads it.

import Foundation
import PredicateQuery

/// A parameter's value as the request carried it.
enum ParameterInput: Sendable {
    case json(JSONValue)
    case text(String)
}

enum ParameterBinding {
    /// The values for every parameter `query` declares; an error names the first
    /// that is missing, unused or of the wrong type.
    static func values(
        for query: CheckedQuery, from inputs: [String: ParameterInput]
    ) throws(BindingError) -> [String: ParameterValue] {
        var values: [String: ParameterValue] = [:]
        for declaration in query.parameters {
            guard let input = inputs[declaration.name] else {
                throw BindingError(message: "the query needs a value for '$\(declaration.name)' (\(declaration.type))")
            }
            switch input {
            case .text(let text):
                try checkRange(text, as: declaration.type, name: declaration.name)
                values[declaration.name] = try ParameterText.value(text, as: declaration.type, name: declaration.name)
            case .json(let json):
                values[declaration.name] = try value(json, as: declaration.type, name: declaration.name)
            }
        }
        let declared = Set(query.parameters.map(\.name))
        if let unused = inputs.keys.sorted().first(where: { !declared.contains($0) }) {
            throw BindingError(message: "parameter '$\(unused)' is not used by the query")
        }
        return values
    }

    private static func value(_ json: JSONValue, as type: ValueType, name: String) throws(BindingError) -> ParameterValue {
        if case .list(let element) = type {
            guard case .array(let items) = json else {
                throw BindingError(message: "parameter '$\(name)' needs a list of \(element) values, not \(describe(json))")
            }
            var values: [Value] = []
            for item in items { values.append(try single(item, as: element, name: name)) }
            return .list(values)
        }
        return .single(try single(json, as: type, name: name))
    }

    private static func single(_ json: JSONValue, as type: ValueType, name: String) throws(BindingError) -> Value {
        switch (json, type) {
        case (.null, _): return .null
        case (.bool(let value), .bool): return .bool(value)
        case (.integer(let value), .int): return .int(value)
        case (.integer(let value), .double), (.integer(let value), .duration): return .double(Double(value))
        case (.integer(let value), .enumeration): return .int(value)
        case (.number(let value), .double), (.number(let value), .duration): return .double(value)
        case (.number(let value), .int) where value.rounded() == value:
            // A whole number the decoder could only read as a double: past 64 bits.
            throw outOfRange(name, "Int", "\(value)")
        case (.string(let value), .string), (.string(let value), .url): return .string(value)
        case (.string(let value), .enumeration), (.string(let value), .date), (.string(let value), .uuid):
            // Case names, raw values, ISO 8601 dates and UUIDs are read as text.
            return try ParameterText.single(value, as: type, name: name)
        case (.array, _), (.object, _):
            throw BindingError(message: "parameter '$\(name)' takes one \(type) value, not \(describe(json))")
        default:
            throw BindingError(message: "parameter '$\(name)' needs a value of type '\(type)', not \(describe(json))")
        }
    }

    /// The error for a number that is a number of the right kind but does not fit.
    private static func outOfRange(_ name: String, _ type: String, _ text: String) -> BindingError {
        let range =
            type == "Int"
            ? "a 64-bit integer, \(Int64.min) to \(Int64.max)" : "a 64-bit double, within ±1.8e308"
        return BindingError(message: "parameter '$\(name)' is out of range for '\(type)' (\(range)), not \(text.prefix(40))")
    }

    /// Numbers in a URL's text that are numbers but do not fit the parameter's type
    /// (`$n=99999999999999999999`, `$x=1e400`), which `ParameterText` would call
    /// values of the wrong type, or read as infinity.
    private static func checkRange(_ text: String, as type: ValueType, name: String) throws(BindingError) {
        if case .list(let element) = type {
            for part in text.trimmingCharacters(in: CharacterSet(charactersIn: "[] ")).split(separator: ",") {
                try checkRange(part.trimmingCharacters(in: .whitespaces), as: element, name: name)
            }
            return
        }
        let number = text.replacingOccurrences(of: "_", with: "")
        switch type {
        case .int:
            let digits = number.hasPrefix("-") || number.hasPrefix("+") ? number.dropFirst() : Substring(number)
            if !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber), Int64(number) == nil {
                throw outOfRange(name, "Int", "'\(text)'")
            }
        case .double, .duration:
            let lowered = number.lowercased()
            if let value = Double(number), !value.isFinite, !lowered.contains("inf"), !lowered.contains("nan") {
                throw outOfRange(name, "\(type)", "'\(text)'")
            }
        default:
            break
        }
    }

    private static func describe(_ json: JSONValue) -> String {
        switch json {
        case .null: "null"
        case .bool(let value): "\(value)"
        case .integer(let value): "\(value)"
        case .number(let value): "\(value)"
        case .string(let value): "the string \"\(value.prefix(40))\""
        case .array: "an array"
        case .object: "an object"
        }
    }
}
