// The Swift predicate parser: tokens of a closure to pq's syntax tree.
//
// A recursive-descent parser over `SwiftToken`s with Swift's precedence groups
// (ternary < `||` < `&&` < comparison < `??` < range < `+ - | ^` < `* / % &` < prefix
// < postfix). The scanner gives single punctuation characters; operators are the
// runs of adjacent ones (`&&`, `?.`, `..<`). Names resolve through scopes: the
// closure's parameter is the object, a nested closure's parameter is its
// element, an `if let` or `let` name stands for its expression, and any other
// name is a captured value (a parameter). Spans are byte offsets of the text the
// tokens came from, so diagnostics point into the Swift file.
// See `+Primary` for operands and calls, `+Statements` for closures, `if` and `switch`.

import PredicateQuery

/// Parses one Swift predicate closure (or a part of a file holding one).
struct SwiftPredicateParser {
    /// Thrown after the first error has been reported.
    struct Failure: Error {}

    /// What a name in scope stands for.
    enum Binding {
        /// The object filtered (`.object`) or a closure's element.
        case root(PropertyPath.Root)
        /// An expression (`if let x = e`, `let x = e`).
        case value(Expr)
    }

    let tokens: [SwiftToken]
    var index: Int
    let end: Int
    let sourceLength: Int
    var diagnostics: [Diagnostic] = []
    /// Innermost last: names in scope.
    var scopes: [[String: Binding]] = []
    /// Innermost last: what `$0` is in each enclosing closure.
    var anonymous: [Binding] = []
    /// Captured values, in order of first use.
    var capturedNames: [String] = []
    /// `x.flatMap { … }`: the optional it tests, by the span of the result (for `?? false`).
    var flatMapGuards: [SourceSpan: Expr] = [:]
    var depth = 0
    static let maxDepth = 200
    /// The type written on the closure's parameter, `(trip: Trip) in`.
    var annotatedType: Name?
    /// False in an `if` condition, where `{` opens the body (as in Swift).
    var allowsTrailingClosure = true
    /// Calls whose result means something only once compared (`compare`, `range(of:)`), by span.
    var pending: [SourceSpan: Pending] = [:]
    /// What pq reads here but Foundation's `#Predicate` does not accept (reported by `pq lint`).
    var foreignSpellings: [ForeignSpelling] = []
    /// Read `p.evaluate(…)` of a captured predicate or expression as a test pq does not check
    /// (`pq lint`: SwiftData runs it since iOS 17.4) instead of an error (`pq --swift`: no SQL for it).
    var acceptsEvaluate = false
    /// The captured predicates and expressions whose `evaluate(…)` was accepted, in order of use.
    var evaluated: [String] = []
    /// Predicates and expressions declared where the closure can see them, by name: the tokens of
    /// each one's closure (`{ … }`), whose `evaluate(…)` is read as that body (`+Evaluate`).
    var followable: [String: Range<Int>] = [:]
    /// The declarations being followed now (so that none is followed into itself).
    var following: Set<String> = []

    init(tokens: [SwiftToken], range: Range<Int>, sourceLength: Int) {
        self.tokens = tokens
        self.index = range.lowerBound
        self.end = min(range.upperBound, tokens.count)
        self.sourceLength = sourceLength
    }

    // MARK: - Tokens

    var atEnd: Bool { index >= end }

    func token(_ offset: Int = 0) -> SwiftToken? {
        let position = index + offset
        return position < end && position >= 0 ? tokens[position] : nil
    }

    /// The span of the current token, or a point at the end.
    var currentSpan: SourceSpan {
        if let token = token() { return span(of: token) }
        if end > 0, end <= tokens.count { return .point(tokens[end - 1].end) }
        return .point(sourceLength)
    }

    func span(of token: SwiftToken) -> SourceSpan { SourceSpan(start: token.start, end: token.end) }

    var previousEnd: Int { index > 0 && index - 1 < tokens.count ? tokens[index - 1].end : 0 }

    @discardableResult
    mutating func advance() -> SwiftToken? {
        let current = token()
        if current != nil { index += 1 }
        return current
    }

    func isPunctuation(_ text: String, at offset: Int = 0) -> Bool {
        token(offset)?.isPunctuation(text) ?? false
    }

    func isWord(_ word: String, at offset: Int = 0) -> Bool {
        token(offset)?.isWord(word) ?? false
    }

    static let operatorCharacters: Set<String> = ["=", "!", "<", ">", "&", "|", "?", "+", "-", "*", "/", "%", ".", "^", "~"]

    /// The operator starting at the current token: the run of adjacent operator characters.
    func operatorText() -> String {
        guard let first = token(), first.kind == .punctuation, Self.operatorCharacters.contains(first.text) else { return "" }
        var text = first.text
        var offset = 1
        var last = first
        while let next = token(offset), next.kind == .punctuation, next.start == last.end,
            Self.operatorCharacters.contains(next.text)
        {
            text += next.text
            last = next
            offset += 1
        }
        return text
    }

    /// Consumes an operator of `count` characters; returns its span.
    @discardableResult
    mutating func consumeOperator(_ text: String) -> SourceSpan {
        let start = currentSpan
        var last = start
        for _ in 0..<text.count { if let token = advance() { last = span(of: token) } }
        return start.merged(with: last)
    }

