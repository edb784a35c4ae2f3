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
