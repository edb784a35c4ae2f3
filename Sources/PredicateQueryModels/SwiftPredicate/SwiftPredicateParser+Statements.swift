// The statements of a predicate closure: the closure itself and its parameter,
// `let` and `return`, `if`/`if let`/`else` and `switch` over an enum.
//
// `if let x = e { a } else { b }` is `e != nil && a || e == nil && b`, with `x`
// standing for `e` inside `a`; `if c { a } else { b }` and `c ? a : b` are
// `c && a || !c && b`; a `switch` is one such test per case. Parts a literal
// `true` or `false` makes needless are left out, so `if let b = t.budget
// { b.limit > 5 } else { false }` reads as `budget != nil && budget.limit > 5`.

import PredicateQuery

extension SwiftPredicateParser {
    /// `#Predicate<Entity> { … }`, `{ … }` or a bare body, to the end of the tokens.
    mutating func parseWhole(entity: String?) -> Query? {
        var entityName = entity.map { Name($0) }
        do {
            if let pound = token(), pound.kind == .pound, pound.text == "Predicate" {
                advance()
                if isPunctuation("<") {
                    advance()
                    var last: SwiftToken?
                    while let type = token(), !type.isPunctuation(">") {
                        if type.kind == .identifier { last = type }
                        advance()
                    }
                    _ = try expect(">", "'>' after the model type")
                    if let last { entityName = Name(last.text, span: span(of: last)) }
                }
            }
            let predicate: Expr
            if isPunctuation("{") {
                predicate = try parseTopClosure()
                // `#Predicate { (trip: Trip) in … }`: the parameter's type is the model.
                if entityName == nil { entityName = annotatedType }
            } else {
                scopes.append([:])
                anonymous.append(.root(.object))
                predicate = try parseBody()
            }
            if let extra = token() {
                throw fail("unexpected '\(extra.text)' after the predicate", at: span(of: extra))
            }
            reportUnresolved()
            return Query(entity: entityName, predicate: predicate)
        } catch {
            return nil
        }
    }

    /// The predicate's own closure: its parameter is the object filtered.
    mutating func parseTopClosure() throws(Failure) -> Expr {
        _ = try expect("{", "'{'")
        let named = closureParameter()
        scopes.append(named.map { [$0: .root(.object)] } ?? [:])
        anonymous.append(.root(.object))
        defer {
            scopes.removeLast()
            anonymous.removeLast()
        }
        let body = try parseBody()
        _ = try expect("}", "'}' to end the closure")
        return body
    }

    /// `{ x in … }` or `{ $0 … }` inside the predicate: a closure over an element.
    mutating func parseClosure() throws(Failure) -> (Closure, SourceSpan) {
        _ = try expect("{", "'{'")
        let named = closureParameter()
        // `$0` of a closure inside another is named as the bridge names it: `$0`, then `e2`, `e3`, …
        let nesting = anonymous.count
        let variable = named ?? (nesting <= 1 ? "0" : "e\(nesting)")
        scopes.append(named.map { [$0: .root(.variable($0))] } ?? [:])
        anonymous.append(.root(.variable(variable)))
        defer {
            scopes.removeLast()
            anonymous.removeLast()
        }
        let saved = allowsTrailingClosure
        allowsTrailingClosure = true
        defer { allowsTrailingClosure = saved }
        let body = try parseBody()
        let close = try expect("}", "'}' to end the closure")
        return (Closure(variable: variable, body: body), close)
    }

    /// Reads `x in`, `(x) in`, `(x: T) -> Bool in` or `x -> Bool in` after `{`; returns the
    /// name (and keeps `T` in `annotatedType`).
    mutating func closureParameter() -> String? {
        var offset = 0
        var name: String?
        while let token = token(offset), offset < 16 {
            if token.isWord("in") {
                guard name != nil || offset == 2 else { return nil }
                index += offset + 1
                return name == "_" ? nil : name
            }
            if token.kind == .identifier, name == nil { name = token.text }
            if token.isPunctuation(":"), let type = self.token(offset + 1), type.kind == .identifier, annotatedType == nil {
                annotatedType = Name(type.text, span: span(of: type))
            }
            guard token.kind == .identifier || ["(", ")", ":", "-", ">", "?", ",", "<", "[", "]", "."].contains(token.text)
            else { return nil }
            offset += 1
        }
        return nil
    }

    /// A closure or block body up to its `}` (not consumed): `let` bindings, then
    /// one expression, `return` expression, `if` or `switch`.
    mutating func parseBody(stopAtCase: Bool = false) throws(Failure) -> Expr {
        scopes.append([:])
        defer { scopes.removeLast() }
        while isWord("let") || isWord("var") {
            advance()
            guard let name = token(), name.kind == .identifier else { throw fail("expected a name after 'let'", at: currentSpan) }
            advance()
            if isPunctuation(":") {
                while let token = token(), !token.isPunctuation("=") {
                    if token.isPunctuation("}") { break }
                    advance()
                }
            }
            _ = try expect("=", "'=' and a value for '\(name.text)'")
            let value = try parseExpression()
            scopes[scopes.count - 1][name.text] = .value(value)
            if isPunctuation(";") { advance() }
        }
        if isWord("return") { advance() }
        let body = try parseExpression()
        if isPunctuation(";") { advance() }
        let ends = isPunctuation("}") || atEnd || (stopAtCase && (isWord("case") || isWord("default")))
        guard ends else {
            throw fail(
                "a predicate closure holds one expression; this statement cannot become SQL", at: currentSpan,
                code: .swiftUnsupported)
        }
        return body
    }

