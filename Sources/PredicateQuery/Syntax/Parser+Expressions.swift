// Predicates and operators, loosest to tightest, as in the precedence table of
// Grammar/pq.ebnf: || , &&, ! / NOT, comparisons, ranges, + -, * / %, unary minus.

extension Parser {
    /// `predicate ::= disjunction`
    mutating func parsePredicate() throws(Failure) -> Expr {
        try parseDisjunction()
    }

    /// `disjunction ::= conjunction ( ( "||" | "OR" ) conjunction )*`
    mutating func parseDisjunction() throws(Failure) -> Expr {
        try parseLogicalChain(operator: .or, keyword: "or", makeNode: ExprKind.or) { parser throws(Failure) in
            try parser.parseConjunction()
        }
    }

    /// `conjunction ::= negation ( ( "&&" | "AND" ) negation )*`
    mutating func parseConjunction() throws(Failure) -> Expr {
        try parseLogicalChain(operator: .and, keyword: "and", makeNode: ExprKind.and) { parser throws(Failure) in
            try parser.parseNegation()
        }
    }

    /// An n-ary chain of one logical operator; each operand recovers from syntax errors on its own.
    private mutating func parseLogicalChain(
        operator kind: TokenKind, keyword: String, makeNode: ([Expr]) -> ExprKind,
        operand: (inout Parser) throws(Failure) -> Expr
    ) throws(Failure) -> Expr {
        let first = try parseRecovering(operand)
        // Most operands stand alone: no array for them.
        guard current.kind == kind || current.isKeyword(keyword) else { return first }
        var operands = [first]
        while current.kind == kind || current.isKeyword(keyword) {
            let op = advance()
            guard operands.count < limits.maxListLength else {
                diagnostics.append(
                    .error(
                        .listTooLong,
                        "too many operands of '\(keyword)'; the limit is \(limits.maxListLength)",
                        at: op.span))
                throw .fatal
            }
            operands.append(try parseRecovering(operand))
        }
        guard operands.count > 1, let first = operands.first, let last = operands.last else { return operands[0] }
        return Expr(makeNode(operands), span: first.span.merged(with: last.span))
    }

    /// Runs `body`; after a recoverable error, skips to the next operator that can
    /// resume the parse and returns an `.invalid` node in place of the operand.
    mutating func parseRecovering(_ body: (inout Parser) throws(Failure) -> Expr) throws(Failure) -> Expr {
        let start = current.span
        do {
            return try body(&self)
        } catch .fatal {
            throw .fatal
        } catch {
            synchronize()
            let end = index > 0 ? tokens[index - 1].span : start
            return Expr(.invalid, span: start.merged(with: end))
        }
    }

    /// Skips tokens up to (not including) `&&`, `||`, `and`, `or`, or a closing
    /// bracket or comma that belongs to an enclosing construct.
    private mutating func synchronize() {
        var nesting = 0
        while current.kind != .end {
            switch current.kind {
            case .leftParen, .leftBracket, .leftBrace:
                nesting += 1
            case .comma:
                if nesting == 0, !closers.isEmpty { return }
            case .rightParen, .rightBracket, .rightBrace:
                if nesting == 0, closers.contains(current.kind) { return }
                nesting = max(0, nesting - 1)
            case .and, .or:
                if nesting == 0 { return }
            default:
                if nesting == 0, current.isKeyword("and") || current.isKeyword("or") { return }
            }
            advance()
        }
    }

    /// `negation ::= ( "!" | "NOT" ) negation | comparison`, gathered in a loop.
    mutating func parseNegation() throws(Failure) -> Expr {
        var operators: [SourceSpan] = []
        while current.kind == .bang || current.isKeyword("not") {
            let token = advance()
            try enter(token.span)
            operators.append(token.span)
        }
        defer { depth -= operators.count }
        var expr = try parseComparison()
        for span in operators.reversed() {
            expr = Expr(.not(expr), span: span.merged(with: expr.span))
        }
        return expr
    }

    /// `comparison ::= quantifier? range comparisonTail?`
    mutating func parseComparison() throws(Failure) -> Expr {
        let start = current.span
        var quantifier: Quantifier?
        for (word, value) in Keywords.quantifiers where current.isKeyword(word) {
            advance()
            quantifier = value
            break
        }
        let body = try parseComparisonBody()
        guard let quantifier else { return body }
        return Expr(.quantified(quantifier, body), span: start.merged(with: body.span))
    }

