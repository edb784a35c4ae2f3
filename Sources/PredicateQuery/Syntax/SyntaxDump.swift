// A stable, span-free text form of syntax trees, for tests and debugging.
//
// Two trees are the same tree exactly when their dumps are equal, which is how the
// round-trip and "one spelling, one node" tests compare them:
//
//     (and (> (key limit) 100) (contains (key name) "Vac"))

extension Query {
    /// The S-expression form of the query, without spans.
    public var syntaxDump: String {
        var parts = ["query"]
        if let entity { parts.append("entity:" + entity.text) }
        if let predicate { parts.append(predicate.syntaxDump) }
        for key in sortKeys {
            parts.append("(sort \(key.path.syntaxDump)\(key.options.modifier) \(key.isAscending ? "asc" : "desc"))")
        }
        if let limit { parts.append("(limit \(limit.syntaxDump))") }
        if let offset { parts.append("(offset \(offset.syntaxDump))") }
        return "(" + parts.joined(separator: " ") + ")"
    }
}

extension QueryCount {
    var syntaxDump: String {
        switch value {
        case .literal(let value): String(value)
        case .parameter(let name): "$" + name
        }
    }
}

extension PropertyPath {
    /// `(key budget ?name)`, `(key $t amount)`, `(key SELF)`.
    public var syntaxDump: String {
        var parts = ["key"]
        switch root {
        case .object: if components.isEmpty { parts.append("SELF") }
        case .variable(let name): parts.append("$" + name)
        }
        parts += components.map { ($0.isOptionalChained ? "?" : "") + $0.name }
        return "(" + parts.joined(separator: " ") + ")"
    }
}

extension Expr {
    /// The S-expression form of the expression, without spans.
    public var syntaxDump: String {
        switch kind {
        case .literal(let literal):
            switch literal {
            case .integer(let value): return String(value)
            case .decimal(let value): return "(decimal \(value))"
            case .string(let value): return value.debugDescription
            case .bool(let value): return value ? "true" : "false"
            case .null: return "nil"
            case .duration(let value, let unit): return "(duration \(value) \(unit.rawValue))"
            }
        case .enumCase(let name): return "." + name
        case .keyPath(let path): return path.syntaxDump
        case .parameter(let name): return "(param \(name))"
        case .call(let function, let arguments): return Self.sexp("call " + function.rawValue, arguments)
        case .list(let elements): return Self.sexp("list", elements)
        case .range(let lower, let upper, let kind):
            return Self.sexp(kind == .closed ? "range..." : "range..<", [lower, upper])
        case .member(let base, let component):
            return "(member \(base.syntaxDump) \(component.isOptionalChained ? "?" : "")\(component.name))"
        case .not(let operand): return Self.sexp("not", [operand])
        case .negate(let operand): return Self.sexp("neg", [operand])
        case .and(let operands): return Self.sexp("and", operands)
        case .or(let operands): return Self.sexp("or", operands)
        case .arithmetic(let op, let lhs, let rhs): return Self.sexp(op.rawValue, [lhs, rhs])
        case .comparison(let op, let lhs, let rhs, let options):
            return Self.sexp(op.rawValue + options.modifier, [lhs, rhs])
        case .stringTest(let op, let lhs, let rhs, let options):
            return Self.sexp(op.rawValue + options.modifier, [lhs, rhs])
        case .membership(let element, let collection, let options):
            return Self.sexp("in" + options.modifier, [element, collection])
        case .coalesce(let lhs, let rhs): return Self.sexp("??", [lhs, rhs])
        case .quantified(let quantifier, let body): return Self.sexp(quantifier.rawValue, [body])
        case .elementTest(let quantifier, let collection, let closure):
            return "(\(quantifier.rawValue)-element \(collection.syntaxDump) $\(closure.variable) \(closure.body.syntaxDump))"
        case .filter(let collection, let closure):
            return "(filter \(collection.syntaxDump) $\(closure.variable) \(closure.body.syntaxDump))"
        case .aggregate(let function, let collection, let field):
            let fieldText = field.isEmpty ? "" : " " + field.map(\.name).joined(separator: ".")
            return "(@\(function.rawValue) \(collection.syntaxDump)\(fieldText))"
        case .isEmpty(let collection): return Self.sexp("isEmpty", [collection])
        case .invalid: return "(invalid)"
        }
    }

    private static func sexp(_ head: String, _ operands: [Expr]) -> String {
        "(" + ([head] + operands.map(\.syntaxDump)).joined(separator: " ") + ")"
    }
}
