// Operands of a Swift predicate: names, literals, prefix operators, and the
// postfix chain of member access, `?.` and force unwrap (calls: `+Methods`).

import PredicateQuery

extension SwiftPredicateParser {
    /// `prefix ::= ("!" | "-" | "~") prefix | postfix`
    mutating func parsePrefix() throws(Failure) -> Expr {
        let text = operatorText()
        if text.hasPrefix("!"), !text.hasPrefix("!=") {
            let bang = consumeOperator("!")
            try enter(bang)
            defer { depth -= 1 }
            let operand = try parsePrefix()
            return Expr(.not(operand), span: bang.merged(with: operand.span))
        }
        if text.hasPrefix("~") {
            // `~x` is `x ^ -1`, as the text language reads it.
            let tilde = consumeOperator("~")
            try enter(tilde)
            defer { depth -= 1 }
            let operand = try parsePrefix()
            let allOnes = Expr(.literal(.integer(-1)), span: tilde)
            return Expr(.arithmetic(.bitwiseXor, operand, allOnes), span: tilde.merged(with: operand.span))
        }
        if text.hasPrefix("-") {
            let minus = consumeOperator("-")
            try enter(minus)
            defer { depth -= 1 }
            let operand = try parsePrefix()
            let span = minus.merged(with: operand.span)
            switch operand.kind {
            case .literal(.integer(let value)) where value != .min: return Expr(.literal(.integer(-value)), span: span)
            case .literal(.decimal(let value)): return Expr(.literal(.decimal(-value)), span: span)
            default: return Expr(.negate(operand), span: span)
            }
        }
        return try parsePostfix(try parsePrimary())
    }

    // MARK: - Primaries

    mutating func parsePrimary() throws(Failure) -> Expr {
        guard let token = token() else { throw fail("expected an expression", at: currentSpan) }
        let tokenSpan = span(of: token)
        switch token.kind {
        case .number:
            advance()
            return Expr(.literal(try numberLiteral(token)), span: tokenSpan)
        case .string:
            advance()
            if token.isEscaped {
                throw fail(
                    "a string with interpolation is computed when the predicate runs; capture it in a constant outside the closure",
                    at: tokenSpan, code: .swiftUnsupported)
            }
            return Expr(.literal(.string(token.text)), span: tokenSpan)
        case .identifier:
            return try parseName(token)
        case .pound, .directive, .attribute:
            throw fail("'#\(token.text)' cannot be used inside a predicate", at: tokenSpan, code: .swiftUnsupported)
        case .punctuation:
            break
        }
        switch token.text {
        case ".":
            // `.action`: a case of the enum the context expects.
            advance()
            guard let name = self.token(), name.kind == .identifier else {
                throw fail("expected a name after '.'", at: currentSpan)
            }
            advance()
            return Expr(.enumCase(name.text), span: tokenSpan.merged(with: span(of: name)))
        case "(":
            advance()
            let inner = try parseExpression()
            if isPunctuation(",") {
                throw fail("a tuple cannot be used in a predicate", at: currentSpan, code: .swiftUnsupported)
            }
            let close = try expect(")", "')'")
            let whole = tokenSpan.merged(with: close)
            // `(a.compare(b))`: the held call moves to the parenthesised span.
            if case .invalid = inner.kind, let held = pending.removeValue(forKey: inner.span) { pending[whole] = held }
            return Expr(inner.kind, span: whole)
        case "[":
            advance()
            var elements: [Expr] = []
            while !isPunctuation("]") {
                elements.append(try parseExpression())
                if !isPunctuation(",") { break }
                advance()
            }
            let close = try expect("]", "']' to end the array")
            return Expr(.list(elements), span: tokenSpan.merged(with: close))
        case "\\":
            throw fail(
                "a key path is not a value in a predicate; write the property through the closure's parameter",
                at: tokenSpan, code: .swiftUnsupported)
        default:
            throw fail("expected an expression", at: tokenSpan)
        }
    }

    mutating func numberLiteral(_ token: SwiftToken) throws(Failure) -> Literal {
        let text = token.text.replacingOccurrences(of: "_", with: "")
        if let value = Int64(text) { return .integer(value) }
        if text.hasPrefix("0x"), let value = Int64(text.dropFirst(2), radix: 16) { return .integer(value) }
        if text.hasPrefix("0b"), let value = Int64(text.dropFirst(2), radix: 2) { return .integer(value) }
        if text.hasPrefix("0o"), let value = Int64(text.dropFirst(2), radix: 8) { return .integer(value) }
        if let value = Double(text), value.isFinite {
            // `100.0` is the whole number 100, as the `#Predicate` bridge reads a captured 100.0.
            if value == value.rounded(), abs(value) < 1e15 { return .integer(Int64(value)) }
            return .decimal(value)
        }
        throw fail("'\(token.text)' is not a number pq can read", at: span(of: token))
    }

