// Postfix forms: member access, Swift method calls, closures and the collection
// operators (`count`, `isEmpty`, `@count`, `@sum.x`, …).
//
// Method calls map onto the same nodes as the operators they stand for:
// `name.contains(x)` is `name contains x`, `name.hasPrefix(x)` and
// `name.starts(with: x)` are `name beginswith x`, `[1, 2].contains(x)` and
// `$ids.contains(x)` are `x in [1, 2]` and `x in $ids`, and `xs.contains { … }` is
// an element test.

extension Parser {
    /// `postfix ::= primary postfixTail*`
    mutating func parsePostfix() throws(Failure) -> Expr {
        var expr = try parsePrimary()
        var levels = 0
        defer { depth -= levels }
        while current.kind == .dot || current.kind == .questionDot || current.kind == .bang {
            // Swift's force unwrap, `lastHeard! >= $t` or `budget!.name`: a `!` right
            // after an operand can be nothing else. pq's paths are nil-safe, so it
            // changes nothing: a nil value makes the test false instead of trapping.
            if consume(.bang) != nil { continue }
            let isOptional = current.kind == .questionDot
            let dot = advance()
            if case .keyPath = expr.kind, !isOptional || current.kind == .name || current.kind == .escapedName,
                !isCollectionOperator(current), !isMethodCall()
            {
                expr = try appendingMember(to: expr, optional: isOptional, after: dot)
                continue
            }
            try enter(dot.span)
            levels += 1
            if isOptional {
                expr = try appendingMember(to: expr, optional: true, after: dot)
            } else if isCollectionOperator(current) {
                expr = try parseCollectionOperator(on: expr)
            } else if isMethodCall() {
                expr = try parseMethodCall(on: expr)
            } else {
                expr = try appendingMember(to: expr, optional: false, after: dot)
            }
        }
        return expr
    }

    private func isCollectionOperator(_ token: Token) -> Bool {
        token.kind == .collectionOperator || token.isName("count") || token.isName("isEmpty")
    }

    /// A name followed by `(`, or one of the closure-taking methods followed by `{`.
    private func isMethodCall() -> Bool {
        guard current.kind == .name else { return false }
        if peek().kind == .leftParen { return true }
        return peek().kind == .leftBrace && ["contains", "allSatisfy", "filter"].contains(current.text)
    }

    /// `memberName`: extends a key path, or wraps any other expression in `.member`.
    private mutating func appendingMember(to expr: Expr, optional: Bool, after dot: Token) throws(Failure) -> Expr {
        let token = current
        guard token.kind == .name || token.kind == .escapedName else {
            throw fail(
                .error(
                    .expectedToken, "expected a member name after '\(optional ? "?." : ".")'",
                    at: token.span))
        }
        if token.kind == .name, token.text == "count" || token.text == "isEmpty" {
            throw fail(
                .error(
                    .expectedToken, "'\(token.text)' after '?.' is not supported; write '.\(token.text)'",
                    at: dot.span.merged(with: token.span)))
        }
        advance()
        var component = PathComponent(token.text, optionalChained: optional, span: token.span)
        let span = expr.span.merged(with: token.span)
        if case .keyPath(var path) = expr.kind {
            // SELF is never nil: `SELF?.name` is `name`.
            if path.root == .object, path.components.isEmpty { component.isOptionalChained = false }
            path.components.append(component)
            path.span = span
            return Expr(.keyPath(path), span: span)
        }
        return Expr(.member(expr, component), span: span)
    }

    /// `collectionOperator ::= "count" | "isEmpty" | "@COUNT" | aggregateOperator "." memberName …`
    private mutating func parseCollectionOperator(on collection: Expr) throws(Failure) -> Expr {
        let token = advance()
        if token.kind == .name {
            let kind: ExprKind = token.text == "count" ? .aggregate(.count, collection, []) : .isEmpty(collection)
            return Expr(kind, span: collection.span.merged(with: token.span))
        }
        guard let function = AggregateFunction(rawValue: token.text.lowercased()) else {
            throw fail(
                .error(
                    .unknownCollectionOperator,
                    "unknown collection operator '@\(token.text)'",
                    at: token.span,
                    notes: [DiagnosticNote("pq supports @count, @sum, @avg, @min and @max")]))
        }
        var components: [PathComponent] = []
        var end = token.span
        if function != .count {
            guard current.kind == .dot else {
                throw fail(
                    .error(
                        .expectedToken,
                        "expected '.' and a property after '@\(token.text)', as in 'transactions.@\(function.rawValue).amount'",
                        at: current.span))
            }
            // The field takes member names up to a method call, `count` or `isEmpty`.
            while current.kind == .dot, components.isEmpty || isFieldName(peek(), followedBy: peek(2)) {
                advance()
                guard current.kind == .name || current.kind == .escapedName else {
                    throw fail(.error(.expectedToken, "expected a property name after '.'", at: current.span))
                }
                let name = advance()
                components.append(PathComponent(name.text, span: name.span))
                end = name.span
            }
        }
        return Expr(.aggregate(function, collection, components), span: collection.span.merged(with: end))
    }

    /// Whether `token` continues an aggregate's field path rather than starting a postfix form.
    private func isFieldName(_ token: Token, followedBy next: Token) -> Bool {
        if token.kind == .escapedName { return true }
        guard token.kind == .name, token.text != "count", token.text != "isEmpty" else { return false }
        return next.kind != .leftParen && next.kind != .leftBrace
    }

