// The limits of `Limits`, enforced on trees that did not come from the parser.
//
// The parser stops text that is too long, too deep, has too long a list or too
// long a name. Trees built in code (the typed builder, the Foundation bridge, a
// `Query` assembled by hand) reach the checker directly, so it measures them
// first, with an explicit stack, before anything recurses over them.

extension Query {
    /// The first limit this query exceeds, as a diagnostic; nil when it keeps them all.
    func limitViolation(_ limits: Limits) -> Diagnostic? {
        if let entity, entity.text.utf8.count > limits.maxIdentifierLength {
            return LimitCheck.nameTooLong(entity.text, at: entity.span, limits)
        }
        for key in sortKeys {
            if let violation = LimitCheck.violation(in: key.path, limits) { return violation }
        }
        guard let predicate else { return nil }
        return LimitCheck.violation(in: predicate, limits)
    }
}

enum LimitCheck {
    static func violation(in root: Expr, _ limits: Limits) -> Diagnostic? {
        var stack: [(Expr, Int)] = [(root, 1)]
        while let (expr, depth) = stack.popLast() {
            if depth > limits.maxNestingDepth {
                return .error(
                    .nestingTooDeep, "expression is nested too deeply; the limit is \(limits.maxNestingDepth) levels",
                    at: root.span)
            }
            switch expr.kind {
            case .list(let elements) where elements.count > limits.maxListLength:
                return .error(
                    .listTooLong, "list has more than \(limits.maxListLength) elements", at: expr.span)
            case .and(let operands) where operands.count > limits.maxListLength:
                return .error(
                    .listTooLong, "too many operands of '&&'; the limit is \(limits.maxListLength)", at: expr.span)
            case .or(let operands) where operands.count > limits.maxListLength:
                return .error(
                    .listTooLong, "too many operands of '||'; the limit is \(limits.maxListLength)", at: expr.span)
            case .keyPath(let path):
                if let violation = violation(in: path, limits) { return violation }
            case .member(_, let component) where component.name.utf8.count > limits.maxIdentifierLength:
                return nameTooLong(component.name, at: component.span, limits)
            case .parameter(let name) where name.utf8.count > limits.maxIdentifierLength:
                return nameTooLong(name, at: expr.span, limits)
            case .elementTest(_, _, let closure) where closure.variable.utf8.count > limits.maxIdentifierLength,
                .filter(_, let closure) where closure.variable.utf8.count > limits.maxIdentifierLength:
                return nameTooLong(closure.variable, at: expr.span, limits)
            default:
                break
            }
            expr.forEachChild { stack.append(($0, depth + 1)) }
        }
        return nil
    }

    static func violation(in path: PropertyPath, _ limits: Limits) -> Diagnostic? {
        if path.components.count > limits.maxNestingDepth {
            return .error(
                .nestingTooDeep, "key path has more than \(limits.maxNestingDepth) components", at: path.span)
        }
        for component in path.components where component.name.utf8.count > limits.maxIdentifierLength {
            return nameTooLong(component.name, at: component.span, limits)
        }
        if case .variable(let name) = path.root, name.utf8.count > limits.maxIdentifierLength {
            return nameTooLong(name, at: path.span, limits)
        }
        return nil
    }

    static func nameTooLong(_ name: String, at span: SourceSpan, _ limits: Limits) -> Diagnostic {
        .error(
            .identifierTooLong, "name is \(name.utf8.count) bytes long; the limit is \(limits.maxIdentifierLength)",
            at: span)
    }
}
