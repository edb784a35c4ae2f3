// Habits from SQL, met with help (issue 27): a query typed as a SQL statement, and
// a misspelled keyword or operator.
//
// `SELECT * FROM Budget WHERE limit > 100` is one error, "pq is not SQL", over
// `SELECT … FROM Budget`, and, for the simplest statements (one table; WHERE,
// ORDER BY, LIMIT and OFFSET), a note with the pq query: `Budget where limit > 100`.
// Only the words around the condition change; the condition is the user's text
// as typed (pq reads `=`, `<>`, `AND`, `OR`, `NOT` too), so a `like '%x%'` in it
// gets the checker's own warning when the pq form is run. A trailing `;` is
// allowed for, since a SQL habit ends statements with one.
//
// A word where an operator or a clause could follow (`name contians 'x'`, `srot
// by`) gets "did you mean 'contains'?", as a misspelled property does.

extension Parser {
    /// The diagnostic for query text that is a SQL `SELECT` statement; nil for anything else.
    static func sqlStatement(in text: String, limits: Limits) -> Diagnostic? {
        guard mayStartWithSelect(text) else { return nil }
        let trimmed = text.drop { $0.isWhitespace }
        guard trimmed.prefix(6).lowercased() == "select" else { return nil }
        // Lexed without a final `;` (pq has no such token), at the same offsets.
        var source = text
        if let semicolon = source.lastIndex(where: { !$0.isWhitespace }), source[semicolon] == ";" {
            source.replaceSubrange(semicolon...semicolon, with: " ")
        }
        var lexer = Lexer(source, limits: limits)
        let tokens = lexer.tokenize()
        guard lexer.diagnostics.isEmpty, !lexer.deadlinePassed, tokens.count >= 4, tokens[0].isKeyword("select"),
            let from = tokens.firstIndex(where: { $0.isKeyword("from") }), from >= 2, from + 1 < tokens.count,
            [.name, .escapedName, .string].contains(tokens[from + 1].kind)
        else { return nil }
        let table = tokens[from + 1]
        let span = tokens[0].span.merged(with: table.span)
        var notes: [DiagnosticNote] = []
        let columns = tokens[1..<from]
        // `count(*)`: four tokens.
        let countsRows =
            columns.count == 4 && columns.first?.isKeyword("count") == true && columns.dropFirst().first?.kind == .leftParen
        if let query = pqForm(tokens, table: from + 1, source: source) {
            notes.append(DiagnosticNote(countsRows ? "in pq: pq --count '\(query)'" : "in pq: \(query)"))
        } else {
            notes.append(
                DiagnosticNote("a pq query is an entity, 'where', a condition, then 'sort by', 'limit' and 'offset'"))
        }
        if !countsRows, !(columns.count == 1 && columns.first?.kind == .star) {
            notes.append(DiagnosticNote("pq fetches whole objects; choose the columns to show with --columns (or .columns)"))
        }
        return .error(
            .sqlStatement, "pq is not SQL: name the entity, then 'where' and the condition", at: span, notes: notes)
    }

    /// False when `text` surely does not start with `select` after its white space: past
    /// ASCII white space, its first six bytes are ASCII and are not `select` in any case.
    /// Every query is asked (and many entities start with an S), so this reads bytes;
    /// text with a byte past ASCII before that point is left to the Character test.
    private static func mayStartWithSelect(_ text: String) -> Bool {
        let select: StaticString = "select"
        var matched = 0
        for byte in text.utf8 {
            // Unicode white space, or a letter that may fold to ASCII: the Character test decides.
            if byte >= 0x80 { return true }
            if matched == 0, byte == 0x20 || (0x09...0x0D).contains(byte) { continue }
            if matched == select.utf8CodeUnitCount { return true }
            // `| 0x20` lowercases an ASCII letter and maps no other byte onto one of these letters.
            guard byte | 0x20 == select.utf8Start[matched] else { return false }
            matched += 1
        }
        return matched == select.utf8CodeUnitCount
    }

    /// `Entity [where condition] [sort by …] [limit n] [offset m]` for a one-table
    /// statement whose clauses pq has; nil for joins, grouping and anything else.
    private static func pqForm(_ tokens: [Token], table: Int, source: String) -> String? {
        let entity = tokens[table]
        let name = entity.kind == .string ? stringValue(entity) : entity.text
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else { return nil }
        let sqlOnly: Set<String> = ["join", "group", "having", "union", "from", "select", "distinct", "as"]
        var result = name
        var index = table + 1
        var clauseStart: Int?
        func flushCondition(upTo end: Int) {
            guard let start = clauseStart, start < end else { return }
            result += " " + pqCondition(tokens[start..<end], in: source)
            clauseStart = nil
        }
        while index < tokens.count, tokens[index].kind != .end {
            let token = tokens[index]
            if token.kind == .name, sqlOnly.contains(token.text.lowercased()) { return nil }
            if token.isKeyword("where"), clauseStart == nil, result == name {
                result += " where"
                clauseStart = index + 1
            } else if token.isKeyword("order"), index + 1 < tokens.count, tokens[index + 1].isKeyword("by") {
                flushCondition(upTo: index)
                result += " sort by"
                index += 1
                clauseStart = index + 1
            } else if token.isKeyword("limit") || token.isKeyword("offset"),
                index + 1 < tokens.count, tokens[index + 1].kind == .integer
            {
                // A clause only before its count: `WHERE limit > 100` is Budget's attribute.
                flushCondition(upTo: index)
                clauseStart = index
            } else if clauseStart == nil {
                return nil
            }
            index += 1
        }
        flushCondition(upTo: index)
        return result.hasSuffix(" where") || result.hasSuffix(" sort by") ? nil : result
    }

