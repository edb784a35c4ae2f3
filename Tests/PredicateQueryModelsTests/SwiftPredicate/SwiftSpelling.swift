// Writes a query's predicate as a Swift `#Predicate` closure, to fill the golden
// file of Swift spellings (SwiftSpellingGoldenTests) when it is regenerated. The
// golden file, read by hand, is what the tests check; this printer only drafts it.
// Every form has one: Foundation's where it has one (`caseInsensitiveCompare`,
// `range(of:options:)`, `contains(where:)`, `Date(…)`, `UUID(uuidString:)`,
// `SortDescriptor(comparator:)`), pq's own where Swift has none (`like`,
// `matches`, `sum(\.x)`, `compare(_:options:)`). `limit` and `offset` are left
// out: in Swift they are the descriptor's fetchLimit and fetchOffset, set after it is made.

import Foundation
import PredicateQuery

enum SwiftSpelling {
    struct Unspellable: Error {
        var reason: String
    }

    /// `#Predicate<Entity> { object in … }`, or the reason there is none.
    static func spell(_ query: Query) -> Result<String, Unspellable> {
        // `limit` and `offset` are a descriptor's fetchLimit and fetchOffset, set after it is made: left out.
        do {
            let type = query.entity.map { "<\($0.text)>" } ?? ""
            guard query.predicate != nil || !query.sortKeys.isEmpty else { return .success("FetchDescriptor\(type)()") }
            let closure = try query.predicate.map { "#Predicate\(type) { object in \(try spell($0, depth: 0)) }" }
            guard !query.sortKeys.isEmpty else {
                guard let closure else { throw Unspellable(reason: "no predicate") }
                return .success(closure)
            }
            let keys = query.sortKeys.map { key in
                let path = key.path.components.map { ($0.isOptionalChained ? "?." : ".") + name($0.name) }.joined()
                let comparator =
                    switch key.options.modifier {
                    case "": ""
                    case "[cd]": ", comparator: .localizedStandard"
                    default: ", comparator: String.Comparator(options: \(optionList(key.options)))"
                    }
                return "SortDescriptor(\\\(path)\(comparator)\(key.isAscending ? "" : ", order: .reverse"))"
            }
            let predicate =
                closure.map { "predicate: \($0.replacingOccurrences(of: "#Predicate\(type)", with: "#Predicate")), " } ?? ""
            return .success("FetchDescriptor\(type)(\(predicate)sortBy: [\(keys.joined(separator: ", "))])")
        } catch let error as Unspellable {
            return .failure(error)
        } catch {
            return .failure(Unspellable(reason: "\(error)"))
        }
    }

    static func literal(_ literal: Literal) throws -> String {
        switch literal {
        case .integer(let value): return String(value)
        case .decimal(let value): return String(value)
        case .bool(let value): return String(value)
        case .null: return "nil"
        case .string(let text):
            return Printer.quoted(text, delimiter: "\"")
        case .duration(let amount, let unit):
            return unit == .seconds ? number(amount) : "\(number(amount)) * \(grouped(Int64(unit.seconds)))"
        }
    }

    /// `86_400`, as Swift code writes long numbers.
    static func grouped(_ value: Int64) -> String {
        var digits = String(value)
        var index = digits.count - 3
        while index > 0 {
            digits.insert("_", at: digits.index(digits.startIndex, offsetBy: index))
            index -= 3
        }
        return digits
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    /// `.caseInsensitive` or `[.caseInsensitive, .diacriticInsensitive]`.
    static func optionList(_ options: StringOptions, extra: [String] = []) -> String {
        var names = extra
        if options.contains(.caseInsensitive) { names.append(".caseInsensitive") }
        if options.contains(.diacriticInsensitive) { names.append(".diacriticInsensitive") }
        return names.count == 1 ? names[0] : "[" + names.joined(separator: ", ") + "]"
    }

    /// Names Swift reads as keywords or collection members are written in backquotes.
    static func name(_ name: String) -> String {
        ["count", "isEmpty", "in", "self", "if", "let", "var", "true", "false", "nil", "switch", "case", "return", "where"]
            .contains(name) ? "`\(name)`" : name
    }

    static func path(_ path: PropertyPath) -> String {
        var text: String
        switch path.root {
        case .object: text = "object"
        case .variable(let variable): text = variable == "0" ? "$0" : name(variable)
        }
        for component in path.components {
            text += (component.isOptionalChained ? "?." : ".") + name(component.name)
        }
        return text
    }

    static func spell(_ expr: Expr, depth: Int) throws -> String {
        func s(_ inner: Expr) throws -> String { try spell(inner, depth: depth) }
        switch expr.kind {
        case .literal(let value): return try literal(value)
        case .enumCase(let name): return "." + name
        case .keyPath(let keyPath): return path(keyPath)
        case .parameter(let name): return name
        case .call(.now, _): return "Date.now"
        case .call(.today, _): return "Calendar.current.startOfDay(for: .now)"
        case .call(.uuid, let arguments): return "UUID(uuidString: \(try arguments.map(s).joined()))!"
        case .call(.date, let arguments):
            guard case .literal(.string(let text))? = arguments.first?.kind else {
                throw Unspellable(reason: "date of a non-literal")
            }
            let iso = text.count == 10 ? text + "T00:00:00Z" : text
            // `Date(_:strategy:)` throws, and `try` cannot stand right of an operator: the seconds, with the date in a comment.
            guard let date = ISO8601DateFormatter().date(from: iso) else { throw Unspellable(reason: "date \(text)") }
            return "Date(timeIntervalSinceReferenceDate: \(grouped(Int64(date.timeIntervalSinceReferenceDate))) /* \(iso) */)"
        case .list(let elements): return "[" + (try elements.map(s)).joined(separator: ", ") + "]"
        case .range(let lower, let upper, let kind): return "(\(try s(lower))\(kind == .closed ? "..." : "..<")\(try s(upper)))"
        case .member(let base, let component): return "(\(try s(base))).\(component.name)"
        case .not(let inner): return "!(\(try s(inner)))"
        case .negate(let inner): return "-(\(try s(inner)))"
        case .and(let parts): return "(" + (try parts.map(s)).joined(separator: " && ") + ")"
        case .or(let parts): return "(" + (try parts.map(s)).joined(separator: " || ") + ")"
        case .arithmetic(let op, let lhs, let rhs):
            // `date ± 7d` is `date.addingTimeInterval(±604_800)`.
            if case .literal(.duration) = rhs.kind, op == .add || op == .subtract {
                return "\(try s(lhs)).addingTimeInterval(\(op == .subtract ? "-" : "")\(try s(rhs)))"
            }
            return "(\(try s(lhs)) \(op.rawValue) \(try s(rhs)))"
        case .comparison(let op, let lhs, let rhs, let options):
            guard !options.isEmpty else { return "(\(try s(lhs)) \(op.rawValue) \(try s(rhs)))" }
            // `a ==[c] b` is `a.caseInsensitiveCompare(b) == .orderedSame`; `<` is `.orderedAscending`, …
            let call =
                options == [.caseInsensitive]
                ? "\(try s(lhs)).caseInsensitiveCompare(\(try s(rhs)))"
                : "\(try s(lhs)).compare(\(try s(rhs)), options: \(optionList(options)))"
            let result: String =
                switch op {
                case .equal: "== .orderedSame"
                case .notEqual: "!= .orderedSame"
                case .less: "== .orderedAscending"
                case .greater: "== .orderedDescending"
                case .lessOrEqual: "!= .orderedDescending"
                case .greaterOrEqual: "!= .orderedAscending"
                }
            return "(\(call) \(result))"
        case .stringTest(let op, let lhs, let rhs, let options):
            switch lhs.kind {
            case .list, .range, .parameter: throw Unspellable(reason: "contains on a captured value is membership in Swift")
            default: break
            }
            let method: String
            switch (op, options) {
            case (.contains, []): method = "contains"
            case (.contains, [.caseInsensitive, .diacriticInsensitive]): method = "localizedStandardContains"
            case (.contains, [.caseInsensitive]): method = "localizedCaseInsensitiveContains"
            case (.beginsWith, []): return "\(try s(lhs)).starts(with: \(try s(rhs)))"
            case (.endsWith, []): method = "hasSuffix"
            case (.like, _), (.matches, _):
                let extra = options.isEmpty ? "" : ", options: \(optionList(options))"
                return "\(try s(lhs)).\(op.rawValue)(\(try s(rhs))\(extra))"
            default:
                let anchors = op == .beginsWith ? [".anchored"] : op == .endsWith ? [".anchored", ".backwards"] : []
                return "(\(try s(lhs)).range(of: \(try s(rhs)), options: \(optionList(options, extra: anchors))) != nil)"
            }
            return "\(try s(lhs)).\(method)(\(try s(rhs)))"
        case .membership(_, _, let options) where !options.isEmpty:
            throw Unspellable(reason: "Swift's contains(_:) takes no \(options.modifier) modifier")
        case .membership(let element, let collection, _):
            switch collection.kind {
            case .list, .range, .parameter: return "\(try s(collection)).contains(\(try s(element)))"
            case .coalesce: return "(\(try s(collection))).contains(\(try s(element)))"
            case .keyPath: throw Unspellable(reason: "a value in a to-many path is an implicit ANY, which Swift does not have")
            default: throw Unspellable(reason: "in Swift, contains(_:) needs a collection, not this expression")
            }
        case .quantified(let quantifier, let test):
            return try quantified(quantifier, test, depth: depth)
        case .elementTest(let quantifier, let collection, let closure):
            let method = quantifier == .all ? "allSatisfy" : "contains(where: "
            let body = try closureText(closure, depth: depth)
            return quantifier == .all ? "\(try s(collection)).allSatisfy(\(body))" : "\(try s(collection)).\(method)\(body))"
        case .filter(let collection, let closure):
            return "\(try s(collection)).filter(\(try closureText(closure, depth: depth)))"
        case .aggregate(.count, let collection, let components) where components.isEmpty:
            return "\(try s(collection)).count"
        case .aggregate(let function, let collection, let components) where function != .count && !components.isEmpty:
            return "\(try s(collection)).\(function.rawValue)(\\.\(components.map { name($0.name) }.joined(separator: ".")))"
        case .aggregate(let function, _, _): throw Unspellable(reason: "@\(function.rawValue) without a key path")
        case .isEmpty(let inner): return "\(try s(inner)).isEmpty"
        case .coalesce(let lhs, let rhs): return "(\(try s(lhs)) ?? \(try s(rhs)))"
        case .invalid: throw Unspellable(reason: "invalid")
        }
    }

    /// `any tags.name == 'x'` is `tags.contains { $0.name == "x" }`; `all` is `allSatisfy`, `none` `!contains`:
    /// the first to-many step of the tested path becomes the collection, the rest `$0`'s path.
    static func quantified(_ quantifier: Quantifier, _ test: Expr, depth: Int) throws -> String {
        let variable = depth == 0 ? "$0" : "e\(depth + 1)"
        var collection: PropertyPath?
        func rewrite(_ expr: Expr) throws -> Expr {
            var copy = expr
            switch expr.kind {
            case .keyPath(let path) where collection == nil && path.root == .object && path.components.count >= 2:
                // The first component is the to-many relationship (as the examples write them).
                collection = PropertyPath(root: .object, [path.components[0]])
                copy.kind = .keyPath(
                    PropertyPath(root: .variable(variable == "$0" ? "0" : variable), Array(path.components.dropFirst())))
            case .comparison(let op, let lhs, let rhs, let options):
                copy.kind = .comparison(op, try rewrite(lhs), try rewrite(rhs), options)
            case .stringTest(let op, let lhs, let rhs, let options):
                copy.kind = .stringTest(op, try rewrite(lhs), try rewrite(rhs), options)
            case .aggregate(let function, let inner, let components):
                copy.kind = .aggregate(function, try rewrite(inner), components)
            default: break
            }
            return copy
        }
        let body = try spell(try rewrite(test), depth: depth + 1)
        guard let collection else { throw Unspellable(reason: "a quantifier without a to-many path") }
        let list = path(collection)
        switch quantifier {
        case .any: return "\(list).contains { \(body) }"
        case .all: return "\(list).allSatisfy { \(body) }"
        case .none: return "!\(list).contains { \(body) }"
        }
    }

    static func closureText(_ closure: Closure, depth: Int) throws -> String {
        let body = try spell(closure.body, depth: depth + 1)
        return closure.variable == "0" ? "{ \(body) }" : "{ \(name(closure.variable)) in \(body) }"
    }
}
