// Parameter values given as text (pq's `--param NAME=VALUE`, a query string, a
// form field), made into values of the type the checked query gives the parameter.

import Foundation

/// Reads parameter values from text. Lists are comma-separated (brackets optional);
/// `nil` or `null` is nil; booleans are `true`/`yes`/`1` or `false`/`no`/`0`; enums
/// take a case name (with or without the dot) or a raw value; dates take ISO 8601;
/// objects take their store key (`Budget:3`, `#3` or `3`); Data takes hexadecimal
/// (`0x00ff`) or Base64 (`base64:AP8=`); strings may be quoted, and the quotes are dropped.
public enum ParameterText {
    /// The value of parameter `name`, of type `type` (from `CheckedQuery.parameters`).
    public static func value(_ text: String, as type: ValueType, name: String) throws(BindingError) -> ParameterValue {
        if case .list(let element) = type {
            var body = text.trimmingCharacters(in: .whitespaces)
            if body.hasPrefix("["), body.hasSuffix("]") { body = String(body.dropFirst().dropLast()) }
            let parts = body.isEmpty ? [] : body.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            var values: [Value] = []
            for part in parts { values.append(try single(part.trimmingCharacters(in: .whitespaces), as: element, name: name)) }
            return .list(values)
        }
        return .single(try single(text, as: type, name: name))
    }

    /// One value of type `type`; `value(_:as:name:)` for lists.
    public static func single(_ text: String, as type: ValueType, name: String) throws(BindingError) -> Value {
        let lowered = text.lowercased()
        if lowered == "nil" || lowered == "null" { return .null }
        let unquoted = unquote(text)
        let invalid = BindingError(message: "parameter '$\(name)' needs a value of type '\(type)', not '\(text)'")
        switch type {
        case .int:
            guard let value = Int64(text.replacingOccurrences(of: "_", with: "")) else { throw invalid }
            return .int(value)
        case .double, .duration:
            guard let value = Double(text.replacingOccurrences(of: "_", with: "")) else { throw invalid }
            return .double(value)
        case .bool:
            switch lowered {
            case "true", "yes", "1": return .bool(true)
            case "false", "no", "0": return .bool(false)
            default: throw invalid
            }
        case .string, .url:
            return .string(unquoted)
        case .date:
            guard let date = LiteralParsing.date(unquoted) else { throw invalid }
            return .date(date)
        case .uuid:
            guard let uuid = LiteralParsing.uuid(unquoted) else { throw invalid }
            return .uuid(uuid)
        case .enumeration(let enumType):
            let caseName = unquoted.hasPrefix(".") ? String(unquoted.dropFirst()) : unquoted
            let found =
                enumType.enumCase(named: caseName)
                ?? (Int64(unquoted).flatMap { enumType.enumCase(rawValue: .int($0)) })
                ?? enumType.enumCase(rawValue: .string(unquoted))
            guard let enumCase = found else {
                let cases = enumType.cases.map(\.name).joined(separator: ", ")
                throw BindingError(message: "parameter '$\(name)': '\(text)' is not a case of '\(enumType.name)' (\(cases))")
            }
            switch enumCase.rawValue {
            case .int(let raw): return .int(raw)
            case .string(let raw): return .string(raw)
            }
        case .data:
            // Bytes as hexadecimal (`0x00ff…`) or Base64 (`base64:AP8=`).
            if unquoted.hasPrefix("0x") || unquoted.hasPrefix("0X") {
                guard let bytes = hexBytes(unquoted.dropFirst(2)) else { throw invalid }
                return .data(Data(bytes))
            }
            if unquoted.hasPrefix("base64:"), let bytes = Data(base64Encoded: String(unquoted.dropFirst(7))) {
                return .data(bytes)
            }
            throw BindingError(
                message: "parameter '$\(name)' takes Data as hexadecimal ('0x00ff') or Base64 ('base64:AP8='), not '\(text)'")
        case .object(let entity):
            // An object by its store key: `Budget:3`, `#3` or `3`.
            var key = unquoted
            if let colon = key.firstIndex(of: ":") {
                let named = key[..<colon]
                guard named == entity else {
                    throw BindingError(
                        message: "parameter '$\(name)' takes an object of '\(entity)', as '\(entity):3', not '\(text)'")
                }
                key = String(key[key.index(after: colon)...])
            }
            if key.hasPrefix("#") { key.removeFirst() }
            guard let value = Int64(key), value > 0 else {
                throw BindingError(
                    message: "parameter '$\(name)' takes an object of '\(entity)' by its key, as '\(entity):3', not '\(text)'")
            }
            return .int(value)
        default:
            throw BindingError(message: "parameter '$\(name)' has type '\(type)', which cannot be given as text")
        }
    }

    /// The bytes of an even number of hexadecimal digits; nil for anything else.
    private static func hexBytes(_ digits: Substring) -> [UInt8]? {
        let values = digits.utf8.map { byte -> UInt8? in
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        guard values.count % 2 == 0, !values.contains(nil) else { return nil }
        let nibbles = values.compactMap { $0 }
        return stride(from: 0, to: nibbles.count, by: 2).map { nibbles[$0] << 4 | nibbles[$0 + 1] }
    }

    private static func unquote(_ text: String) -> String {
        for quote in ["'", "\""] where text.count >= 2 && text.hasPrefix(quote) && text.hasSuffix(quote) {
            return String(text.dropFirst().dropLast())
        }
        return text
    }
}
