// Holds the parser to the normative grammar, Grammar/pq.ebnf.
//
// The grammar file is read with `EBNFGrammar`; the tests check that it is complete
// (every name defined, every production reachable from `query`), that random
// sentences generated from it parse without errors and survive a print/parse round
// trip, and that every line of Grammar/examples.pq parses. A sentence the grammar
// derives but the parser rejects is a discrepancy: the failure names the seed, the
// sentence and the parser's diagnostics, so it can be replayed and judged.

import Foundation
import PredicateQueryTestSupport
import Testing

@testable import PredicateQuery

/// The grammar files of the repository, found from this source file's path.
enum GrammarFiles {
    /// The text of a file under Grammar/, or nil after recording why it could not be read.
    static func read(_ name: String) -> String? {
        let url = GoldenFile.repositoryRoot.appendingPathComponent("Grammar").appendingPathComponent(name)
        do {
            return try String(contentsOf: url, encoding: .utf8)
        } catch {
            Issue.record("cannot read \(url.path): \(error)")
            return nil
        }
    }

    /// Grammar/pq.ebnf, or nil after recording its syntax error or its undefined names.
    static func grammar() -> EBNFGrammar? {
        guard let text = read("pq.ebnf") else { return nil }
        do {
            let grammar = try EBNFGrammar(parsing: text)
            let undefined = grammar.problems(start: "query").filter { $0.contains("undefined") || $0.contains("no start") }
            for problem in undefined { Issue.record("Grammar/pq.ebnf: \(problem)") }
            return undefined.isEmpty ? grammar : nil
        } catch {
            Issue.record("Grammar/pq.ebnf does not read as EBNF: \(error)")
            return nil
        }
    }
}

/// The seeds of the generated-sentence tests (plus `PQ_SEED`), and how many
/// sentences each one makes (`TestBudget`: 500, or 2,000 as CI runs).
private let seeds: [UInt64] = TestSeeds.with([0x5EED, 1, 42, 2024, 0xC0FFEE])
private let sentencesPerSeed = TestBudget.count(quick: 500, thorough: 2_000)

/// Failures of generated sentences, grouped by kind so that one bug is reported once,
/// with the simplest sentence that shows it and how often it occurred.
private struct FailureLog {
    /// At most this many kinds are reported, so a broken parser does not flood the log.
    static let maxKinds = 8
    private var simplest: [String: (cost: [Int], report: String)] = [:]
    private var counts: [String: Int] = [:]
    private(set) var total = 0

    /// Records a failure of `kind`; of each kind, the one of least `cost` is kept
    /// (fewest errors, then shortest sentence).
    mutating func add(kind: String, cost: [Int], report: () -> String) {
        total += 1
        counts[kind, default: 0] += 1
        if simplest[kind].map({ cost.lexicographicallyPrecedes($0.cost) }) ?? true {
            simplest[kind] = (cost, report())
        }
    }

    /// Records one issue per kind, the most frequent kinds first.
    func record(_ summary: String) {
        guard total > 0 else { return }
        let kinds = counts.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.prefix(Self.maxKinds)
        for (kind, count) in kinds {
            Issue.record("\(summary) [\(count) of \(total) failures: \(kind)]\n\(simplest[kind]?.report ?? "")")
        }
        if counts.count > Self.maxKinds {
            Issue.record("\(counts.count - Self.maxKinds) more kinds of failure not shown")
        }
    }

    /// A diagnostic's message with quoted words blanked, so that `'x'` and `'y'` group together.
    static func kind(of diagnostics: [Diagnostic]) -> String {
        guard let first = diagnostics.first(where: { $0.severity == .error }) else { return "no error" }
        let parts = first.message.split(separator: "'", omittingEmptySubsequences: false)
        let blanked = parts.enumerated().map { $0.offset % 2 == 1 ? "…" : String($0.element) }
        return "\(first.code): " + blanked.joined(separator: "'")
    }