    /// A name: a keyword, the closure's parameter, a bound name, an enum case
    /// written with its type, `Date.now`, or a captured value.
    mutating func parseName(_ token: SwiftToken) throws(Failure) -> Expr {
        let tokenSpan = span(of: token)
        if !token.isEscaped {
            switch token.text {
            case "true", "false":
                advance()
                return Expr(.literal(.bool(token.text == "true")), span: tokenSpan)
            case "nil":
                advance()
                return Expr(.literal(.null), span: tokenSpan)
            case "if":
                return try parseIf()
            case "switch":
                return try parseSwitch()
            case "try":
                // `try Date("…", strategy: .iso8601)`: `try` and `try!` change nothing pq reads.
                advance()
                if isPunctuation("!"), self.token()?.start == token.end { advance() }
                return try parsePrefix()
            default:
                break
            }
        }
        advance()
        if token.text.hasPrefix("$") {
            guard token.text == "$0", let binding = anonymous.last else {
                throw fail("'\(token.text)' is not a parameter of this closure", at: tokenSpan)
            }
            return expr(for: binding, at: tokenSpan)
        }
        for scope in scopes.reversed() {
            if let binding = scope[token.text] { return expr(for: binding, at: tokenSpan) }
        }
        // `Date.now` and `Date()`: the moment the query runs.
        if token.text == "Date", isPunctuation("."), self.token(1)?.isWord("now") == true {
            advance()
            let now = advance().map(span(of:)) ?? tokenSpan
            return Expr(.call(.now, []), span: tokenSpan.merged(with: now))
        }
        if token.text == "Date", isPunctuation("("), isPunctuation(")", at: 1) {
            advance()
            let close = advance().map(span(of:)) ?? tokenSpan
            return Expr(.call(.now, []), span: tokenSpan.merged(with: close))
        }
        if let value = try foundationValue(token) { return value }
        if isPunctuation("("), self.token(0)?.start == token.end {
            throw fail(
                "'\(token.text)(…)' cannot become SQL: a predicate can only call the methods pq knows; compute the value outside the closure and capture it",
                at: tokenSpan, code: .swiftUnsupported)
        }
        // `Genre.action`: an enum case written with its type. `Genre.kids.rawValue`,
        // `Date.distantPast` and `Int.max` are values computed outside the store: captured.
        if let first = token.text.unicodeScalars.first, first.properties.isUppercase, isPunctuation("."),
            let member = self.token(1), member.kind == .identifier, !isPunctuation("(", at: 2),
            !isPunctuation(".", at: 2), !Self.valueTypes.contains(token.text)
        {
            advance()
            advance()
            return Expr(.enumCase(member.text), span: tokenSpan.merged(with: span(of: member)))
        }
        if !capturedNames.contains(token.text) { capturedNames.append(token.text) }
        return Expr(.parameter(token.text), span: tokenSpan)
    }

    /// Types whose static members are values, not enum cases.
    static let valueTypes: Set<String> = [
        "Date", "Int", "Int64", "Int32", "Int16", "Double", "Float", "Decimal", "String", "UUID", "URL", "Bool", "TimeInterval",
    ]

    func expr(for binding: Binding, at span: SourceSpan) -> Expr {
        switch binding {
        case .root(let root): Expr(.keyPath(PropertyPath(root: root, [], span: span)), span: span)
        case .value(let expr): expr
        }
    }

    // MARK: - Postfix

    /// Member access, `?.`, force unwrap and method calls after an operand.
    mutating func parsePostfix(_ operand: Expr) throws(Failure) -> Expr {
        var expr = operand
        while let token = token(), token.kind == .punctuation {
            let glued = token.start == previousEnd
            if token.text == "!", glued, !(isPunctuation("=", at: 1) && self.token(1)?.start == token.end) {
                // Force unwrap: pq's paths are nil-safe, so it changes nothing.
                advance()
                expr.span = expr.span.merged(with: span(of: token))
                continue
            }
            var optional = false
            if token.text == "?", glued, isPunctuation(".", at: 1) {
                advance()
                optional = true
            } else if token.text != "." || isPunctuation(".", at: 1) {
                break
            }
            advance()
            guard let name = self.token(), name.kind == .identifier else {
                throw fail("expected a member name after '\(optional ? "?." : ".")'", at: currentSpan)
            }
            advance()
            expr = try member(name, of: expr, optional: optional)
        }
        return expr
    }
}
