// Operands of a Swift predicate: names, literals, prefix operators, member
// access and the method calls `#Predicate` accepts.
//
// Each call maps onto the node the text language gives its spelling:
// `name.contains(x)` is a substring test and `list.contains(x)` membership,
// `starts(with:)`/`hasPrefix` begin-with, `localizedStandardContains` a `[cd]`
// contains, `xs.contains { … }` and `allSatisfy` element tests, `filter`
// a filter, `opt.flatMap { … }` the closure's test on a present value.

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
            return Expr(inner.kind, span: tokenSpan.merged(with: close))
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

    /// The methods that take a trailing closure.
    static let closureMethods: Set<String> = ["contains", "allSatisfy", "filter", "flatMap", "map"]

    mutating func member(_ name: SwiftToken, of base: Expr, optional: Bool) throws(Failure) -> Expr {
        let nameSpan = span(of: name)
        let calls = isPunctuation("(") || (isPunctuation("{") && Self.closureMethods.contains(name.text) && allowsTrailingClosure)
        if calls { return try method(name, on: base) }
        let span = base.span.merged(with: nameSpan)
        // `search.isEmpty`, `limits.max`: a property of a captured value is captured too.
        if case .parameter(let captured) = base.kind {
            let whole = captured + "." + name.text
            if !capturedNames.contains(whole) { capturedNames.append(whole) }
            return Expr(.parameter(whole), span: span)
        }
        // The object itself is no collection: `$0.count` and `$0.isEmpty` are its properties.
        let isObject: Bool
        if case .keyPath(let path) = base.kind, path.components.isEmpty { isObject = true } else { isObject = false }
        if !name.isEscaped, !isObject, name.text == "count" { return Expr(.aggregate(.count, base, []), span: span) }
        if !name.isEscaped, !isObject, name.text == "isEmpty" { return Expr(.isEmpty(base), span: span) }
        var component = PathComponent(name.text, optionalChained: optional, span: nameSpan)
        if case .keyPath(var path) = base.kind {
            if path.root == .object, path.components.isEmpty { component.isOptionalChained = false }
            path.components.append(component)
            path.span = span
            return Expr(.keyPath(path), span: span)
        }
        return Expr(.member(base, component), span: span)
    }

    static let supportedMethods =
        "contains(_:), contains(where:), allSatisfy(_:), filter(_:), flatMap(_:), starts(with:), hasPrefix(_:), hasSuffix(_:), localizedStandardContains(_:), localizedCaseInsensitiveContains(_:), addingTimeInterval(_:)"

    mutating func method(_ name: SwiftToken, on receiver: Expr) throws(Failure) -> Expr {
        let nameSpan = span(of: name)
        try enter(nameSpan)
        defer { depth -= 1 }
        switch name.text {
        case "contains":
            if isPunctuation("{") || (isPunctuation("(") && isWord("where", at: 1) && isPunctuation(":", at: 2)) {
                let (closure, end) = try closureArgument(label: "where")
                return Expr(.elementTest(.any, receiver, closure), span: receiver.span.merged(with: end))
            }
            let (argument, end) = try argument(label: nil, method: name.text)
            let span = receiver.span.merged(with: end)
            switch receiver.kind {
            case .list, .range, .parameter: return Expr(.membership(argument, receiver), span: span)
            default: return Expr(.stringTest(.contains, receiver, argument, []), span: span)
            }
        case "allSatisfy", "filter":
            let (closure, end) = try closureArgument(label: nil)
            let kind: ExprKind = name.text == "filter" ? .filter(receiver, closure) : .elementTest(.all, receiver, closure)
            return Expr(kind, span: receiver.span.merged(with: end))
        case "flatMap", "map":
            return try flatMap(on: receiver)
        case "starts", "hasPrefix", "hasSuffix", "localizedStandardContains", "localizedCaseInsensitiveContains":
            let (argument, end) = try argument(label: name.text == "starts" ? "with" : nil, method: name.text)
            let (op, options): (StringOperator, StringOptions) =
                switch name.text {
                case "starts", "hasPrefix": (.beginsWith, [])
                case "hasSuffix": (.endsWith, [])
                case "localizedStandardContains": (.contains, [.caseInsensitive, .diacriticInsensitive])
                default: (.contains, [.caseInsensitive])
                }
            return Expr(.stringTest(op, receiver, argument, options), span: receiver.span.merged(with: end))
        case "addingTimeInterval":
            var (argument, end) = try argument(label: nil, method: name.text)
            // A number of seconds is a duration, as `date + 86400s` is in the text language.
            switch argument.kind {
            case .literal(.integer(let seconds)): argument.kind = .literal(.duration(Double(seconds), .seconds))
            case .literal(.decimal(let seconds)): argument.kind = .literal(.duration(seconds, .seconds))
            default: break
            }
            return Expr(.arithmetic(.add, receiver, argument), span: receiver.span.merged(with: end))
        case "evaluate":
            throw fail(
                "'evaluate' of a captured predicate cannot become SQL: the store needs the whole test in one closure",
                at: nameSpan, code: .swiftUnsupported,
                notes: [DiagnosticNote("write the other predicate's test here, or combine the two with && in one #Predicate")])
        default:
            throw fail(
                "'\(name.text)' cannot become SQL: pq does not know this method", at: nameSpan, code: .swiftUnsupported,
                notes: [DiagnosticNote("supported methods: \(Self.supportedMethods)")])
        }
    }

    /// `opt.flatMap { x in test }`: the test, with `x` standing for `opt`, where `opt` is not nil.
    mutating func flatMap(on receiver: Expr) throws(Failure) -> Expr {
        var parenthesised = false
        if isPunctuation("(") {
            advance()
            parenthesised = true
        }
        guard isPunctuation("{") else { throw fail("expected a closure after 'flatMap'", at: currentSpan) }
        let open = advance().map(span(of:)) ?? currentSpan
        let named = closureParameter()
        scopes.append(named.map { [$0: .value(receiver)] } ?? [:])
        anonymous.append(.value(receiver))
        defer {
            scopes.removeLast()
            anonymous.removeLast()
        }
        let body = try parseBody()
        var close = try expect("}", "'}' to end the closure")
        if parenthesised { close = try expect(")", "')' to end the call to 'flatMap'") }
        let present = Expr(.comparison(.notEqual, receiver, Expr(.literal(.null), span: receiver.span), []), span: receiver.span)
        let span = receiver.span.merged(with: close).merged(with: open)
        flatMapGuards[span] = receiver
        return Expr(.and([present, body]), span: span)
    }

    /// `( label: )? expression` in parentheses; returns it and the span of `)`.
    mutating func argument(label: String?, method: String) throws(Failure) -> (Expr, SourceSpan) {
        _ = try expect("(", "'(' after '\(method)'")
        if let label {
            guard isWord(label), isPunctuation(":", at: 1) else {
                throw fail("expected '\(label):' in the call to '\(method)'", at: currentSpan)
            }
            advance()
            advance()
        }
        let saved = allowsTrailingClosure
        allowsTrailingClosure = true
        defer { allowsTrailingClosure = saved }
        let argument = try parseExpression()
        let close = try expect(")", "')' to end the call to '\(method)'")
        return (argument, close)
    }

    /// A closure as a trailing closure or in parentheses, with an optional label.
    mutating func closureArgument(label: String?) throws(Failure) -> (Closure, SourceSpan) {
        if isPunctuation("{") { return try parseClosure() }
        _ = try expect("(", "'(' or '{'")
        if let label, isWord(label), isPunctuation(":", at: 1) {
            advance()
            advance()
        }
        guard isPunctuation("{") else {
            throw fail("expected a closure such as '{ $0.name == \"x\" }'", at: currentSpan)
        }
        let (closure, _) = try parseClosure()
        let close = try expect(")", "')' to end the call")
        return (closure, close)
    }
}