    private mutating func parseComparisonBody() throws(Failure) -> Expr {
        let lhs = try parseCoalescing()
        guard let result = try parseComparisonTail(lhs) else { return lhs }
        if isAtComparisonOperator() {
            throw fail(
                .error(
                    .nonAssociativeOperator,
                    "adjacent operators are in non-associative precedence group 'ComparisonPrecedence'",
                    at: current.span,
                    notes: [DiagnosticNote("comparisons do not chain; combine them with '&&', as in 'a < b && b < c'")]))
        }
        return result
    }

    private func isAtComparisonOperator() -> Bool {
        switch current.kind {
        case .equal, .notEqual, .less, .lessEqual, .greater, .greaterEqual: return true
        default:
            return Keywords.comparisonWords.contains { current.isKeyword($0) }
        }
    }

    /// `comparisonTail`: a comparison, string test, `in` or `between`; nil if none follows.
    private mutating func parseComparisonTail(_ lhs: Expr) throws(Failure) -> Expr? {
        if let op = Self.comparisonOperator(current.kind) {
            advance()
            let options = try parseModifier() ?? []
            let rhs = try parseCoalescing()
            return Expr(.comparison(op, lhs, rhs, options), span: lhs.span.merged(with: rhs.span))
        }
        for op in StringOperator.allCases where current.isKeyword(op.rawValue) {
            advance()
            let options = try parseModifier() ?? []
            let rhs = try parseCoalescing()
            return Expr(.stringTest(op, lhs, rhs, options), span: lhs.span.merged(with: rhs.span))
        }
        if let keyword = consumeKeyword("in") {
            let modifier = isAtMembershipModifier() ? try parseModifier() : nil
            let rhs = try parseCoalescing()
            if let options = modifier, !options.isEmpty {
                return try modifiedMembership(lhs, rhs, options, after: keyword)
            }
            return Expr(.membership(lhs, rhs), span: lhs.span.merged(with: rhs.span))
        }
        if let keyword = consumeKeyword("between") {
            let bounds = try parseBetweenBounds(after: keyword)
            return Expr(.membership(lhs, bounds), span: lhs.span.merged(with: bounds.span))
        }
        return nil
    }

    /// After `in`, whether `[c]` (`[d]`, `[cd]`, …) is a modifier: when an operand
    /// follows it (`name in[c] {'a', 'b'}`); otherwise it is a one-element list
    /// (`x in [c]`, with `c` an attribute), as it was before `in` took modifiers.
    private func isAtMembershipModifier() -> Bool {
        guard current.kind == .leftBracket, peek().kind == .name, peek(2).kind == .rightBracket,
            Self.modifierSpellings.contains(peek().folded)
        else { return false }
        let next = peek(3)
        switch next.kind {
        case .leftBrace, .leftBracket, .leftParen, .parameter, .string, .integer, .decimal, .escapedName: return true
        case .name:
            return !next.isReservedWord && !Keywords.clauses.contains(next.folded)
        default: return false
        }
    }

    /// `x in[c] {a, b}`: NSPredicate's `IN[c]`, which is `x ==[c] a || x ==[c] b`
    /// (a nil in the list is `x == nil`), so that the checker, the SQL and the
    /// evaluator give it the meaning `==[c]` has; its values stay literals, each bound
    /// as a parameter. A list parameter keeps the modifier (`in[c] $names`); a range
    /// cannot take one. A `$name` that is a closure or SUBQUERY variable is the
    /// grammar's PARAMETER too: it parses, and the checker says it is no list.
    private mutating func modifiedMembership(
        _ lhs: Expr, _ rhs: Expr, _ options: StringOptions, after keyword: Token
    ) throws(Failure) -> Expr {
        let span = lhs.span.merged(with: rhs.span)
        switch rhs.kind {
        case .parameter: return Expr(.membership(lhs, rhs, options), span: span)
        case .keyPath(let path) where path.components.isEmpty && path.root != .object:
            return Expr(.membership(lhs, rhs, options), span: span)
        default: break
        }
        guard case .list(let elements) = rhs.kind else {
            throw fail(
                .error(
                    .modifiedMembership, "'in\(options.modifier)' needs a list of values or a list parameter on its right",
                    at: rhs.span,
                    notes: [
                        DiagnosticNote(
                            "as in 'name in\(options.modifier) {'a', $b}' or 'name in\(options.modifier) $names'; a range cannot take a modifier"
                        )
                    ]))
        }
        let tests = elements.map { member -> Expr in
            if case .literal(.null) = member.kind {
                return Expr(.comparison(.equal, lhs, member, []), span: lhs.span.merged(with: member.span))
            }
            return Expr(.comparison(.equal, lhs, member, options), span: lhs.span.merged(with: member.span))
        }
        switch tests.count {
        case 0: return Expr(.literal(.bool(false)), span: span)
        case 1: return Expr(tests[0].kind, span: span)
        default: return Expr(.or(tests), span: span)
        }
    }

