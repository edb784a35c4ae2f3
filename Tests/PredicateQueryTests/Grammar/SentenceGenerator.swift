// Random sentences from an EBNF grammar, for holding the parser to Grammar/pq.ebnf.
//
// The generator follows the notation's rules: UPPER_SNAKE_CASE productions spell one
// token (their parts concatenate), lowerCamelCase productions emit tokens separated
// by one space, and keywords (terminals with capitals and no lower-case letters) come
// out in a random mix of case. Recursion is bounded: the deeper the derivation, the
// likelier (past `depthBudget`, certain) that only alternatives whose minimal
// derivation depth still fits are taken and that repetitions stop; repetitions are
// capped at three. A seeded SplitMix64 makes every run the same.
//
// The prose of pq.ebnf adds a few rules the EBNF cannot say; they live in
// `ProseRules` below, each quoting the sentence of the grammar it enforces.
import PredicateQueryTestSupport

/// Generates random sentences of a grammar, deterministically from a seed.
struct SentenceGenerator {
    let grammar: EBNFGrammar
    /// Nested productions (every production counts; one parenthesised predicate costs
    /// about twelve) after which recursion winds down.
    var depthBudget = 20
    /// Extra depth allowed past the budget, enough for a varied leaf (a number, a string).
    var leafRoom = 6
    /// How often a name-like token is taken from the grammar's own words (`limit`, `count`, …).
    var grammarWordRate = 0.25
    private var random: SplitMix64
    private let matcher: LanguageMatcher
    private let depths: [String: Int]
    private let grammarWords: [String: [String]]
    /// The characters each character class of the grammar may produce.
    private let classCharacters: [CharacterClass: [Unicode.Scalar]]
    private let maxRetries = 100
    /// Printable characters a negated class picks from: ASCII and a few others.
    private static let sample: [Unicode.Scalar] =
        (0x20...0x7E).compactMap(Unicode.Scalar.init) + ["é", "ß", "ñ", "Ω", "中", "😀"]

    init(grammar: EBNFGrammar, seed: UInt64) {
        self.grammar = grammar
        random = SplitMix64(seed: seed)
        let matcher = LanguageMatcher(grammar: grammar)
        self.matcher = matcher
        depths = Self.minimalDepths(grammar)
        let words = Set(grammar.productions.flatMap(\.expr.terminals))
            .filter { $0.unicodeScalars.first?.properties.isAlphabetic == true }.sorted()
        var byProduction: [String: [String]] = [:]
        for production in grammar.productions where EBNFGrammar.isLexical(production.name) {
            let fitting = words.filter { matcher.matches(production.expr, $0) }
            if !fitting.isEmpty { byProduction[production.name] = fitting }
        }
        grammarWords = byProduction
        var classes: [CharacterClass: [Unicode.Scalar]] = [:]
        var pending = grammar.productions.map(\.expr)
        while let expr = pending.popLast() {
            pending += expr.children
            guard case .characterClass(let characterClass) = expr else { continue }
            classes[characterClass] =
                characterClass.isNegated
                ? Self.sample.filter(characterClass.contains)
                : characterClass.ranges.flatMap { ($0.lowerBound.value...$0.upperBound.value).compactMap(Unicode.Scalar.init) }
        }
        classCharacters = classes
    }

    /// The least number of nested productions needed to derive each production, by fixpoint.
    /// A production missing from the result cannot derive any finite sentence.
    static func minimalDepths(_ grammar: EBNFGrammar) -> [String: Int] {
        var depths: [String: Int] = [:]
        var changed = true
        while changed {
            changed = false
            for production in grammar.productions {
                guard let depth = minimalDepth(of: production.expr, depths) else { continue }
                if depth + 1 < depths[production.name] ?? .max {
                    depths[production.name] = depth + 1
                    changed = true
                }
            }
        }
        return depths
    }