    // MARK: - Errors

    mutating func fail(
        _ message: String, at span: SourceSpan, code: DiagnosticCode = .swiftSyntax, notes: [DiagnosticNote] = []
    )
        -> Failure
    {
        diagnostics.append(.error(code, message, at: span, notes: notes))
        return Failure()
    }

    mutating func expect(_ punctuation: String, _ what: String) throws(Failure) -> SourceSpan {
        guard isPunctuation(punctuation), let token = advance() else {
            throw fail("expected \(what)", at: currentSpan)
        }
        return span(of: token)
    }

    mutating func enter(_ span: SourceSpan) throws(Failure) {
        depth += 1
        if depth > Self.maxDepth {
            throw fail("the predicate nests more than \(Self.maxDepth) levels deep", at: span, code: .nestingTooDeep)
        }
    }

    // MARK: - Binary operators

    /// `expression ::= ternary`
    mutating func parseExpression() throws(Failure) -> Expr {
        try enter(currentSpan)
        defer { depth -= 1 }
        let condition = try parseBinary(level: 0)
        // `c ? a : b`: the `?` stands apart from its operand (`a?.b` is chaining).
        guard isPunctuation("?"), let question = token(), question.start > previousEnd else { return condition }
        advance()
        let then = try parseExpression()
        _ = try expect(":", "':' in the conditional expression")
        let otherwise = try parseExpression()
        return Self.conditional(condition, then, otherwise, span: condition.span.merged(with: otherwise.span))
    }

    /// The operators of each precedence level, lowest first.
    static let levels: [[String]] = [
        ["||"], ["&&"], ["==", "!=", "<", "<=", ">", ">="], ["??"], ["...", "..<"], ["+", "-", "|", "^"], ["*", "/", "%", "&"],
    ]

    mutating func parseBinary(level: Int) throws(Failure) -> Expr {
        guard level < Self.levels.count else { return try parsePrefix() }
        var lhs = try parseBinary(level: level + 1)
        var operands = [lhs]
        var comparisons = 0
        while true {
            let text = operatorText()
            guard Self.levels[level].contains(text) else { break }
            let opSpan = consumeOperator(text)
            // `??` is right-associative; the rest are left-associative (comparisons do not chain).
            let rhs = text == "??" ? try parseBinary(level: level) : try parseBinary(level: level + 1)
            let span = lhs.span.merged(with: rhs.span)
            switch text {
            case "||", "&&":
                operands.append(rhs)
                lhs = Expr(text == "||" ? .or(operands) : .and(operands), span: operands[0].span.merged(with: rhs.span))
                continue
            case "??":
                lhs = coalesce(lhs, rhs, span: span)
            case "...", "..<":
                lhs = Expr(.range(lhs, rhs, text == "..." ? .closed : .halfOpen), span: span)
            case "+", "-", "*", "/", "%", "|", "^", "&":
                lhs = Expr(.arithmetic(ArithmeticOperator(rawValue: text) ?? .add, lhs, rhs), span: span)
            default:
                comparisons += 1
                if comparisons > 1 {
                    throw fail("adjacent comparisons do not chain in Swift", at: opSpan, code: .nonAssociativeOperator)
                }
                let op = ComparisonOperator(rawValue: text) ?? .equal
                // `a.compare(b) == .orderedSame` and `nil != a.range(of: b)`: the held call's comparison.
                var resolved = try resolvePending(op, lhs, rhs, span: span)
                if resolved == nil { resolved = try resolvePending(op, rhs, lhs, span: span) }
                lhs = resolved ?? Expr(.comparison(op, lhs, rhs, []), span: span)
            }
            operands = [lhs]
        }
        return lhs
    }

    /// `a ?? b`; `x.flatMap { … } ?? false` is the closure's test where x is not nil.
    mutating func coalesce(_ lhs: Expr, _ rhs: Expr, span: SourceSpan) -> Expr {
        if let tested = flatMapGuards[lhs.span], case .literal(.bool(let fallback)) = rhs.kind {
            let isNil = Expr(.comparison(.equal, tested, Expr(.literal(.null), span: tested.span), []), span: tested.span)
            // The flatMap already holds `x != nil && body`.
            return fallback ? Expr(.or([isNil, lhs]), span: span) : Expr(lhs.kind, span: span)
        }
        return Expr(.coalesce(lhs, rhs), span: span)
    }

    /// `c ? a : b` and `if c { a } else { b }` as a test: `c && a || !c && b`,
    /// without the parts a literal `true` or `false` makes needless.
    static func conditional(_ condition: Expr, _ then: Expr, _ otherwise: Expr, span: SourceSpan) -> Expr {
        let negated = Expr(.not(condition), span: condition.span)
        func both(_ test: Expr, _ value: Expr) -> Expr? {
            if case .literal(.bool(let bool)) = value.kind { return bool ? test : nil }
            return Expr(.and([test, value]), span: test.span.merged(with: value.span))
        }
        let parts = [both(condition, then), both(negated, otherwise)].compactMap { $0 }
        switch parts.count {
        case 0: return Expr(.literal(.bool(false)), span: span)
        case 1: return Expr(parts[0].kind, span: span)
        default: return Expr(.or(parts), span: span)
        }
    }
}