    /// A SQL condition's text in pq's words where SQL's differ: `x IS NULL` is
    /// `x == nil`, `x IS NOT NULL` is `x != nil`, `x IN ('a', 'b')` is
    /// `x in ['a', 'b']`, and a `LIKE` pattern's `%` and `_` are `*` and `?` (when
    /// it has neither `*` nor `?`, nor a backslash). The rest is the user's text as
    /// typed (pq reads `=`, `<>`, `AND`, `OR`, `NOT` too).
    private static func pqCondition(_ tokens: ArraySlice<Token>, in source: String) -> String {
        let bytes = Array(source.utf8)
        guard let first = tokens.first, let last = tokens.last, first.span.start <= last.span.end,
            last.span.end <= bytes.count
        else { return "" }
        var result = ""
        var position = first.span.start
        var closers: Set<Int> = []
        var index = tokens.startIndex
        func emit(_ replacement: String, through end: Int) {
            result += String(decoding: bytes[position..<tokens[index].span.start], as: UTF8.self) + replacement
            position = tokens[end].span.end
            index = end + 1
        }
        while index < tokens.endIndex {
            let token = tokens[index]
            let next = index + 1 < tokens.endIndex ? tokens[index + 1] : nil
            let afterNext = index + 2 < tokens.endIndex ? tokens[index + 2] : nil
            if token.isKeyword("is"), next?.isKeyword("null") == true {
                emit("== nil", through: index + 1)
            } else if token.isKeyword("is"), next?.isKeyword("not") == true, afterNext?.isKeyword("null") == true {
                emit("!= nil", through: index + 2)
            } else if token.isKeyword("in"), next?.kind == .leftParen, let close = matchingParenthesis(tokens, from: index + 1) {
                closers.insert(close)
                emit("in [", through: index + 1)
            } else if closers.contains(index) {
                emit("]", through: index)
            } else if token.isKeyword("like"), let pattern = next, pattern.kind == .string,
                let translated = pqPattern(stringValue(pattern))
            {
                emit("like " + Printer.quoted(translated, delimiter: "'"), through: index + 1)
            } else {
                index += 1
            }
        }
        return result + String(decoding: bytes[position..<last.span.end], as: UTF8.self)
    }

    /// A SQL `LIKE` pattern with pq's wildcards: `%` as `*`, `_` as `?`; nil when it
    /// has neither, or already holds `*`, `?` or a backslash (left as typed).
    private static func pqPattern(_ sql: String) -> String? {
        guard !sql.contains(where: { "*?\\".contains($0) }), sql.contains(where: { "%_".contains($0) }) else { return nil }
        return String(sql.map { $0 == "%" ? "*" : $0 == "_" ? "?" : $0 })
    }

    /// The index of the `)` that closes the `(` at `open`, in `tokens`; nil if none does.
    private static func matchingParenthesis(_ tokens: ArraySlice<Token>, from open: Int) -> Int? {
        var depth = 0
        for index in open..<tokens.endIndex {
            if tokens[index].kind == .leftParen { depth += 1 }
            if tokens[index].kind == .rightParen {
                depth -= 1
                if depth == 0 { return index }
            }
        }
        return nil
    }

    private static func stringValue(_ token: Token) -> String {
        if case .string(let value) = token.value { return value }
        return ""
    }

    // MARK: - Misspelled keywords

    /// Spellings from SQL and Swift that pq writes another way.
    static let operatorAliases: [String: String] = [
        "ilike": "like[c]", "startswith": "beginswith", "hasprefix": "beginswith", "hassuffix": "endswith",
        "is": "==", "regexp": "matches", "order": "sort by",
    ]

    /// "did you mean 'contains'?" for a word that stands where an operator or a clause could.
    static func operatorSuggestion(for token: Token) -> DiagnosticNote? {
        guard token.kind == .name else { return nil }
        let word = token.text
        if let alias = operatorAliases[word.lowercased()] { return DiagnosticNote("did you mean '\(alias)'?") }
        guard word.count >= 4 else { return nil }
        return NameSuggestion.note(for: word, among: Keywords.operatorWords)
    }
}
