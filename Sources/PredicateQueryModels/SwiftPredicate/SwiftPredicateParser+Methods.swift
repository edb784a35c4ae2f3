// The members and method calls `#Predicate` accepts, after an operand.
//
// Each call maps onto the node the text language gives its spelling:
// `name.contains(x)` is a substring test and `list.contains(x)` membership,
// `starts(with:)`/`hasPrefix` begin-with, `localizedStandardContains` a `[cd]`
// contains, `xs.contains { … }` and `allSatisfy` element tests, `filter`
// a filter, `opt.flatMap { … }` the closure's test on a present value,
// `date.addingTimeInterval(n)` date arithmetic (`-7 * 86_400` is 7 days, subtracted).
// Comparisons and tests with options, and pq's own methods, are in `+Foundation`.

import PredicateQuery

extension SwiftPredicateParser {
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
        "contains(_:), contains(where:), allSatisfy(_:), filter(_:), flatMap(_:), starts(with:), localizedStandardContains(_:), caseInsensitiveCompare(_:); pq also reads, though #Predicate does not accept them: hasPrefix(_:), hasSuffix(_:), localizedCaseInsensitiveContains(_:), addingTimeInterval(_:), and its own compare(_:options:), range(of:options:), like(_:options:), matches(_:options:), sum(_:), avg(_:), min(_:), max(_:)"

    mutating func method(_ name: SwiftToken, on receiver: Expr) throws(Failure) -> Expr {
        let nameSpan = span(of: name)
        try enter(nameSpan)
        defer { depth -= 1 }
        // `starts(with:)`, `hasPrefix(_:)`, …: the string operators' Swift methods, as pq's text reads them.
        if let method = StringOperator.swiftMethods[name.text] {
            noteIfTheMacroRejects(name)
            let (argument, end) = try argument(label: method.label, method: name.text)
            return Expr(.stringTest(method.op, receiver, argument, method.options), span: receiver.span.merged(with: end))
        }
        // `like(_:options:)`, `matches(_:options:)`: pq's own, where Swift has no method.
        if let op = StringOperator.pqSwiftMethods[name.text] { return try patternCall(name, op, on: receiver) }
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
            // `(owner?.age ?? 1...5).contains(age)` is membership; `($0.note ?? "").contains("x")` a substring test.
            case .coalesce(_, let fallback) where Self.isCollection(fallback):
                return Expr(.membership(argument, receiver), span: span)
            default: return Expr(.stringTest(.contains, receiver, argument, []), span: span)
            }
        case "allSatisfy", "filter":
            let (closure, end) = try closureArgument(label: nil)
            let kind: ExprKind = name.text == "filter" ? .filter(receiver, closure) : .elementTest(.all, receiver, closure)
            return Expr(kind, span: receiver.span.merged(with: end))
        case "flatMap", "map":
            return try flatMap(on: receiver)
        case "addingTimeInterval":
            noteIfTheMacroRejects(name)
            var (argument, end) = try argument(label: nil, method: name.text)
            // A number of seconds (`7 * 86_400` folded) is a duration, as `date + 604800s` is in
            // the text language; a negative one is subtracted, as `date - 7d` is.
            var op = ArithmeticOperator.add
            if let (amount, unit) = Self.duration(argument), amount.isFinite {
                op = amount < 0 ? .subtract : .add
                argument.kind = .literal(.duration(abs(amount), unit))
            }
            return Expr(.arithmetic(op, receiver, argument), span: receiver.span.merged(with: end))
        case "caseInsensitiveCompare", "compare":
            return try compareCall(name, on: receiver)
        case "range":
            return try rangeCall(name, on: receiver)
        case "sum", "avg", "min", "max":
            return try aggregateCall(name, on: receiver)
        case "evaluate" where acceptsEvaluate:
            return try acceptedEvaluate(on: receiver, nameSpan: nameSpan)
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

    /// `p.evaluate($0)`: SwiftData evaluates a captured `Predicate` (iOS 17.4+) or `#Expression`
    /// (iOS 18+) inside a predicate. pq cannot see its body here, so the call stands for a test
    /// that holds: the rest of the closure is still checked. The arguments are skipped.
    mutating func acceptedEvaluate(on receiver: Expr, nameSpan: SourceSpan) throws(Failure) -> Expr {
        if case .parameter(let name) = receiver.kind, let body = followedEvaluate(of: name) {
            capturedNames.removeAll { $0 == name }
            return body
        }
        guard isPunctuation("(") else { throw fail("expected '(' after 'evaluate'", at: currentSpan) }
        var level = 0
        var last = nameSpan
        while let token = advance() {
            last = span(of: token)
            if token.isPunctuation("(") { level += 1 }
            if token.isPunctuation(")") {
                level -= 1
                if level == 0 { break }
            }
        }
        guard level == 0 else { throw fail("expected ')' to end 'evaluate(…)'", at: currentSpan) }
        if case .parameter(let name) = receiver.kind {
            capturedNames.removeAll { $0 == name }
            if !evaluated.contains(name) { evaluated.append(name) }
        }
        return Expr(.literal(.bool(true)), span: receiver.span.merged(with: last))
    }

    /// A list or a range, written as one.
    static func isCollection(_ expr: Expr) -> Bool {
        switch expr.kind {
        case .list, .range: true
        default: false
        }
    }

    /// The number of seconds a literal expression such as `-7 * 86_400` stands for, or nil.
    static func seconds(_ expr: Expr) -> Double? {
        switch expr.kind {
        case .literal(.integer(let value)): return Double(value)
        case .literal(.decimal(let value)): return value
        case .negate(let inner): return seconds(inner).map { -$0 }
        case .arithmetic(let op, let lhs, let rhs):
            guard let a = seconds(lhs), let b = seconds(rhs) else { return nil }
            switch op {
            case .add: return a + b
            case .subtract: return a - b
            case .multiply: return a * b
            default: return nil
            }
        default: return nil
        }
    }

    /// `-7 * 86_400` as 7 days (a literal times a unit's length), `90` as 90 seconds, or nil.
    static func duration(_ expr: Expr) -> (Double, DurationUnit)? {
        var inner = expr
        var sign = 1.0
        if case .negate(let negated) = inner.kind {
            inner = negated
            sign = -1
        }
        if case .arithmetic(.multiply, let lhs, let rhs) = inner.kind, let amount = seconds(lhs), let length = seconds(rhs),
            let unit = DurationUnit.allCases.first(where: { $0 != .seconds && $0.seconds == length })
        {
            return (sign * amount, unit)
        }
        return seconds(expr).map { ($0, .seconds) }
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
