// Swift-style names for SQL ones, as Fluent and hand-written schemas spell them.
//
// Tables become entities in upper camel case, singular (`budgets` → `Budget`,
// `trip_tag` → `TripTag`, `categories` → `Category`); columns become attributes in
// lower camel case (`created_at` → `createdAt`); a foreign-key column names its
// to-one relationship without its `_id` (`budget_id` → `budget`); a to-many is the
// referencing table's name, plural (`transaction` → `transactions`). The SQL names
// stay in the store mapping, so every query still reaches the columns as they are.
// The same rules run backwards to find a `--model`'s tables and columns.

import PredicateQuery
import PredicateQueryStore

enum PostgresSchemaNaming {

    /// The words of a SQL name: split at `_`, `-` and spaces (`created_at` → created, at).
    private static func words(_ name: String) -> [String] {
        name.split(whereSeparator: { $0 == "_" || $0 == "-" || $0 == " " }).map(String.init)
    }

    /// `created_at` → `createdAt`, `URL` → `url`, `userID` → `userID`; nil if the result
    /// is not a name pq can spell.
    static func lowerCamel(_ name: String) -> String? {
        let parts = words(name)
        guard let first = parts.first else { return nil }
        var result = first == first.uppercased() ? first.lowercased() : first.prefix(1).lowercased() + first.dropFirst()
        for word in parts.dropFirst() {
            let rest = word == word.uppercased() ? word.dropFirst().lowercased() : String(word.dropFirst())
            result += word.prefix(1).uppercased() + rest
        }
        return PlainName.isPlain(result) ? result : nil
    }

    /// `trip_tag` → `TripTag`; nil if the result is not a name pq can spell.
    static func upperCamel(_ name: String) -> String? {
        guard let lower = lowerCamel(name) else { return nil }
        return lower.prefix(1).uppercased() + lower.dropFirst()
    }

    /// The entity name of a table: upper camel case, its last word singular.
    static func entityName(ofTable table: String) -> String? {
        upperCamel(singular(table))
    }

    /// A foreign-key column's name without its trailing `_id`, `Id` or `ID`, if it has one.
    static func strippingKeySuffix(_ column: String) -> String? {
        for suffix in ["_id", "Id", "ID", "_ID"] where column.hasSuffix(suffix) && column.count > suffix.count {
            return String(column.dropLast(suffix.count))
        }
        return nil
    }

    /// A simple English singular: `budgets` → `budget`, `categories` → `category`,
    /// `boxes` → `box`, `addresses` → `address`; `status`, `address` and `news`-like
    /// words ending in `ss`, `us` or `is` stay as they are.
    static func singular(_ name: String) -> String {
        let lower = name.lowercased()
        if lower.hasSuffix("ies"), name.count > 4 { return name.dropLast(3) + (name.hasSuffix("IES") ? "Y" : "y") }
        for suffix in ["sses", "xes", "zes", "ches", "shes", "uses"] where lower.hasSuffix(suffix) {
            return String(name.dropLast(2))
        }
        if lower.hasSuffix("s"), !["ss", "us", "is"].contains(where: { lower.hasSuffix($0) }), name.count > 1 {
            return String(name.dropLast())
        }
        return name
    }

    /// The lower camel case plural of a table's entity: `transaction` → `transactions`,
    /// `order_lines` → `orderLines`.
    static func toManyName(ofTable table: String) -> String? {
        lowerCamel(EnglishPlural.of(singular(table)))
    }

    /// An enum case's name for a label: `one-off` → `oneOff`, `Monthly` → `monthly`;
    /// a label with nothing to spell gets `case<n>` (its raw value is kept either way).
    static func caseName(_ label: String, position: Int) -> String {
        if let name = lowerCamel(label), !["true", "false", "nil", "self"].contains(name) { return name }
        return "case\(position)"
    }

    /// The snake_case spelling of a Swift name: `createdAt` → `created_at`, `userID` → `user_id`.
    static func snakeCase(_ name: String) -> String {
        var result = ""
        let characters = Array(name)
        for (index, character) in characters.enumerated() {
            if character.isUppercase, index > 0 {
                let previous = characters[index - 1]
                let next = index + 1 < characters.count ? characters[index + 1] : nil
                if previous.isLowercase || previous.isNumber || (previous.isUppercase && next?.isLowercase == true) {
                    result += "_"
                }
            }
            result += character.lowercased()
        }
        return result
    }
}