    /// `if conditions { a } else { b }`, `else if` chains included.
    mutating func parseIf() throws(Failure) -> Expr {
        let start = currentSpan
        advance()
        try enter(start)
        defer { depth -= 1 }
        scopes.append([:])
        var conditions: [Expr] = []
        let saved = allowsTrailingClosure
        allowsTrailingClosure = false
        repeat {
            if isPunctuation(",") { advance() }
            if isWord("let") || isWord("var") {
                advance()
                guard let name = token(), name.kind == .identifier else {
                    throw fail("expected a name after 'let'", at: currentSpan)
                }
                advance()
                var value: Expr
                if isPunctuation("=") {
                    advance()
                    value = try parseExpression()
                } else {
                    // `if let x`: the captured value or the bound name `x`.
                    index -= 1
                    guard let token = token() else { throw fail("expected a name", at: currentSpan) }
                    value = try parseName(token)
                }
                scopes[scopes.count - 1][name.text] = .value(value)
                conditions.append(
                    Expr(.comparison(.notEqual, value, Expr(.literal(.null), span: value.span), []), span: value.span))
            } else if isWord("case") {
                throw fail("'if case' cannot become SQL; compare the value with '=='", at: currentSpan, code: .swiftUnsupported)
            } else {
                conditions.append(try parseExpression())
            }
        } while isPunctuation(",")
        allowsTrailingClosure = saved
        _ = try expect("{", "'{' to open the body of the 'if'")
        let then = try parseBody()
        _ = try expect("}", "'}' to end the body of the 'if'")
        scopes.removeLast()
        guard isWord("else") else {
            throw fail("an 'if' in a predicate needs an 'else' that says what it is otherwise", at: start)
        }
        advance()
        let otherwise: Expr
        if isWord("if") {
            otherwise = try parseIf()
        } else {
            _ = try expect("{", "'{' after 'else'")
            otherwise = try parseBody()
            _ = try expect("}", "'}' to end the 'else'")
        }
        let condition =
            conditions.count == 1 ? conditions[0] : Expr(.and(conditions), span: start.merged(with: conditions[0].span))
        return Self.conditional(condition, then, otherwise, span: start.merged(with: otherwise.span))
    }

    /// `switch subject { case .a, .b: … default: … }`: for each case, its patterns and its body.
    mutating func parseSwitch() throws(Failure) -> Expr {
        let start = currentSpan
        advance()
        try enter(start)
        defer { depth -= 1 }
        let saved = allowsTrailingClosure
        allowsTrailingClosure = false
        let subject = try parseExpression()
        allowsTrailingClosure = saved
        _ = try expect("{", "'{' to open the switch")
        var earlier: [Expr] = []
        var parts: [Expr] = []
        while !isPunctuation("}") {
            var matches: [Expr] = []
            let caseSpan = currentSpan
            if isWord("default") {
                advance()
                if !earlier.isEmpty { matches = [Expr(.not(Expr(.or(earlier), span: caseSpan)), span: caseSpan)] }
            } else if isWord("case") {
                advance()
                repeat {
                    if isPunctuation(",") { advance() }
                    if isWord("let") || isWord("var") {
                        throw fail(
                            "a binding pattern cannot become SQL; match enum cases", at: currentSpan, code: .swiftUnsupported)
                    }
                    let pattern = try parseBinary(level: 0)
                    let test: ExprKind =
                        if case .range = pattern.kind { .membership(subject, pattern) } else {
                            .comparison(.equal, subject, pattern, [])
                        }
                    matches.append(Expr(test, span: pattern.span))
                } while isPunctuation(",")
                earlier += matches
            } else {
                throw fail("expected 'case' or 'default' in the switch", at: currentSpan)
            }
            _ = try expect(":", "':' after the case")
            let body = try parseBody(stopAtCase: true)
            let match = matches.count == 1 ? matches[0] : Expr(.or(matches), span: caseSpan)
            if matches.isEmpty {
                parts.append(body)
            } else if case .literal(.bool(let value)) = body.kind {
                if value { parts.append(match) }
            } else {
                parts.append(Expr(.and([match, body]), span: caseSpan.merged(with: body.span)))
            }
        }
        let close = try expect("}", "'}' to end the switch")
        let span = start.merged(with: close)
        switch parts.count {
        case 0: return Expr(.literal(.bool(false)), span: span)
        case 1: return Expr(parts[0].kind, span: span)
        default: return Expr(.or(parts), span: span)
        }
    }
}
