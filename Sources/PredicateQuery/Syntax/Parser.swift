// The parser: tokens to a syntax tree, one method per production of
// Grammar/pq.ebnf.
//
// Hand-written recursive descent. Three rules keep it safe on hostile input:
// - every loop consumes a token or ends (`advance` is the only way forward);
// - every level of nesting goes through `nested`, which stops at
//   `Limits.maxNestingDepth` with a `limit.nestingDepth` diagnostic, so recursion
//   depth is bounded whatever the input;
// - prefix operators and operator chains are gathered in loops, not by recursion.
// After a syntax error in one operand of `&&` / `||`, the parser skips to the next
// such operator and goes on, so several mistakes are reported in one run.
// A service's deadline (`Limits.deadline`) is honoured here too: the lexer and
// `advance` read the clock every 1,024 tokens, and past the deadline the parser
// jumps to the end of the input, so every loop ends, and reports only that.

/// Parses query text into a `Query`.
public struct Parser {
    var tokens: [Token]
    var index = 0
    let limits: Limits
    var depth = 0
    var diagnostics: [Diagnostic] = []
    /// Names bound by enclosing closures and SUBQUERYs, innermost last.
    var scopes: [Binding] = []
    /// The closing brackets that enclosing constructs are waiting for, innermost last;
    /// error recovery stops at one of these and skips any other.
    var closers: [TokenKind] = []
    /// Tokens consumed, for reading the clock every 1,024 of them.
    var consumed = 0
    /// Whether `Limits.deadline` passed while parsing, and where.
    var deadlinePassed = false
    var deadlineOffset = 0

    /// A variable bound by a closure or SUBQUERY, and how it is referred to.
    struct Binding {
        var name: String
        /// `$0` and SUBQUERY variables are written with `$`; `t in` variables without.
        var isDollar: Bool
    }

    /// Why parsing of the current operand stopped.
    enum Failure: Error {
        /// A syntax error; the caller may skip ahead and go on.
        case recoverable
        /// A limit was exceeded; parsing stops.
        case fatal
    }

    /// The most diagnostics reported for one input before parsing stops.
    static let maxDiagnostics = 50

    init(tokens: [Token], limits: Limits) {
        self.tokens = tokens
        self.limits = limits
    }

    /// The result of parsing: a query if there were no errors, and every diagnostic.
    public struct Result: Sendable {
        /// The query, or nil when the text has errors.
        public var query: Query?
        /// Every error and warning, in source order.
        public var diagnostics: [Diagnostic]
    }

    /// Parses a whole query: `[Entity where] predicate [sort by …] [limit n] [offset m]`.
    public static func parse(_ text: String, limits: Limits = .standard) -> Result {
        if text.utf8.count <= limits.maxInputLength, let sql = sqlStatement(in: text, limits: limits) {
            return Result(query: nil, diagnostics: [sql])
        }
        return run(text, limits: limits) { parser throws(Failure) in try parser.parseQuery() }
    }

    /// Parses a predicate alone, with no entity or clauses.
    public static func parsePredicate(_ text: String, limits: Limits = .standard) -> Result {
        run(text, limits: limits) { parser throws(Failure) in
            Query(predicate: try parser.parseTopLevelPredicate())
        }
    }

    /// Parses a comma-separated list of sort keys, as given to `--sort`: `name desc, age`.
    public static func parseSortKeys(_ text: String, limits: Limits = .standard) -> Result {
        run(text, limits: limits) { parser throws(Failure) in
            Query(sortKeys: try parser.parseSortKeyList())
        }
    }

    private static func run(_ text: String, limits: Limits, _ body: (inout Parser) throws(Failure) -> Query) -> Result {
        let length = text.utf8.count
        guard length <= limits.maxInputLength else {
            return Result(
                query: nil,
                diagnostics: [
                    .error(
                        .inputTooLong,
                        "query is \(length) bytes long; the limit is \(limits.maxInputLength) bytes",
                        at: SourceSpan(start: 0, end: min(length, 1)))
                ])
        }
        if let deadline = limits.deadline, ContinuousClock.now >= deadline {
            return Result(query: nil, diagnostics: [deadlineError(at: .point(0))])
        }
        var lexer = Lexer(text, limits: limits)
        let tokens = lexer.tokenize()
        if lexer.deadlinePassed {
            return Result(query: nil, diagnostics: [deadlineError(at: .point(tokens.last?.span.start ?? 0))])
        }
        guard lexer.diagnostics.isEmpty else {
            return Result(query: nil, diagnostics: lexer.diagnostics)
        }
        var parser = Parser(tokens: tokens, limits: limits)
        var query: Query?
        do {
            query = try body(&parser)
            let alreadyReported = parser.diagnostics.contains { $0.span.start == parser.current.span.start }
            if parser.current.kind != .end, !alreadyReported {
                parser.reportUnexpected()
            }
        } catch {
            query = nil
        }
        if parser.deadlinePassed {
            return Result(query: nil, diagnostics: [deadlineError(at: .point(parser.deadlineOffset))])
        }
        let failed = parser.diagnostics.containsErrors
        return Result(query: failed ? nil : query, diagnostics: parser.diagnostics)
    }

    // MARK: - Tokens

    var current: Token { tokens[index] }

    func peek(_ offset: Int = 1) -> Token {
        tokens[min(index + offset, tokens.count - 1)]
    }

    /// Consumes the current token and returns it. At the end, stays put.
    ///
    /// Always inlined, so that where the token is not used (most calls) it is not copied
    /// either: a copy retains and releases its strings.
    @inline(__always) @discardableResult
    mutating func advance() -> Token {
        let token = tokens[index]
        moveOn()
        return token
    }

