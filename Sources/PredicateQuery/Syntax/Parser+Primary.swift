// Primaries: literals, names and key path roots, parameters, enum cases,
// parenthesised expressions, lists, function calls and SUBQUERY.

extension Parser {
    /// `primary` in Grammar/pq.ebnf.
    mutating func parsePrimary() throws(Failure) -> Expr {
        let token = current
        switch token.kind {
        case .integer:
            advance()
            guard case .integer(let magnitude) = token.value, magnitude <= UInt64(Int64.max) else {
                throw fail(
                    .error(
                        .integerLiteralOverflow, "integer literal overflows a 64-bit integer", at: token.span,
                        notes: [DiagnosticNote("the largest integer is 9223372036854775807")]))
            }
            return Expr(.literal(.integer(Int64(magnitude))), span: token.span)
        case .decimal:
            advance()
            guard case .decimal(let value) = token.value else { break }
            return Expr(.literal(.decimal(value)), span: token.span)
        case .duration:
            advance()
            guard case .duration(let value, let letter) = token.value, let unit = DurationUnit(rawValue: letter) else { break }
            return Expr(.literal(.duration(value, unit)), span: token.span)
        case .string:
            advance()
            guard case .string(let value) = token.value else { break }
            return Expr(.literal(.string(value)), span: token.span)
        case .name:
            return try parseNamePrimary()
        case .escapedName:
            advance()
            return pathRoot(named: token.text, span: token.span)
        case .parameter:
            advance()
            if scopes.last(where: { $0.name == token.text })?.isDollar == true {
                return Expr(.keyPath(PropertyPath(root: .variable(token.text), [], span: token.span)), span: token.span)
            }
            return Expr(.parameter(token.text), span: token.span)
        case .dot:
            advance()
            guard current.kind == .name || current.kind == .escapedName else {
                throw fail(.error(.expectedToken, "expected an enum case name after '.'", at: current.span))
            }
            let name = advance()
            return Expr(.enumCase(name.text), span: token.span.merged(with: name.span))
        case .leftParen:
            advance()
            let inner = try bracketed(token, closer: .rightParen) { parser throws(Failure) in try parser.parsePredicate() }
            let close = try expect(.rightParen, "')'", after: "to match this '('")
            return Expr(inner.kind, span: token.span.merged(with: close.span))
        case .leftBracket, .leftBrace:
            return try parseList()
        default:
            break
        }
        throw fail(.error(.expectedExpression, "expected an expression, found \(Self.describe(token))", at: token.span))
    }

    /// A word in operand position: a keyword literal, SELF, SUBQUERY, a call, or a key path root.
    private mutating func parseNamePrimary() throws(Failure) -> Expr {
        let token = current
        if let literal = Keywords.literal(lowercased: token.folded) {
            advance()
            return Expr(.literal(literal), span: token.span)
        }
        if token.isKeyword("self") {
            advance()
            return Expr(.keyPath(PropertyPath(root: .object, [], span: token.span)), span: token.span)
        }
        if token.isKeyword("subquery"), peek().kind == .leftParen {
            return try parseSubquery()
        }
        if token.isReservedWord {
            throw fail(
                .error(
                    .reservedWord,
                    "expected an expression, found the reserved word '\(token.text)'",
                    at: token.span,
                    notes: [DiagnosticNote("to use it as a name, escape it with backticks: `\(token.text)`")]))
        }
        advance()
        if current.kind == .leftParen {
            return try parseCall(token)
        }
        return pathRoot(named: token.text, span: token.span)
    }

    /// A closure variable if one of that name is in scope, else the first name of a key path from the object.
    private func pathRoot(named name: String, span: SourceSpan) -> Expr {
        if scopes.last(where: { $0.name == name })?.isDollar == false {
            return Expr(.keyPath(PropertyPath(root: .variable(name), [], span: span)), span: span)
        }
        return Expr(.keyPath(PropertyPath(root: .object, [PathComponent(name, span: span)], span: span)), span: span)
    }