    private static func comparisonOperator(_ kind: TokenKind) -> ComparisonOperator? {
        switch kind {
        case .equal: .equal
        case .notEqual: .notEqual
        case .less: .less
        case .lessEqual: .lessOrEqual
        case .greater: .greater
        case .greaterEqual: .greaterOrEqual
        default: nil
        }
    }

    /// `modifier ::= "[C]" | "[D]" | "[N]" | "[CD]" | "[DC]" | "[CN]" | "[DN]" | "[CDN]" | "[DCN]"`;
    /// nil if no modifier follows. NSPredicate's `[n]` says the strings are already
    /// normalized and may be compared literally, which is what pq's tests do: it
    /// changes nothing.
    mutating func parseModifier() throws(Failure) -> StringOptions? {
        guard current.kind == .leftBracket, peek().kind == .name, peek(2).kind == .rightBracket else { return nil }
        let letters = peek().folded
        guard Self.modifierSpellings.contains(letters) else { return nil }
        advance()
        advance()
        advance()
        // Bytes, not `letters.contains("c")`: with Foundation imported, that call is
        // Foundation's substring search, some 3,500 instructions each.
        var options: StringOptions = []
        if letters.utf8.contains(UInt8(ascii: "c")) { options.insert(.caseInsensitive) }
        if letters.utf8.contains(UInt8(ascii: "d")) { options.insert(.diacriticInsensitive) }
        return options
    }

    /// The letters a modifier may hold, as the grammar lists them.
    static let modifierSpellings: Set<String> = ["c", "d", "n", "cd", "dc", "cn", "dn", "cdn", "dcn"]

    /// `betweenBounds ::= additive "AND" additive | "{" predicate "," predicate "}" | "[" … "]"`,
    /// returned as the closed range it means.
    private mutating func parseBetweenBounds(after keyword: Token) throws(Failure) -> Expr {
        let start = current.span
        if let open = consume(.leftBrace) ?? consume(.leftBracket) {
            let close: TokenKind = open.kind == .leftBrace ? .rightBrace : .rightBracket
            let (lower, upper) = try bracketed(open, closer: close) { parser throws(Failure) in
                let lower = try parser.parsePredicate()
                _ = try parser.expect(.comma, "','", after: "between the two bounds of 'between'")
                let upper = try parser.parsePredicate()
                return (lower, upper)
            }
            let end = try expect(close, "'\(Self.spelling(of: close))'", after: "after the bounds of 'between'")
            return Expr(.range(lower, upper, .closed), span: start.merged(with: end.span))
        }
        let lower = try parseAdditive()
        guard consumeKeyword("and") != nil else {
            throw fail(
                .error(
                    .expectedToken, "expected 'and' between the bounds of 'between'", at: current.span,
                    notes: [DiagnosticNote("write 'x between 1 and 10' or 'x between {1, 10}'", at: keyword.span)]))
        }
        let upper = try parseAdditive()
        return Expr(.range(lower, upper, .closed), span: lower.span.merged(with: upper.span))
    }

    /// `coalescing ::= range ( "??" coalescing )?`: right-associative, as in Swift.
    mutating func parseCoalescing() throws(Failure) -> Expr {
        let lhs = try parseRange()
        guard current.kind == .questionQuestion else { return lhs }
        let token = advance()
        return try nested(token.span) { parser throws(Failure) in
            let rhs = try parser.parseCoalescing()
            return Expr(.coalesce(lhs, rhs), span: lhs.span.merged(with: rhs.span))
        }
    }

    /// `range ::= additive ( ( "..." | "..<" ) additive )?`
    mutating func parseRange() throws(Failure) -> Expr {
        let lower = try parseAdditive()
        let kind: RangeKind
        switch current.kind {
        case .closedRange: kind = .closed
        case .halfOpenRange: kind = .halfOpen
        default: return lower
        }
        advance()
        let upper = try parseAdditive()
        if current.kind == .closedRange || current.kind == .halfOpenRange {
            throw fail(
                .error(
                    .nonAssociativeOperator,
                    "adjacent operators are in non-associative precedence group 'RangeFormationPrecedence'",
                    at: current.span))
        }
        return Expr(.range(lower, upper, kind), span: lower.span.merged(with: upper.span))
    }

    /// `additive ::= multiplicative ( ( "+" | "-" ) multiplicative )*`
    mutating func parseAdditive() throws(Failure) -> Expr {
        try parseBinaryChain(Self.additiveOperator) { parser throws(Failure) in
            try parser.parseMultiplicative()
        }
    }

