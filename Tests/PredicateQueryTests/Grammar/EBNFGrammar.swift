// A reader for the W3C-style EBNF of Grammar/pq.ebnf, and the grammar it produces.
//
// The notation is the one described in the header comment of pq.ebnf: productions
// `name ::= expression`, a production ending where the next `name ::=` begins;
// `/* … */` comments; terminals in "…" or '…' with no escapes; character classes
// `[a-z]` and `[^'\\]`, where a backslash takes the next character literally;
// sequence, `|`, `( )`, postfix `? * +`, and exclusion `a - b`, which binds tighter
// than sequence. Syntax errors are thrown as `EBNFSyntaxError` with a line and
// column; `EBNFGrammar.problems` lists undefined, duplicate and unreachable names.
// The tests turn both into test failures, never crashes.

/// One expression of the EBNF notation.
indirect enum GrammarExpr: Hashable, Sendable {
    /// A quoted terminal, without its quotes.
    case terminal(String)
    case characterClass(CharacterClass)
    /// A reference to the production of that name.
    case reference(String)
    case sequence([GrammarExpr])
    case choice([GrammarExpr])
    case optional(GrammarExpr)
    case zeroOrMore(GrammarExpr)
    case oneOrMore(GrammarExpr)
    /// `a - b`: an `a` that is not also a `b`.
    case exclusion(GrammarExpr, GrammarExpr)

    /// The expressions directly inside this one.
    var children: [GrammarExpr] {
        switch self {
        case .terminal, .characterClass, .reference: []
        case .sequence(let items), .choice(let items): items
        case .optional(let inner), .zeroOrMore(let inner), .oneOrMore(let inner): [inner]
        case .exclusion(let base, let excluded): [base, excluded]
        }
    }

    /// The names of the productions this expression refers to, exclusions included.
    var references: [String] {
        if case .reference(let name) = self { return [name] }
        return children.flatMap(\.references)
    }

    /// Every quoted terminal in this expression.
    var terminals: [String] {
        if case .terminal(let text) = self { return [text] }
        return children.flatMap(\.terminals)
    }
}

/// A character class such as `[A-Za-z_]`, or a negated one such as `[^'\\]`.
struct CharacterClass: Hashable, Sendable {
    var isNegated: Bool
    var ranges: [ClosedRange<Unicode.Scalar>]

    func contains(_ scalar: Unicode.Scalar) -> Bool {
        ranges.contains { $0.contains(scalar) } != isNegated
    }
}

/// One production, `name ::= expression`, and the line it starts on.
struct GrammarProduction: Sendable {
    var name: String
    var expr: GrammarExpr
    var line: Int
}

/// A grammar read from an EBNF file.
struct EBNFGrammar: Sendable {
    /// The productions in file order.
    var productions: [GrammarProduction]
    /// The expression of each production, by name (the first, if one is defined twice).
    var rules: [String: GrammarExpr]

    init(productions: [GrammarProduction]) {
        self.productions = productions
        self.rules = Dictionary(productions.map { ($0.name, $0.expr) }, uniquingKeysWith: { first, _ in first })
    }

    /// Reads a grammar from EBNF text.
    init(parsing text: String) throws(EBNFSyntaxError) {
        var reader = EBNFReader(text)
        self.init(productions: try reader.readProductions())
    }

    /// Productions in UPPER_SNAKE_CASE are lexical: their parts form one token.
    static func isLexical(_ name: String) -> Bool {
        name.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
    }