    private static func minimalDepth(of expr: GrammarExpr, _ depths: [String: Int]) -> Int? {
        switch expr {
        case .terminal, .characterClass, .optional, .zeroOrMore:
            return 0
        case .reference(let name):
            return depths[name]
        case .sequence(let items):
            var deepest = 0
            for item in items {
                guard let depth = minimalDepth(of: item, depths) else { return nil }
                deepest = max(deepest, depth)
            }
            return deepest
        case .choice(let items):
            return items.compactMap { minimalDepth(of: $0, depths) }.min()
        case .oneOrMore(let inner), .exclusion(let inner, _):
            return minimalDepth(of: inner, depths)
        }
    }

    /// One sentence derived from `start`, its tokens separated by single spaces.
    mutating func sentence(from start: String = "query") -> String {
        var tokens: [String] = []
        emitProduction(start, depth: 0, into: &tokens)
        return tokens.filter { !$0.isEmpty }.joined(separator: " ")
    }

    // MARK: - Syntactic productions: a list of tokens

    private mutating func emitProduction(_ name: String, depth: Int, into tokens: inout [String]) {
        guard let rule = grammar.rules[name] else { return tokens.append("<undefined \(name)>") }
        if EBNFGrammar.isLexical(name) { return tokens.append(spellProduction(name, depth: depth)) }
        let start = tokens.count
        for attempt in 1...maxRetries {
            emit(rule, depth: depth + 1, into: &tokens)
            let before = tokens[..<start].last { !$0.isEmpty }
            if attempt == maxRetries || ProseRules.allows(name, tokens[start...], after: before, in: grammar, matcher) {
                return
            }
            tokens.removeSubrange(start...)
        }
    }

    private mutating func emit(_ expr: GrammarExpr, depth: Int, into tokens: inout [String]) {
        switch expr {
        case .terminal(let text): tokens.append(spellTerminal(text))
        case .characterClass(let characterClass): tokens.append(String(pick(from: characterClass)))
        case .reference(let name): emitProduction(name, depth: depth, into: &tokens)
        case .sequence(let items): for item in items { emit(item, depth: depth, into: &tokens) }
        case .choice(let items): emit(chooseAlternative(items, depth: depth, lexical: false), depth: depth, into: &tokens)
        case .optional(let inner), .zeroOrMore(let inner), .oneOrMore(let inner):
            for _ in 0..<repetitions(of: expr, depth: depth, lexical: false) { emit(inner, depth: depth, into: &tokens) }
        case .exclusion(let base, let excluded):
            for attempt in 1...maxRetries {
                var candidate: [String] = []
                emit(base, depth: depth, into: &candidate)
                if attempt == maxRetries || !matcher.matches(excluded, candidate.joined(separator: " ")) {
                    return tokens.append(contentsOf: candidate)
                }
            }
        }
    }

    // MARK: - Lexical productions: one token's text

    private mutating func spellProduction(_ name: String, depth: Int) -> String {
        guard let rule = grammar.rules[name] else { return "<undefined \(name)>" }
        if let words = grammarWords[name], random.nextDouble() < grammarWordRate,
            let word = words.randomElement(using: &random)
        {
            let variant = spellTerminal(word)
            return matcher.matches(rule, variant) ? variant : word
        }
        var text = ""
        for attempt in 1...maxRetries {
            text = ""
            spell(rule, depth: depth + 1, into: &text)
            if attempt == maxRetries || ProseRules.allows(name, spelled: text) { break }
        }
        return text
    }

    private mutating func spell(_ expr: GrammarExpr, depth: Int, into text: inout String) {
        switch expr {
        case .terminal(let terminal): text += spellTerminal(terminal)
        case .characterClass(let characterClass): text.unicodeScalars.append(pick(from: characterClass))
        case .reference(let name): text += spellProduction(name, depth: depth)
        case .sequence(let items): for item in items { spell(item, depth: depth, into: &text) }
        case .choice(let items): spell(chooseAlternative(items, depth: depth, lexical: true), depth: depth, into: &text)
        case .optional(let inner), .zeroOrMore(let inner), .oneOrMore(let inner):
            for _ in 0..<repetitions(of: expr, depth: depth, lexical: true) { spell(inner, depth: depth, into: &text) }
        case .exclusion(let base, let excluded):
            for attempt in 1...maxRetries {
                var candidate = ""
                spell(base, depth: depth, into: &candidate)
                if attempt == maxRetries || !matcher.matches(excluded, candidate) { return text += candidate }
            }
        }
    }