    /// Moves past the current token, and notices when the parse is out of time.
    private mutating func moveOn() {
        let start = tokens[index].span.start
        if index < tokens.count - 1 { index += 1 }
        consumed += 1
        if consumed % 1024 == 0, !deadlinePassed, let deadline = limits.deadline, ContinuousClock.now >= deadline {
            // Out of time: on to the end of the input, where every loop stops.
            deadlinePassed = true
            deadlineOffset = start
            index = tokens.count - 1
        }
    }

    /// The error of a parse that ran past `Limits.deadline`.
    static func deadlineError(at span: SourceSpan) -> Diagnostic {
        .error(.deadlinePassed, "parsing the query took longer than its time budget allows", at: span)
    }

    /// Consumes the current token if it has `kind`.
    mutating func consume(_ kind: TokenKind) -> Token? {
        current.kind == kind ? advance() : nil
    }

    /// Consumes the current token if it is the keyword `word` (any case).
    mutating func consumeKeyword(_ word: String) -> Token? {
        current.isKeyword(word) ? advance() : nil
    }

    /// Consumes a token of `kind` or reports what was expected.
    mutating func expect(_ kind: TokenKind, _ description: String, after context: String? = nil) throws(Failure) -> Token {
        if let token = consume(kind) { return token }
        let suffix = context.map { " \($0)" } ?? ""
        throw fail(.error(.expectedToken, "expected \(description)\(suffix)", at: current.span))
    }

    // MARK: - Diagnostics and limits

    /// Records a diagnostic and returns the failure to throw.
    mutating func fail(_ diagnostic: Diagnostic) -> Failure {
        Self.append(diagnostic, to: &diagnostics)
        return diagnostics.count >= Self.maxDiagnostics ? .fatal : .recoverable
    }

    /// Appends `diagnostic` unless `maxDiagnostics` are already there; the one that
    /// reaches the limit gets a note that pq stops there.
    static func append(_ diagnostic: Diagnostic, to diagnostics: inout [Diagnostic]) {
        guard diagnostics.count < maxDiagnostics else { return }
        var diagnostic = diagnostic
        if diagnostics.count == maxDiagnostics - 1 {
            diagnostic.notes.append(DiagnosticNote("too many errors; pq stops after \(maxDiagnostics)"))
        }
        diagnostics.append(diagnostic)
    }

    mutating func reportUnexpected() {
        let token = current
        let what = Self.describe(token)
        var notes: [DiagnosticNote] = []
        if token.isKeyword("limit") || token.isKeyword("sort") {
            notes.append(DiagnosticNote("clauses go in the order: sort by, limit, offset"))
        } else if let suggestion = Self.operatorSuggestion(for: token) {
            notes.append(suggestion)
        }
        _ = fail(.error(.unexpectedToken, "unexpected \(what) after the end of the query", at: token.span, notes: notes))
    }

    /// Runs `body` between an opening bracket (already consumed) and its closer:
    /// `levels` nesting levels deeper (one, unless the bracket's level was taken
    /// already), with the closer known to error recovery.
    mutating func bracketed<T>(
        _ open: Token, closer: TokenKind, levels: Int = 1, _ body: (inout Parser) throws(Failure) -> T
    ) throws(Failure) -> T {
        closers.append(closer)
        defer { closers.removeLast() }
        return try nested(open.span, levels: levels, body)
    }

    /// Runs `body` one nesting level deeper, stopping at the depth limit.
    mutating func nested<T>(_ span: SourceSpan, levels: Int = 1, _ body: (inout Parser) throws(Failure) -> T) throws(Failure) -> T
    {
        try enter(span, levels: levels)
        defer { depth -= levels }
        return try body(&self)
    }

    /// Adds nesting levels without leaving them; the caller restores `depth`.
    mutating func enter(_ span: SourceSpan, levels: Int = 1) throws(Failure) {
        depth += levels
        guard depth <= limits.maxNestingDepth else {
            depth -= levels
            diagnostics.append(
                .error(
                    .nestingTooDeep,
                    "expression is nested too deeply; the limit is \(limits.maxNestingDepth) levels",
                    at: span))
            throw .fatal
        }
    }

    /// A short description of a token for messages: `'=='`, `name 'foo'`, `end of input`.
    static func describe(_ token: Token) -> String {
        switch token.kind {
        case .end: return "end of input"
        case .name: return "'\(token.text)'"
        case .escapedName: return "'`\(token.text)`'"
        case .parameter: return "'$\(token.text)'"
        case .collectionOperator: return "'@\(token.text)'"
        case .integer, .decimal, .duration: return "number"
        case .string: return "string literal"
        default: return "'\(spelling(of: token.kind))'"
        }
    }

    static func spelling(of kind: TokenKind) -> String {
        switch kind {
        case .leftParen: "("
        case .rightParen: ")"
        case .leftBracket: "["
        case .rightBracket: "]"
        case .leftBrace: "{"
        case .rightBrace: "}"
        case .comma: ","
        case .colon: ":"
        case .dot: "."
        case .questionDot: "?."
        case .questionQuestion: "??"
        case .equal: "=="
        case .notEqual: "!="
        case .less: "<"
        case .lessEqual: "<="
        case .greater: ">"
        case .greaterEqual: ">="
        case .and: "&&"
        case .or: "||"
        case .bang: "!"
        case .plus: "+"
        case .minus: "-"
        case .star: "*"
        case .slash: "/"
        case .percent: "%"
        case .ampersand: "&"
        case .pipe: "|"
        case .caret: "^"
        case .tilde: "~"
        case .closedRange: "..."
        case .halfOpenRange: "..<"
        default: "\(kind)"
        }
    }

    /// Whether `text` is a reserved word (`Keywords.reserved`), in any case.
    public static func isReserved(_ text: String) -> Bool {
        Keywords.reserved.contains(text.lowercased())
    }
}