    /// Where two syntax dumps first differ, as the innermost node around that point and
    /// the two characters found there (letters shown as `a`, digits as `0`).
    static func kind(of original: String, _ reparsed: String) -> String {
        let common = zip(original, reparsed).prefix { $0 == $1 }.count
        let node = original.prefix(common).split(separator: "(").last?.split(separator: " ").first ?? "query"
        func shape(_ text: String) -> String {
            guard let character = text.dropFirst(common).first else { return "end" }
            return character.isLetter || character == "_" ? "a" : character.isNumber ? "0" : String(character)
        }
        return "the tree changes inside (\(node) …): '\(shape(original))' becomes '\(shape(reparsed))'"
    }
}

/// Calls `body` with every generated sentence: `sentencesPerSeed` from each seed.
private func forEachGeneratedSentence(_ grammar: EBNFGrammar, _ body: (UInt64, Int, String) -> Void) {
    for seed in seeds {
        var generator = SentenceGenerator(grammar: grammar, seed: seed)
        for index in 0..<sentencesPerSeed { body(seed, index, generator.sentence()) }
    }
}

@Suite("Grammar")
struct GrammarTests {
    @Test("pq.ebnf defines every name it uses, and every production is reachable from query")
    func grammarIsComplete() throws {
        let grammar = try #require(GrammarFiles.grammar())
        // pq.ebnf documents no helper productions, so every one must be reachable.
        for problem in grammar.problems(start: "query") {
            Issue.record("Grammar/pq.ebnf: \(problem)")
        }
        let depths = SentenceGenerator.minimalDepths(grammar)
        for production in grammar.productions where depths[production.name] == nil {
            Issue.record("Grammar/pq.ebnf: '\(production.name)' (line \(production.line)) derives no finite sentence")
        }
        #expect(grammar.productions.count > 40)
    }

