// Hostile Swift never crashes the Swift front end or `SwiftAppLint`: random
// sequences of the tokens predicates are made of, and every prefix of real
// predicates, give a query or diagnostics with spans inside the text.

import PredicateQuery
import PredicateQueryExamples
import PredicateQueryModels
import PredicateQueryTestSupport
import Testing

struct SwiftPredicateRobustnessTests {
    static let vocabulary = [
        "#Predicate", "<", ">", "Budget", "{", "}", "(", ")", "[", "]", "$0", "$1", "t", "in", ".", "?.", "?", ":", "!", "-",
        "~", "&&", "||", "==", "!=", "<=", "...", "..<", "??", "+", "*", "/", "%", "&", "|", "^", "limit", "name",
        "transactions", "contains", "where", "filter", "count", "isEmpty", "flatMap", "allSatisfy", "if", "let", "else",
        "switch", "case", "default", "return", "true", "nil", "1", "2.5", "\"x\"", ",", ";", "\\", "@Query", "FetchDescriptor",
        "SortDescriptor", "predicate", "sort", "Genre", "action", "evaluate", "\n",
        // Foundation's spellings of options and values, and pq's own.
        "compare", "caseInsensitiveCompare", "range", "of", "options", "caseInsensitive", "anchored", "backwards",
        "orderedSame", "orderedAscending", "like", "matches", "sum", "max", "Date", "timeIntervalSinceReferenceDate",
        "UUID", "uuidString", "Calendar", "current", "startOfDay", "for", "now", "try", "addingTimeInterval", "comparator",
        "localizedStandard", "String", "Comparator", "strategy", "iso8601", "1e300", "86_400",
    ]

    @Test func randomTokenSequencesNeverCrash() {
        var random = SplitMix64(seed: 16)
        var read = 0
        for _ in 0..<3000 {
            let length = Int(random.next() % 24) + 1
            let text = (0..<length).map { _ in Self.vocabulary[Int(random.next() % UInt64(Self.vocabulary.count))] }
                .joined(separator: random.next() % 3 == 0 ? "" : " ")
            let result = SwiftPredicate.parse(text)
            if result.query != nil { read += 1 }
            let size = text.utf8.count
            #expect(result.diagnostics.allSatisfy { $0.span.start >= 0 && $0.span.end <= size }, "\(text)")
            #expect(result.query != nil || result.diagnostics.containsErrors, "\(text)")
            _ = SwiftAppLint.lint([SwiftModelSource.File(path: "f.swift", text: text)])
        }
        print("random Swift token sequences: \(read) of 3000 read as predicates")
    }

    @Test func everyPrefixOfARealPredicateIsHandled() {
        let source = """
            @Query(filter: #Predicate<Budget> { budget in if let t = budget.transactions.first { t.amount > 1 } else { budget.name.localizedStandardContains(search) && (1...5).contains(budget.transactions.filter { $0.amount > 2 }.count) } }, sort: \\Budget.name, order: .reverse) var budgets: [Budget]
            """
        let bytes = Array(source.utf8)
        for end in 0...bytes.count {
            let text = String(decoding: bytes[0..<end], as: UTF8.self)
            _ = SwiftPredicate.parse(text)
            _ = SwiftAppLint.lint([SwiftModelSource.File(path: "f.swift", text: text)])
        }
        #expect(SwiftAppLint.lint([SwiftModelSource.File(path: "f.swift", text: source)]).sites.count == 1)
    }

    @Test func everyPrefixOfFoundationAndPqSpellingsIsHandled() {
        let source = """
            FetchDescriptor<Transaction>(predicate: #Predicate { t in (t.note.compare("x", options: [.caseInsensitive, .diacriticInsensitive]) != .orderedAscending || nil != t.note.range(of: "y", options: [.anchored, .backwards])) && t.note.like("a*", options: .caseInsensitive) && t.date > try Date("2024-05-01T00:00:00Z", strategy: .iso8601) && t.date < Calendar.current.startOfDay(for: .now).addingTimeInterval(-7 * 86_400) && t.budget!.transactions.sum(\\.amount) > 1e300 }, sortBy: [SortDescriptor(\\.note, comparator: String.Comparator(options: .caseInsensitive), order: .reverse)])
            """
        let bytes = Array(source.utf8)
        for end in 0...bytes.count {
            let text = String(decoding: bytes[0..<end], as: UTF8.self)
            let result = SwiftPredicate.parse(text)
            #expect(result.diagnostics.allSatisfy { $0.span.start >= 0 && $0.span.end <= end }, "\(text)")
            #expect(result.query != nil || result.diagnostics.containsErrors, "\(text)")
            _ = SwiftAppLint.lint([SwiftModelSource.File(path: "f.swift", text: text)])
        }
        let whole = SwiftPredicate.parse(source)
        #expect(whole.query != nil, "\(whole.diagnostics.map(\.message))")
        #expect(whole.query?.sortKeys.first?.options == [.caseInsensitive])
    }
}