    /// `functionCall ::= "date" "(" STRING ")" | "uuid" "(" STRING ")" | "now" "(" ")" | "today" "(" ")"`
    private mutating func parseCall(_ name: Token) throws(Failure) -> Expr {
        guard let function = BuiltinFunction(rawValue: name.text) else {
            throw fail(
                .error(
                    .unknownFunction, "pq has no function named '\(name.text)'", at: name.span,
                    notes: [DiagnosticNote("functions: date('2024-05-01'), uuid('…'), now(), today()")]))
        }
        let open = advance()
        let arguments = try bracketed(open, closer: .rightParen) { parser throws(Failure) -> [Expr] in
            guard function == .date || function == .uuid else { return [] }
            guard parser.current.kind == .string, case .string(let text) = parser.current.value else {
                let example = function == .date ? "date('2024-05-01')" : "uuid('E621E1F8-C36C-495A-93FC-0C247A3E6E5F')"
                throw parser.fail(
                    .error(
                        .expectedToken, "\(function.rawValue)() takes a string literal, as in \(example)",
                        at: parser.current.span))
            }
            return [Expr(.literal(.string(text)), span: parser.advance().span)]
        }
        let close = try expect(.rightParen, "')'", after: "to end the call to '\(function.rawValue)'")
        return Expr(.call(function, arguments), span: name.span.merged(with: open.span).merged(with: close.span))
    }

    /// `list ::= "[" ( predicate ( "," predicate )* )? "]" | "{" … "}"`
    private mutating func parseList() throws(Failure) -> Expr {
        let open = advance()
        let closeKind: TokenKind = open.kind == .leftBracket ? .rightBracket : .rightBrace
        let elements = try bracketed(open, closer: closeKind) { parser throws(Failure) in
            var elements: [Expr] = []
            if parser.current.kind == closeKind { return elements }
            repeat {
                guard elements.count < parser.limits.maxListLength else {
                    parser.diagnostics.append(
                        .error(
                            .listTooLong,
                            "list has more than \(parser.limits.maxListLength) elements",
                            at: parser.current.span))
                    throw .fatal
                }
                elements.append(try parser.parsePredicate())
            } while parser.consume(.comma) != nil
            return elements
        }
        let close = try expect(closeKind, "'\(Self.spelling(of: closeKind))' or ','", after: "in the list")
        return Expr(.list(elements), span: open.span.merged(with: close.span))
    }

    /// `subquery ::= "SUBQUERY" "(" predicate "," PARAMETER "," predicate ")"`
    private mutating func parseSubquery() throws(Failure) -> Expr {
        let keyword = advance()
        let open = advance()
        return try bracketed(open, closer: .rightParen) { parser throws(Failure) in
            let collection = try parser.parsePredicate()
            _ = try parser.expect(.comma, "','", after: "after the collection of SUBQUERY")
            let variable = parser.current
            guard variable.kind == .parameter, let first = variable.text.unicodeScalars.first,
                Lexer.isNameStart(first)
            else {
                throw parser.fail(
                    .error(
                        .expectedToken, "expected a variable such as '$x' as the second argument of SUBQUERY",
                        at: variable.span))
            }
            parser.advance()
            _ = try parser.expect(.comma, "','", after: "after the variable of SUBQUERY")
            parser.scopes.append(Binding(name: variable.text, isDollar: true))
            defer { parser.scopes.removeLast() }
            // The condition one level deeper than the parentheses: as deep as in
            // `xs.filter({ $x in … })`, the form SUBQUERY prints as, so that it parses back.
            let body = try parser.nested(variable.span) { parser throws(Failure) in try parser.parsePredicate() }
            let close = try parser.expect(.rightParen, "')'", after: "to end SUBQUERY")
            return Expr(
                .filter(collection, Closure(variable: variable.text, body: body)),
                span: keyword.span.merged(with: close.span))
        }
    }
}