    @Test("The EBNF reader reports syntax errors and undefined names instead of crashing")
    func readerReportsProblems() throws {
        #expect(throws: EBNFSyntaxError.self) { try EBNFGrammar(parsing: "a ::= \"unterminated") }
        #expect(throws: EBNFSyntaxError.self) { try EBNFGrammar(parsing: "a ::= ( b") }
        #expect(throws: EBNFSyntaxError.self) { try EBNFGrammar(parsing: "/* never closed") }
        let grammar = try EBNFGrammar(parsing: "query ::= a | b* \n a ::= [^'\\\\] - 'x' \n c ::= 'y'")
        #expect(
            grammar.problems(start: "query") == [
                "'query' (line 1) refers to undefined production 'b'",
                "'c' (line 3) is not reachable from 'query'",
            ])
        let notQuoteOrBackslash = CharacterClass(isNegated: true, ranges: ["'"..."'", "\\"..."\\"])
        #expect(grammar.rules["a"] == .exclusion(.characterClass(notQuoteOrBackslash), .terminal("x")))
    }

    @Test("The generator is deterministic and honours exclusions, keywords and prose rules")
    func generatorIsDeterministic() throws {
        let grammar = try #require(GrammarFiles.grammar())
        var first = SentenceGenerator(grammar: grammar, seed: 7)
        var second = SentenceGenerator(grammar: grammar, seed: 7)
        let sentences = (0..<50).map { _ in first.sentence() }
        #expect(sentences == (0..<50).map { _ in second.sentence() })
        let matcher = LanguageMatcher(grammar: grammar)
        let identifier = try #require(grammar.rules["IDENTIFIER"])
        #expect(matcher.matches(identifier, "limit") && matcher.matches(identifier, "`where`"))
        #expect(!matcher.matches(identifier, "wHeRe") && !matcher.matches(identifier, "Self"))
        var words = SentenceGenerator(grammar: grammar, seed: 7)
        for _ in 0..<200 {
            #expect(matcher.matches(identifier, words.sentence(from: "IDENTIFIER")))
        }
        #expect(!ProseRules.allows("list", ["[", "C", "]"], after: "==", in: grammar, matcher))
        #expect(ProseRules.allows("list", ["[", "C", "]"], after: "in", in: grammar, matcher))
        #expect(!ProseRules.allows("DECIMAL", spelled: "1e999") && ProseRules.allows("DECIMAL", spelled: "1_0.5e-9_9"))
        #expect(!ProseRules.allows("INTEGER", spelled: "0x1_0000_0000_0000_0000"))
    }

    @Test("Sentences generated from pq.ebnf parse without errors")
    func generatedSentencesParse() throws {
        let grammar = try #require(GrammarFiles.grammar())
        var log = FailureLog()
        var count = 0
        forEachGeneratedSentence(grammar) { seed, index, sentence in
            count += 1
            let result = Parser.parse(sentence)
            guard result.diagnostics.containsErrors else { return }
            let errors = result.diagnostics.filter { $0.severity == .error }.count
            log.add(kind: FailureLog.kind(of: result.diagnostics), cost: [errors, sentence.count]) {
                """
                seed \(seed), sentence \(index):
                  \(sentence)
                \(DiagnosticRenderer().render(result.diagnostics, in: sentence))
                """
            }
        }
        #expect(count >= 5 * sentencesPerSeed)
        log.record("The grammar derives this sentence but the parser rejects it")
    }

    @Test("Generated sentences survive print and parse with the same tree")
    func generatedSentencesRoundTrip() throws {
        let grammar = try #require(GrammarFiles.grammar())
        var log = FailureLog()
        forEachGeneratedSentence(grammar) { seed, index, sentence in
            guard let query = Parser.parse(sentence).query else { return }
            let printed = Printer.print(query)
            let reparsed = Parser.parse(printed)
            guard reparsed.query?.syntaxDump != query.syntaxDump else { return }
            let kind =
                reparsed.query.map { FailureLog.kind(of: query.syntaxDump, $0.syntaxDump) }
                ?? FailureLog.kind(of: reparsed.diagnostics)
            log.add(kind: kind, cost: [sentence.count]) {
                """
                seed \(seed), sentence \(index):
                  sentence: \(sentence)
                  printed:  \(printed)
                  tree:     \(query.syntaxDump)
                  reparsed: \(reparsed.query?.syntaxDump ?? "(no query)")
                \(DiagnosticRenderer().render(reparsed.diagnostics, in: printed))
                """
            }
        }
        log.record("Printing a parsed sentence and parsing it again changes the result")
    }

    @Test("Every example in Grammar/examples.pq parses without errors")
    func examplesParse() throws {
        let examples = try #require(Self.examples())
        #expect(examples.count >= 100)
        for (line, example) in examples {
            let result = Parser.parse(example)
            guard result.diagnostics.containsErrors else { continue }
            Issue.record(
                """
                Grammar/examples.pq:\(line) does not parse: \(example)
                \(DiagnosticRenderer(fileName: "example").render(result.diagnostics, in: example))
                """)
        }
    }

    @Test("Grammar/examples.pq uses every terminal of the grammar")
    func examplesUseEveryTerminal() throws {
        let grammar = try #require(GrammarFiles.grammar())
        let text = try #require(Self.examples()).map(\.text).joined(separator: "\n")
        let terminals = Set(grammar.productions.flatMap(\.expr.terminals)).sorted()
        for terminal in terminals {
            let found =
                EBNFGrammar.isKeyword(terminal)
                ? text.lowercased().contains(terminal.lowercased()) : text.contains(terminal)
            #expect(found, "no example in Grammar/examples.pq spells the terminal \(terminal)")
        }
    }

    /// The non-empty lines of examples.pq that are not `#` comments, with their line numbers.
    private static func examples() -> [(line: Int, text: String)]? {
        guard let text = GrammarFiles.read("examples.pq") else { return nil }
        return text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { index, line in
            let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
            return trimmed.isEmpty || trimmed.hasPrefix("#") ? nil : (index + 1, line.trimmingCharacters(in: .newlines))
        }
    }
}
