// Attribute defaults, spelled as Swift would write them (`false`, `0`, `1.5`,
// `"text"`), whichever source they come from: the XML model's strings
// (`defaultValueString="NO"`) or the compiled model's archived numbers, strings
// and dates. Spelling both the same way makes an Xcode model and its compiled
// form give equal schemas.

import Foundation
import PredicateQuery

/// A default value as a model source holds it.
enum CoreDataDefaultValue {
    case bool(Bool)
    case int(Int64)
    case real(Double)
    case string(String)
    /// Seconds since 2001-01-01 00:00:00 UTC.
    case date(Double)

    /// The Swift spelling of this default for an attribute of `typeCode`; nil when it does not fit.
    func spelled(for typeCode: Int) -> String? {
        typealias Code = CoreDataAttributeType
        switch typeCode {
        case Code.integer16, Code.integer32, Code.integer64:
            switch self {
            case .int(let value): return String(value)
            case .bool(let value): return value ? "1" : "0"
            case .real(let value): return Int64(exactly: value).map(String.init)
            case .string(let text): return Int64(text.trimmingCharacters(in: .whitespaces)).map(String.init)
            case .date: return nil
            }
        case Code.double, Code.float, Code.decimal:
            switch self {
            case .int(let value): return String(Double(value))
            case .real(let value): return String(value)
            case .string(let text): return Double(text.trimmingCharacters(in: .whitespaces)).map { String($0) }
            case .bool, .date: return nil
            }
        case Code.boolean:
            switch self {
            case .bool(let value): return value ? "true" : "false"
            case .int(let value): return value != 0 ? "true" : "false"
            case .string(let text):
                switch text.uppercased() {
                case "YES", "TRUE", "1": return "true"
                case "NO", "FALSE", "0": return "false"
                default: return nil
                }
            case .real, .date: return nil
            }
        case Code.date:
            switch self {
            case .date(let seconds), .real(let seconds): return "Date(timeIntervalSinceReferenceDate: \(seconds))"
            case .int(let seconds): return "Date(timeIntervalSinceReferenceDate: \(Double(seconds)))"
            case .string(let text):
                return Double(text).map { "Date(timeIntervalSinceReferenceDate: \($0))" }
            case .bool: return nil
            }
        case Code.string, Code.uuid, Code.uri:
            if case .string(let text) = self { return Printer.quoted(text, delimiter: "\"") }
            return nil
        default:
            return nil
        }
    }
}
