// Writes a query's predicate as a Swift `#Predicate` closure, to fill the golden
// file of Swift spellings (SwiftSpellingGoldenTests) when it is regenerated. The
// golden file, read by hand, is what the tests check; this printer only drafts it.
// Forms Swift has no spelling for (`[c]` comparisons, `like`, `any`, `@sum`,
// durations, `date('…')`) give nil and a reason. `limit` and `offset` are left
// out: in Swift they are the descriptor's fetchLimit and fetchOffset, set after it is made.

import PredicateQuery

enum SwiftSpelling {
    struct Unspellable: Error {
        var reason: String
    }

    /// `#Predicate<Entity> { object in … }`, or the reason there is none.
    static func spell(_ query: Query) -> Result<String, Unspellable> {
        // `limit` and `offset` are a descriptor's fetchLimit and fetchOffset, set after it is made: left out.
        guard query.predicate != nil || !query.sortKeys.isEmpty else { return .failure(Unspellable(reason: "no predicate")) }
        do {
            let type = query.entity.map { "<\($0.text)>" } ?? ""
            let closure = try query.predicate.map { "#Predicate\(type) { object in \(try spell($0, depth: 0)) }" }
            guard !query.sortKeys.isEmpty else {
                guard let closure else { throw Unspellable(reason: "no predicate") }
                return .success(closure)
            }
            let keys = try query.sortKeys.map { key in
                guard key.options.isEmpty else {
                    throw Unspellable(reason: "a sort descriptor from a key path has no \(key.options.modifier)")
                }
                let path = key.path.components.map { ($0.isOptionalChained ? "?." : ".") + name($0.name) }.joined()
                return "SortDescriptor(\\\(path)\(key.isAscending ? "" : ", order: .reverse"))"
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
        case .duration: throw Unspellable(reason: "a duration literal is a captured TimeInterval in Swift")
        }
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
        case .call(let function, _): throw Unspellable(reason: "\(function.rawValue)(…) is a captured value in Swift")
        case .list(let elements): return "[" + (try elements.map(s)).joined(separator: ", ") + "]"
        case .range(let lower, let upper, let kind): return "(\(try s(lower))\(kind == .closed ? "..." : "..<")\(try s(upper)))"
        case .member(let base, let component): return "(\(try s(base))).\(component.name)"
        case .not(let inner): return "!(\(try s(inner)))"
        case .negate(let inner): return "-(\(try s(inner)))"
        case .and(let parts): return "(" + (try parts.map(s)).joined(separator: " && ") + ")"
        case .or(let parts): return "(" + (try parts.map(s)).joined(separator: " || ") + ")"
        case .arithmetic(let op, let lhs, let rhs): return "(\(try s(lhs)) \(op.rawValue) \(try s(rhs)))"
        case .comparison(let op, let lhs, let rhs, let options):
            guard options.isEmpty else { throw Unspellable(reason: "Swift has no \(options.modifier) comparison") }
            return "(\(try s(lhs)) \(op.rawValue) \(try s(rhs)))"
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
            default: throw Unspellable(reason: "Swift has no \(op.rawValue)\(options.modifier)")
            }
            return "\(try s(lhs)).\(method)(\(try s(rhs)))"
        case .membership(let element, let collection):
            switch collection.kind {
            case .list, .range, .parameter: return "\(try s(collection)).contains(\(try s(element)))"
            case .keyPath: throw Unspellable(reason: "a value in a to-many path is an implicit ANY, which Swift does not have")
            default: throw Unspellable(reason: "in Swift, contains(_:) needs a collection, not this expression")
            }
        case .quantified: throw Unspellable(reason: "Swift has no any/all/none; it writes contains(where:) or allSatisfy")
        case .elementTest(let quantifier, let collection, let closure):
            let method = quantifier == .all ? "allSatisfy" : "contains(where: "
            let body = try closureText(closure, depth: depth)
            return quantifier == .all ? "\(try s(collection)).allSatisfy(\(body))" : "\(try s(collection)).\(method)\(body))"
        case .filter(let collection, let closure):
            return "\(try s(collection)).filter(\(try closureText(closure, depth: depth)))"
        case .aggregate(.count, let collection, let components) where components.isEmpty:
            return "\(try s(collection)).count"
        case .aggregate(let function, _, _): throw Unspellable(reason: "Swift has no @\(function.rawValue)")
        case .isEmpty(let inner): return "\(try s(inner)).isEmpty"
        case .coalesce(let lhs, let rhs): return "(\(try s(lhs)) ?? \(try s(rhs)))"
        case .invalid: throw Unspellable(reason: "invalid")
        }
    }

    static func closureText(_ closure: Closure, depth: Int) throws -> String {
        let body = try spell(closure.body, depth: depth + 1)
        return closure.variable == "0" ? "{ \(body) }" : "{ \(name(closure.variable)) in \(body) }"
    }
}
