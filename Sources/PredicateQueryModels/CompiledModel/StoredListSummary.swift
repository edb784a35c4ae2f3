// What an array of values looks like in output. SwiftData keeps `[String]`,
// `[Int]` or `[Enum]` attributes in one BLOB column, as a binary property list;
// pq cannot query inside it (only nil tests), but shows what it holds.

import Foundation

/// A short text for a binary-property-list array: `["a", "b"]`, or its count when long.
package enum StoredListSummary {
    /// How many elements are written out before the rest is only counted.
    public static let shownElements = 5

    /// One element of a stored array of values.
    public enum Element: Sendable, Equatable {
        case string(String)
        case int(Int64)
        case double(Double)
        case bool(Bool)
    }

    /// The elements of a binary-property-list array of simple values; nil for
    /// anything else.
    public static func elements(of data: Data) -> [Element]? {
        guard BinaryPropertyList.hasSignature(data), let list = try? BinaryPropertyList(data),
            case .array(let members)? = list.object(list.top)
        else { return nil }
        var elements: [Element] = []
        for member in members {
            switch list.object(member) {
            case .string(let text)?: elements.append(.string(text))
            case .int(let number)?: elements.append(.int(number))
            case .real(let number)?: elements.append(.double(number))
            case .bool(let flag)?: elements.append(.bool(flag))
            default: return nil
            }
        }
        return elements
    }

    /// `["swift", "sql"]`, `[1, 2, 3]`, `[7 items: "a", "b", "c", "d", "e", …]`; nil
    /// when `data` is not a binary property list holding an array of simple values.
    public static func summary(of data: Data) -> String? {
        guard let elements = elements(of: data) else { return nil }
        let shown = elements.prefix(shownElements).map { element -> String in
            switch element {
            case .string(let text): "\"" + text + "\""
            case .int(let number): String(number)
            case .double(let number): number.description
            case .bool(let flag): flag ? "true" : "false"
            }
        }
        let more = elements.count > shownElements ? ", …" : ""
        let count = elements.count > shownElements ? "\(elements.count) items: " : ""
        return "[" + count + shown.joined(separator: ", ") + more + "]"
    }
}