    /// `multiplicative ::= prefix ( ( "*" | "/" | "%" ) prefix )*`
    mutating func parseMultiplicative() throws(Failure) -> Expr {
        try parseBinaryChain(Self.multiplicativeOperator) { parser throws(Failure) in
            try parser.parsePrefix()
        }
    }

    private static func additiveOperator(_ kind: TokenKind) -> ArithmeticOperator? {
        switch kind {
        case .plus: .add
        case .minus: .subtract
        case .pipe: .bitwiseOr
        case .caret: .bitwiseXor
        default: nil
        }
    }

    private static func multiplicativeOperator(_ kind: TokenKind) -> ArithmeticOperator? {
        switch kind {
        case .star: .multiply
        case .slash: .divide
        case .percent: .remainder
        case .ampersand: .bitwiseAnd
        default: nil
        }
    }

    /// A left-associative chain. Each fold nests the tree one level deeper, so each counts against the depth limit.
    private mutating func parseBinaryChain(
        _ operators: (TokenKind) -> ArithmeticOperator?, operand: (inout Parser) throws(Failure) -> Expr
    ) throws(Failure) -> Expr {
        var lhs = try operand(&self)
        var levels = 0
        defer { depth -= levels }
        while let op = operators(current.kind) {
            let token = advance()
            try enter(token.span)
            levels += 1
            let rhs = try operand(&self)
            lhs = Expr(.arithmetic(op, lhs, rhs), span: lhs.span.merged(with: rhs.span))
        }
        return lhs
    }

    /// `prefix ::= "-" prefix | postfix`. A minus in front of a number literal folds into it.
    mutating func parsePrefix() throws(Failure) -> Expr {
        if current.kind == .tilde {
            // `~x` is `x ^ -1`: every bit flipped, exactly, for every Int.
            let tilde = advance()
            try enter(tilde.span)
            defer { depth -= 1 }
            let operand = try parsePrefix()
            let allOnes = Expr(.literal(.integer(-1)), span: tilde.span)
            return Expr(.arithmetic(.bitwiseXor, operand, allOnes), span: tilde.span.merged(with: operand.span))
        }
        // Minus signs on a number literal fold into it (no node, no recursion), so they
        // cost no nesting level: `x ^ -1`, the way `~x` prints, then weighs what `~x` does.
        let foldsIntoLiteral = current.kind == .minus && minusesFoldIntoLiteral()
        var minuses: [SourceSpan] = []
        while current.kind == .minus {
            let token = advance()
            if !foldsIntoLiteral { try enter(token.span) }
            minuses.append(token.span)
        }
        defer { if !foldsIntoLiteral { depth -= minuses.count } }
        var expr: Expr
        if let lowest = minuses.last, current.kind == .integer, case .integer(let magnitude) = current.value,
            magnitude == UInt64(Int64.max) + 1, peek().kind != .dot, peek().kind != .questionDot
        {
            // -9223372036854775808 is written as a minus and a magnitude one past Int64.max.
            let token = advance()
            expr = Expr(.literal(.integer(.min)), span: lowest.merged(with: token.span))
            minuses.removeLast()
        } else if current.kind == .tilde {
            expr = try parsePrefix()
        } else {
            expr = try parsePostfix()
        }
        for span in minuses.reversed() {
            expr = Self.negated(expr, minusAt: span)
        }
        return expr
    }

    /// Whether the minus signs from here on end at a number literal that every one of
    /// them folds into (`negated`): a decimal, a duration, or an integer up to
    /// `Int64.max` (the negation of `Int64.min` does not fold), with no member access
    /// after it.
    private func minusesFoldIntoLiteral() -> Bool {
        var offset = 0
        while peek(offset).kind == .minus { offset += 1 }
        let literal = peek(offset)
        let next = peek(offset + 1).kind
        guard next != .dot, next != .questionDot else { return false }
        switch (literal.kind, literal.value) {
        case (.decimal, _), (.duration, _): return true
        case (.integer, .integer(let magnitude)): return magnitude <= UInt64(Int64.max)
        default: return false
        }
    }

    private static func negated(_ expr: Expr, minusAt span: SourceSpan) -> Expr {
        let whole = span.merged(with: expr.span)
        switch expr.kind {
        case .literal(.integer(let value)) where value != .min:
            return Expr(.literal(.integer(-value)), span: whole)
        case .literal(.decimal(let value)):
            return Expr(.literal(.decimal(-value)), span: whole)
        case .literal(.duration(let value, let unit)):
            return Expr(.literal(.duration(-value, unit)), span: whole)
        default:
            return Expr(.negate(expr), span: whole)
        }
    }
}