    // MARK: - Choices

    /// How close `depth` is to the budget: 0 at the top, 1 or more at and past it.
    private func pressure(_ depth: Int) -> Double { Double(depth) / Double(depthBudget) }

    /// A syntactic choice takes any alternative, but with a chance that grows with depth
    /// (certainty past the budget) only one whose derivation fits in `depthBudget +
    /// leafRoom`, or failing that one of least derivation depth, so recursion ends.
    /// Lexical choices are not recursive here and stay uniform.
    private mutating func chooseAlternative(_ items: [GrammarExpr], depth: Int, lexical: Bool) -> GrammarExpr {
        guard !lexical, random.nextDouble() < pressure(depth) else {
            return items.randomElement(using: &random) ?? items[0]
        }
        let least = items.map { Self.minimalDepth(of: $0, depths) ?? .max }
        let fitting = items.indices.filter { least[$0] <= depthBudget + leafRoom - depth }
        let allowed = fitting.isEmpty ? items.indices.filter { least[$0] == least.min() } : fitting
        return items[allowed.randomElement(using: &random) ?? 0]
    }

    /// How many times to repeat an `?`, `*` or `+` item: at most three. Syntactic
    /// repetitions grow rarer with depth and stop past the budget; lexical ones are
    /// finite and stay uniform.
    private mutating func repetitions(of expr: GrammarExpr, depth: Int, lexical: Bool) -> Int {
        let least = if case .oneOrMore = expr { 1 } else { 0 }
        let most = if case .optional = expr { 1 } else { 3 }
        if lexical { return Int.random(in: least...most, using: &random) }
        let more = if case .optional = expr { 0.5 } else { 0.45 * (1 - pressure(depth)) }
        var count = least
        while count < most, pressure(depth) < 1, random.nextDouble() < more { count += 1 }
        return count
    }

    /// A terminal as written, or a keyword in lower, upper or mixed case.
    private mutating func spellTerminal(_ terminal: String) -> String {
        guard EBNFGrammar.isKeyword(terminal) else { return terminal }
        switch random.next() % 3 {
        case 0: return terminal.lowercased()
        case 1: return terminal.uppercased()
        default: return String(terminal.map { Bool.random(using: &random) ? Character($0.lowercased()) : $0 })
        }
    }

    /// A character of the class; a negated class picks from `sample`.
    private mutating func pick(from characterClass: CharacterClass) -> Unicode.Scalar {
        classCharacters[characterClass]?.randomElement(using: &random) ?? "?"
    }
}

extension SplitMix64 {
    /// A uniform double in [0, 1).
    mutating func nextDouble() -> Double { Double(next() >> 11) / Double(1 << 53) }
}

/// The rules pq.ebnf states in prose rather than in EBNF, applied to generated text.
enum ProseRules {
    /// Whether a lexical production's text keeps the grammar's prose: "An integer must
    /// fit in 64 bits", "a decimal must be finite", and a `\u{…}` escape names "a Unicode
    /// scalar value (not a surrogate)". A duration is a number too, so it must be finite.
    static func allows(_ production: String, spelled text: String) -> Bool {
        let plain = String(text.filter { $0 != "_" })
        switch production {
        case "INTEGER":
            let radix = ["0x": 16, "0o": 8, "0b": 2][String(plain.prefix(2))]
            let digits = radix == nil ? plain : String(plain.dropFirst(2))
            return UInt64(digits, radix: radix ?? 10).map { $0 <= UInt64(Int64.max) } ?? false
        case "DECIMAL":
            return Double(plain)?.isFinite ?? false
        case "DURATION":
            return Double(String(plain.dropLast()))?.isFinite ?? false
        case "ESCAPE" where plain.hasPrefix("\\u{"):
            return UInt32(String(plain.dropFirst(3).dropLast()), radix: 16).flatMap(Unicode.Scalar.init) != nil
        default:
            return true
        }
    }

