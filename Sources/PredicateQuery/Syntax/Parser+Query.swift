// The query form: entity, predicate and the sort / limit / offset clauses.
//
//     query   ::= ENTITY_NAME ( "WHERE" predicate )? clauses | predicate? clauses
//     clauses ::= sortClause? limitClause? offsetClause?
//
// SORT, LIMIT and OFFSET are keywords only where a clause can start, so a model
// with an attribute called `limit` (Budget has one) can still be queried.

extension Parser {
    mutating func parseQuery() throws(Failure) -> Query {
        var query = Query()
        if isAtEntityName() {
            let token = advance()
            query.entity = Name(token.text, span: token.span)
            if consumeKeyword("where") != nil {
                query.predicate = try parseTopLevelPredicate()
            }
        } else if !isAtClauseStart(first: true), current.kind != .end {
            query.predicate = try parseTopLevelPredicate()
        }
        try parseClauses(into: &query)
        return query
    }

    /// Any name followed by `where` names the entity; so does a capitalised or
    /// backticked name followed only by clauses.
    private func isAtEntityName() -> Bool {
        let isName = current.kind == .escapedName || (current.kind == .name && !current.isReservedWord)
        guard isName else { return false }
        let next = peek()
        if next.isKeyword("where") { return true }
        guard current.kind == .escapedName || current.text.first?.isUppercase == true else { return false }
        return next.kind == .end || next.isKeyword("sort") || next.isKeyword("limit") || next.isKeyword("offset")
    }

    /// Whether a clause starts here. Where a predicate could also start (`first`),
    /// `limit` and `offset` must be followed by their count and `sort` by `by`.
    private func isAtClauseStart(first: Bool) -> Bool {
        if current.isKeyword("sort") { return !first || peek().isKeyword("by") }
        if current.isKeyword("limit") || current.isKeyword("offset") {
            return !first || peek().kind == .integer || peek().kind == .parameter
        }
        return false
    }

    /// A predicate that runs to the end or to a clause, with error recovery between `||` operands.
    mutating func parseTopLevelPredicate() throws(Failure) -> Expr {
        try parseRecovering { parser throws(Failure) in try parser.parsePredicate() }
    }

    private mutating func parseClauses(into query: inout Query) throws(Failure) {
        if consumeKeyword("sort") != nil {
            guard consumeKeyword("by") != nil else {
                throw fail(.error(.expectedToken, "expected 'by' after 'sort'", at: current.span))
            }
            query.sortKeys = try parseSortKeyList()
        }
        if let keyword = consumeKeyword("limit") {
            query.limit = try parseCount(after: keyword)
        }
        if let keyword = consumeKeyword("offset") {
            query.offset = try parseCount(after: keyword)
        }
    }

    /// `sortKey ( "," sortKey )*`
    mutating func parseSortKeyList() throws(Failure) -> [SortKey] {
        var keys = [try parseSortKey()]
        while consume(.comma) != nil {
            keys.append(try parseSortKey())
        }
        return keys
    }

    /// `keyPath modifier? sortDirection?`
    private mutating func parseSortKey() throws(Failure) -> SortKey {
        let start = current.span
        let path = try parseSortKeyPath()
        let options = try parseModifier() ?? []
        var ascending = true
        var end = tokens[index - 1].span
        for (word, isAscending) in Keywords.sortDirections {
            if let token = consumeKeyword(word) {
                ascending = isAscending
                end = token.span
                break
            }
        }
        return SortKey(path, ascending: ascending, options: options, span: start.merged(with: end))
    }

    /// A key path alone: `name`, `budget.name`, `budget?.name`.
    private mutating func parseSortKeyPath() throws(Failure) -> PropertyPath {
        let expr = try parsePostfix()
        guard case .keyPath(let path) = expr.kind else {
            throw fail(.error(.expectedToken, "expected a key path to sort by", at: expr.span))
        }
        return path
    }

    /// The non-negative integer or parameter after `limit` / `offset`.
    private mutating func parseCount(after keyword: Token) throws(Failure) -> QueryCount {
        let token = current
        switch token.kind {
        case .integer:
            advance()
            guard case .integer(let magnitude) = token.value, magnitude <= UInt64(Int64.max) else {
                throw fail(.error(.integerLiteralOverflow, "integer literal overflows a 64-bit integer", at: token.span))
            }
            return QueryCount(.literal(Int64(magnitude)), span: token.span)
        case .parameter:
            advance()
            return QueryCount(.parameter(token.text), span: token.span)
        default:
            throw fail(
                .error(
                    .expectedCount,
                    "expected a non-negative integer or a parameter after '\(keyword.text)'",
                    at: token.span))
        }
    }
}