    /// The methods of `method` in Grammar/pq.ebnf.
    private mutating func parseMethodCall(on receiver: Expr) throws(Failure) -> Expr {
        let name = advance()
        // `starts(with:)`, `hasPrefix(_:)`, …: the string operators' Swift methods.
        if let method = StringOperator.swiftMethods[name.text] {
            let (argument, end) = try parseArgument(label: method.label, method: name)
            return Expr(.stringTest(method.op, receiver, argument, method.options), span: receiver.span.merged(with: end))
        }
        switch name.text {
        case "contains":
            return try parseContains(on: receiver, name: name)
        case "allSatisfy":
            let closure = try parseClosureArgument(label: nil, method: name)
            return Expr(.elementTest(.all, receiver, closure.closure), span: receiver.span.merged(with: closure.end))
        case "filter":
            let closure = try parseClosureArgument(label: nil, method: name)
            return Expr(.filter(receiver, closure.closure), span: receiver.span.merged(with: closure.end))
        default:
            throw fail(
                .error(
                    .unknownMethod, "pq does not support the method '\(name.text)'", at: name.span,
                    notes: [
                        DiagnosticNote(
                            "supported methods: contains(_:), contains(where:), allSatisfy(_:), filter(_:), starts(with:), hasPrefix(_:), hasSuffix(_:), localizedStandardContains(_:), localizedCaseInsensitiveContains(_:)"
                        )
                    ]))
        }
    }

    /// `contains(x)`, `contains(where: { … })`, `contains { … }`.
    private mutating func parseContains(on receiver: Expr, name: Token) throws(Failure) -> Expr {
        if current.kind == .leftBrace || (peek().isName("where") && peek(2).kind == .colon) {
            let closure = try parseClosureArgument(label: "where", method: name)
            return Expr(.elementTest(.any, receiver, closure.closure), span: receiver.span.merged(with: closure.end))
        }
        let (argument, end) = try parseArgument(label: nil, method: name)
        let span = receiver.span.merged(with: end)
        switch receiver.kind {
        // A parameter receiver is a captured list, as `ids.contains($0.name)` is in
        // Swift: membership, never a substring test (which would match 'Rent' in
        // 'Vacation Rentals'). A String parameter is tested with `$text contains x`.
        case .list, .range, .parameter:
            return Expr(.membership(argument, receiver), span: span)
        default:
            return Expr(.stringTest(.contains, receiver, argument, []), span: span)
        }
    }

    /// `( label: )? predicate` in parentheses; returns the argument and the span of `)`.
    private mutating func parseArgument(label: String?, method: Token) throws(Failure) -> (Expr, SourceSpan) {
        let open = try expect(.leftParen, "'('", after: "after '\(method.text)'")
        if let label {
            guard current.isName(label), peek().kind == .colon else {
                throw fail(.error(.expectedToken, "expected '\(label):' in the call to '\(method.text)'", at: current.span))
            }
            advance()
            advance()
        }
        let argument = try bracketed(open, closer: .rightParen) { parser throws(Failure) in try parser.parsePredicate() }
        let close = try expect(.rightParen, "')'", after: "to end the call to '\(method.text)'")
        return (argument, close.span)
    }

    /// A closure in parentheses (with an optional label) or as a trailing closure.
    private mutating func parseClosureArgument(
        label: String?, method: Token
    ) throws(Failure) -> (closure: Closure, end: SourceSpan) {
        // The closure's braces take a nesting level, the parentheses around them none:
        // `xs.filter({ t in … })` is as deep as `xs.filter { t in … }` (and as
        // `SUBQUERY(xs, $t, …)`), so each prints as the first and parses back at the
        // limit, as it is one tree.
        if current.kind == .leftBrace { return try parseClosure() }
        let open = try expect(.leftParen, "'(' or '{'", after: "after '\(method.text)'")
        let closure = try bracketed(open, closer: .rightParen, levels: 0) { parser throws(Failure) in
            if let label, parser.current.isName(label), parser.peek().kind == .colon {
                parser.advance()
                parser.advance()
            }
            guard parser.current.kind == .leftBrace else {
                throw parser.fail(
                    .error(
                        .expectedToken, "expected a closure such as '{ $0.name == \"x\" }' in the call to '\(method.text)'",
                        at: parser.current.span))
            }
            return try parser.parseClosure().closure
        }
        let close = try expect(.rightParen, "')'", after: "to end the call to '\(method.text)'")
        return (closure, close.span)
    }

    /// `closure ::= "{" ( IDENTIFIER "in" )? predicate "}"`
    mutating func parseClosure() throws(Failure) -> (closure: Closure, end: SourceSpan) {
        let open = try expect(.leftBrace, "'{'")
        var binding = Binding(name: "0", isDollar: true)
        // `{ t in … }` declares t, as in Swift: an identifier and a lower-case `in`.
        let declaresName = current.kind == .escapedName || (current.kind == .name && !current.isReservedWord)
        if declaresName, peek().isName("in") {
            binding = Binding(name: advance().text, isDollar: false)
            advance()
        }
        let body = try bracketed(open, closer: .rightBrace) { parser throws(Failure) in
            parser.scopes.append(binding)
            defer { parser.scopes.removeLast() }
            return try parser.parsePredicate()
        }
        let close = try expect(.rightBrace, "'}'", after: "to end the closure")
        return (Closure(variable: binding.name, body: body), close.span)
    }
}