    /// "Right after an operator, `[c]` is always a modifier, never a one-element list":
    /// a `list` right after a comparison or string operator must not read as a modifier.
    static func allows(
        _ production: String, _ tokens: ArraySlice<String>, after previous: String?,
        in grammar: EBNFGrammar, _ matcher: LanguageMatcher
    ) -> Bool {
        if production == "betweenBounds" { return opensBothBounds(tokens) }
        guard production == "list", let previous, let modifier = grammar.rules["modifier"] else { return true }
        let operators = ["comparisonOperator", "stringOperator"].compactMap { grammar.rules[$0] }
        guard operators.contains(where: { matcher.matches($0, previous) }) else { return true }
        return !matcher.matches(modifier, tokens.joined())
    }
}

extension ProseRules {
    /// "After BETWEEN, `{` or `[` always opens the two bounds": bounds that start with
    /// a bracket must be exactly one bracketed pair holding one top-level comma.
    static func opensBothBounds(_ tokens: ArraySlice<String>) -> Bool {
        let words = tokens.filter { !$0.isEmpty }
        guard let first = words.first, first == "{" || first == "[" else { return true }
        var depth = 0
        var commas = 0
        for (index, word) in words.enumerated() {
            switch word {
            case "(", "[", "{": depth += 1
            case ")", "]", "}":
                depth -= 1
                if depth == 0, index != words.count - 1 { return false }
            case ",": if depth == 1 { commas += 1 }
            default: break
            }
        }
        return commas == 1
    }
}

/// Decides whether a text is in the language of a grammar expression, read lexically
/// (no whitespace between parts); keywords match in any case. Used for exclusions
/// (`NAME - RESERVED`) and the prose rules. It tracks the set of positions each part
/// can end at, so it needs no backtracking; it does not handle left recursion.
struct LanguageMatcher {
    let grammar: EBNFGrammar

    func matches(_ expr: GrammarExpr, _ text: String) -> Bool {
        let scalars = Array(text.unicodeScalars)
        return ends(of: expr, in: scalars, from: [0], depth: 0).contains(scalars.count)
    }

    /// The positions where a match of `expr` starting at one of `starts` can end.
    private func ends(of expr: GrammarExpr, in text: [Unicode.Scalar], from starts: Set<Int>, depth: Int) -> Set<Int> {
        guard !starts.isEmpty, depth < 64 else { return [] }
        switch expr {
        case .terminal(let terminal):
            let pattern = Array(terminal.unicodeScalars)
            let anyCase = EBNFGrammar.isKeyword(terminal)
            return Set(
                starts.filter { start in
                    start + pattern.count <= text.count
                        && pattern.indices.allSatisfy { index in
                            let (expected, actual) = (pattern[index], text[start + index])
                            return expected == actual
                                || anyCase && expected.properties.lowercaseMapping == actual.properties.lowercaseMapping
                        }
                }.map { $0 + pattern.count })
        case .characterClass(let characterClass):
            return Set(starts.filter { $0 < text.count && characterClass.contains(text[$0]) }.map { $0 + 1 })
        case .reference(let name):
            guard let rule = grammar.rules[name] else { return [] }
            return ends(of: rule, in: text, from: starts, depth: depth + 1)
        case .sequence(let items):
            return items.reduce(starts) { ends(of: $1, in: text, from: $0, depth: depth) }
        case .choice(let items):
            return items.reduce(into: Set()) { $0.formUnion(ends(of: $1, in: text, from: starts, depth: depth)) }
        case .optional(let inner):
            return starts.union(ends(of: inner, in: text, from: starts, depth: depth))
        case .zeroOrMore(let inner), .oneOrMore(let inner):
            var reached: Set<Int> = if case .oneOrMore = expr { [] } else { starts }
            var frontier = starts
            while !frontier.isEmpty {
                frontier = ends(of: inner, in: text, from: frontier, depth: depth).subtracting(reached)
                reached.formUnion(frontier)
            }
            return reached
        case .exclusion(let base, let excluded):
            return starts.reduce(into: Set()) { result, start in
                let excludedEnds = ends(of: excluded, in: text, from: [start], depth: depth)
                result.formUnion(ends(of: base, in: text, from: [start], depth: depth).subtracting(excludedEnds))
            }
        }
    }
}