    /// Productions in lowerCamelCase are syntactic: their tokens are separated by whitespace.
    static func isSyntactic(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, ("a"..."z").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) }
    }

    /// A terminal with capital letters and no lower-case ones is a keyword, matched in any case.
    static func isKeyword(_ terminal: String) -> Bool {
        terminal.unicodeScalars.contains { ("A"..."Z").contains($0) }
            && !terminal.unicodeScalars.contains { ("a"..."z").contains($0) }
    }

    /// The names reachable from `start`, `start` included, following every reference.
    func reachable(from start: String) -> Set<String> {
        var seen: Set<String> = [start]
        var pending = [start]
        while let name = pending.popLast() {
            for next in rules[name]?.references ?? [] where seen.insert(next).inserted {
                pending.append(next)
            }
        }
        return seen
    }

    /// Everything wrong with the grammar as a whole, one sentence each: names defined
    /// twice, references to undefined names, names that are neither lexical nor
    /// syntactic, and productions not reachable from `start`.
    func problems(start: String) -> [String] {
        var problems: [String] = []
        var lines: [String: Int] = [:]
        for production in productions {
            if let first = lines[production.name] {
                problems.append("'\(production.name)' is defined twice, on lines \(first) and \(production.line)")
            }
            if lines[production.name] == nil { lines[production.name] = production.line }
            if !Self.isLexical(production.name), !Self.isSyntactic(production.name) {
                problems.append("'\(production.name)' (line \(production.line)) is neither UPPER_SNAKE_CASE nor lowerCamelCase")
            }
            for name in Set(production.expr.references) where rules[name] == nil {
                problems.append("'\(production.name)' (line \(production.line)) refers to undefined production '\(name)'")
            }
        }
        if rules[start] == nil { problems.append("there is no start production '\(start)'") }
        let reachable = reachable(from: start)
        for production in productions where !reachable.contains(production.name) {
            problems.append("'\(production.name)' (line \(production.line)) is not reachable from '\(start)'")
        }
        return problems
    }
}

/// A syntax error in an EBNF file, with its position.
struct EBNFSyntaxError: Error, CustomStringConvertible {
    var message: String
    var line: Int
    var column: Int

    var description: String { "pq.ebnf:\(line):\(column): \(message)" }
}

/// Reads EBNF text into productions by recursive descent over Unicode scalars.
struct EBNFReader {
    private let scalars: [Unicode.Scalar]
    private var position = 0

    init(_ text: String) {
        scalars = Array(text.unicodeScalars)
    }

    /// `file ::= ( name "::=" expression )*`
    mutating func readProductions() throws(EBNFSyntaxError) -> [GrammarProduction] {
        var productions: [GrammarProduction] = []
        try skipTrivia()
        while position < scalars.count {
            let line = lineAndColumn(position).line
            guard let name = readName() else { throw error("expected a production name") }
            try skipTrivia()
            guard consume("::=") else { throw error("expected '::=' after '\(name)'") }
            let expr = try readChoice()
            productions.append(GrammarProduction(name: name, expr: expr, line: line))
        }
        return productions
    }

    /// `choice ::= sequence ( "|" sequence )*`
    private mutating func readChoice() throws(EBNFSyntaxError) -> GrammarExpr {
        var alternatives = [try readSequence()]
        while consume("|") {
            alternatives.append(try readSequence())
        }
        return alternatives.count == 1 ? alternatives[0] : .choice(alternatives)
    }

    /// A sequence runs until `|`, `)`, the end, or the start of the next production.
    private mutating func readSequence() throws(EBNFSyntaxError) -> GrammarExpr {
        var items: [GrammarExpr] = []
        while true {
            try skipTrivia()
            guard let next = peek(), next != "|", next != ")", !isAtProductionStart() else { break }
            items.append(try readExclusion())
        }
        guard !items.isEmpty else { throw error("expected an expression") }
        return items.count == 1 ? items[0] : .sequence(items)
    }

    /// `exclusion ::= postfixed ( "-" postfixed )?`
    private mutating func readExclusion() throws(EBNFSyntaxError) -> GrammarExpr {
        let base = try readPostfixed()
        try skipTrivia()
        guard consume("-") else { return base }
        try skipTrivia()
        return .exclusion(base, try readPostfixed())
    }

    /// `postfixed ::= primary ( "?" | "*" | "+" )*`
    private mutating func readPostfixed() throws(EBNFSyntaxError) -> GrammarExpr {
        var expr = try readPrimary()
        while let next = peek(), "?*+".unicodeScalars.contains(next) {
            position += 1
            expr = next == "?" ? .optional(expr) : next == "*" ? .zeroOrMore(expr) : .oneOrMore(expr)
        }
        return expr
    }

    private mutating func readPrimary() throws(EBNFSyntaxError) -> GrammarExpr {
        guard let first = peek() else { throw error("expected an expression, found the end of the file") }
        switch first {
        case "\"", "'":
            let start = position
            position += 1
            guard let end = scalars[position...].firstIndex(where: { $0 == first || $0 == "\n" }),
                scalars[end] == first
            else {
                position = start
                throw error("unterminated terminal (a terminal ends on the line it starts)")
            }
            let text = String(String.UnicodeScalarView(scalars[position..<end]))
            position = end + 1
            guard !text.isEmpty else { throw error("empty terminal") }
            return .terminal(text)
        case "[":
            return .characterClass(try readClass())
        case "(":
            let (line, column) = lineAndColumn(position)
            position += 1
            let inner = try readChoice()
            try skipTrivia()
            guard consume(")") else { throw error("expected ')' to match the '(' at \(line):\(column)") }
            return inner
        default:
            guard let name = readName() else { throw error("unexpected character '\(first)'") }
            return .reference(name)
        }
    }

    /// `[…]` or `[^…]`; a backslash takes the next character literally.
    private mutating func readClass() throws(EBNFSyntaxError) -> CharacterClass {
        let start = position
        position += 1
        var result = CharacterClass(isNegated: consume("^"), ranges: [])
        while let scalar = nextClassCharacter() {
            var upper = scalar
            if peek() == "-", position + 1 < scalars.count, scalars[position + 1] != "]" {
                position += 1
                guard let end = nextClassCharacter(), end >= scalar else {
                    throw error("bad range in character class")
                }
                upper = end
            }
            result.ranges.append(scalar...upper)
        }
        guard consume("]") else {
            position = start
            throw error("unterminated character class (a class ends on the line it starts)")
        }
        guard !result.ranges.isEmpty else { throw error("empty character class") }
        return result
    }

    /// The next character of a class, or nil at `]`, a line break or the end.
    private mutating func nextClassCharacter() -> Unicode.Scalar? {
        guard let scalar = peek(), scalar != "]", scalar != "\n" else { return nil }
        position += 1
        guard scalar == "\\", let escaped = peek() else { return scalar }
        position += 1
        return escaped
    }

    // MARK: - Lexical helpers

    private func peek() -> Unicode.Scalar? {
        position < scalars.count ? scalars[position] : nil
    }

    private static func isNameScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_")
    }

    private mutating func readName() -> String? {
        let start = position
        while let scalar = peek(), Self.isNameScalar(scalar) { position += 1 }
        return position > start ? String(String.UnicodeScalarView(scalars[start..<position])) : nil
    }

    /// Whether a name followed by `::=` starts here; does not move.
    private mutating func isAtProductionStart() -> Bool {
        let saved = position
        defer { position = saved }
        guard readName() != nil else { return false }
        do { try skipTrivia() } catch { return false }
        return consume("::=")
    }

    private mutating func consume(_ text: String) -> Bool {
        let expected = Array(text.unicodeScalars)
        guard position + expected.count <= scalars.count,
            Array(scalars[position..<position + expected.count]) == expected
        else { return false }
        position += expected.count
        return true
    }

    /// Skips whitespace and `/* … */` comments.
    private mutating func skipTrivia() throws(EBNFSyntaxError) {
        while let scalar = peek() {
            if scalar.properties.isWhitespace {
                position += 1
            } else if consume("/*") {
                let start = position - 2
                var closed = false
                while position < scalars.count, !closed {
                    closed = consume("*/")
                    if !closed { position += 1 }
                }
                guard closed else {
                    position = start
                    throw error("unterminated comment")
                }
            } else {
                return
            }
        }
    }

    private func lineAndColumn(_ offset: Int) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        for scalar in scalars[..<min(offset, scalars.count)] {
            if scalar == "\n" { line += 1; column = 1 } else { column += 1 }
        }
        return (line, column)
    }

    private func error(_ message: String) -> EBNFSyntaxError {
        let (line, column) = lineAndColumn(position)
        return EBNFSyntaxError(message: message, line: line, column: column)
    }
}
