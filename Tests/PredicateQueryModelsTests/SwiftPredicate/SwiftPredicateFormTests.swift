// The Swift forms `#Predicate` accepts beyond the text language's own spellings —
// `if let`, `if`/`else`, the ternary, `switch`, `flatMap`, `let`, `return`,
// captured values — each read into the tree of a text query that means the same;
// and what cannot become SQL, reported at the right place.

import PredicateQuery
import PredicateQueryExamples
import PredicateQueryModels
import Testing

struct SwiftPredicateFormTests {
    struct Form: CustomTestStringConvertible, Sendable {
        var swift: String
        var text: String
        var testDescription: String { swift }
    }

    static let forms: [Form] = [
        Form(
            swift: "#Predicate<Transaction> { t in if let b = t.budget { b.limit > 100 } else { false } }",
            text: "Transaction where budget != nil && budget.limit > 100"),
        Form(
            swift: "#Predicate<Transaction> { t in if let b = t.budget { b.limit > 100 } else { true } }",
            text: "Transaction where budget != nil && budget.limit > 100 || !(budget != nil)"),
        Form(
            swift: "#Predicate<Transaction> { if $0.amount > 10 { $0.hasReceipt } else { false } }",
            text: "Transaction where amount > 10 && hasReceipt"),
        Form(
            swift: "#Predicate<Transaction> { $0.amount > 10 ? $0.hasReceipt : $0.note == \"x\" }",
            text: "Transaction where amount > 10 && hasReceipt || !(amount > 10) && note == 'x'"),
        Form(
            swift: "#Predicate<Movie> { movie in switch movie.genre { case .action, .horror: true; default: false } }",
            text: "Movie where genre == .action || genre == .horror"),
        Form(
            swift:
                "#Predicate<Movie> { movie in\n switch movie.genre {\n case .kids:\n  movie.name != \"x\"\n default:\n  false\n }\n}",
            text: "Movie where genre == .kids && name != 'x'"),
        Form(
            swift: "#Predicate<Transaction> { t in t.budget.flatMap { $0.limit > 5 } ?? false }",
            text: "Transaction where budget != nil && budget.limit > 5"),
        Form(
            swift: "#Predicate<Transaction> { t in t.budget.flatMap { b in names.contains(b.name) } ?? true }",
            text: "Transaction where budget == nil || budget != nil && $names.contains(budget.name)"),
        Form(
            swift: "#Predicate<Budget> { budget in\n let minimum = 100\n return budget.limit > minimum\n}",
            text: "Budget where limit > 100"),
        Form(
            swift: "#Predicate<Budget> { $0.name.localizedStandardContains(search) && $0.limit >= low }",
            text: "Budget where name contains[cd] $search && limit >= $low"),
        Form(
            swift: "#Predicate<Transaction> { $0.budget!.name == \"Rent\" && $0.date > Date.now }",
            text: "Transaction where budget!.name == 'Rent' && date > now()"),
        Form(
            swift: "#Predicate<Budget> { (1...5).contains($0.transactions.filter { $0.amount > 1 }.count) }",
            text: "Budget where transactions.filter({ $0.amount > 1 }).count in 1...5"),
        Form(swift: "{ $0.limit * 2 - 10 > 100 }", text: "limit * 2 - 10 > 100"),
        Form(swift: "#Predicate<Budget> { $0.persistentModelID == rent }", text: "Budget where persistentModelID == $rent"),
        Form(
            swift: "#Predicate<Budget> { both.contains($0.persistentModelID) }", text: "Budget where persistentModelID in $both"),
        Form(
            swift: "#Predicate<Transaction> { $0.budget?.persistentModelID == rent }", text: "Transaction where budget == $rent"),
        Form(
            swift: "#Predicate<Transaction> { $0.budget == rent && ids.contains($0.persistentModelID) }",
            text: "Transaction where budget == $rent && SELF in $ids"),
        Form(swift: "#Predicate { (budget: Budget) -> Bool in budget.limit > 5 }", text: "Budget where limit > 5"),
        Form(swift: "$0.name.starts(with: \"V\")", text: "name beginswith 'V'"),
        Form(
            swift:
                "#Predicate<Transaction> { $0.date < Date.now.addingTimeInterval(-7 * 86_400) && $0.date > Date.now.addingTimeInterval(30) }",
            text: "Transaction where date < now() - 7d && date > now() + 30s"),
        Form(
            swift: "#Predicate<Transaction> { ($0.budget?.name ?? \"\").contains(\"Va\") }",
            text: "Transaction where (budget?.name ?? '') contains 'Va'"),
        Form(
            swift: "#Predicate<Transaction> { $0.date < Date.now.addingTimeInterval(-86400) }",
            text: "Transaction where date < now() - 86400s"),
    ]

    @Test(arguments: forms)
    func readsAsItsTextEquivalent(_ form: Form) throws {
        let read = SwiftPredicate.parse(form.swift)
        let swift = try #require(read.query, "\(read.diagnostics.map(\.message))")
        let text = try #require(Parser.parse(form.text).query)
        #expect(swift.entity?.text == text.entity?.text)
        let schema = ExampleSchemas.combined
        let checkedText = TypeChecker.check(text, schema: schema, defaultEntity: "Budget")
        let checkedSwift = TypeChecker.check(swift, schema: schema, defaultEntity: "Budget")
        let expected = try #require(checkedText.query, "\(checkedText.diagnostics.map(\.message))")
        let actual = try #require(checkedSwift.query, "\(checkedSwift.diagnostics.map(\.message))")
        #expect(actual.typedDump == expected.typedDump)
    }

    @Test func aPropertyOfACapturedValueIsCapturedToo() throws {
        let read = SwiftPredicate.parse("#Predicate<Budget> { search.isEmpty || $0.name.hasSuffix(search) }")
        let query = try #require(read.query)
        let checked = try #require(TypeChecker.check(query, schema: ExampleSchemas.combined).query)
        #expect(checked.parameters.map { "\($0.name) \($0.type)" } == ["search.isEmpty Bool", "search String"])
    }

    @Test func staticValuesAreCapturedAndEnumCasesAreCases() throws {
        let read = SwiftPredicate.parse(
            "#Predicate<Movie> { $0.genre.rawValue == Genre.kids.rawValue || $0.genre == Genre.action || $0.name == Date.distantPast }"
        )
        let dump = try #require(read.query).syntaxDump
        #expect(dump.contains("(param Genre.kids.rawValue)"))
        #expect(dump.contains("(== (key genre) .action)"))
        #expect(read.capturedNames.contains("Date.distantPast"))
    }

    struct Refusal: CustomTestStringConvertible, Sendable {
        var swift: String
        var pointsAt: String
        var says: String
        var testDescription: String { swift }
    }

    static let refusals: [Refusal] = [
        Refusal(
            swift: "#Predicate<Budget> { other.evaluate($0) }", pointsAt: "evaluate", says: "'evaluate' of a captured predicate"),
        Refusal(swift: "#Predicate<Budget> { $0.name.uppercased() == \"A\" }", pointsAt: "uppercased", says: "cannot become SQL"),
        Refusal(swift: "#Predicate<Budget> { isValid($0.name) }", pointsAt: "isValid", says: "cannot become SQL"),
        Refusal(swift: "#Predicate<Budget> { $0.name == \"\\(prefix)x\" }", pointsAt: "\"\\(prefix)x\"", says: "interpolation"),
        Refusal(swift: "#Predicate<Budget> { if $0.limit > 1 { true } }", pointsAt: "if", says: "needs an 'else'"),
        Refusal(swift: "#Predicate<Budget> { $0.limit > 1\n print(1) }", pointsAt: "print", says: "one expression"),
        Refusal(swift: "#Predicate<Budget> { $0.limit > }", pointsAt: "}", says: "expected an expression"),
        Refusal(swift: "#Predicate<Budget> { 1 < 2 < 3 }", pointsAt: "<", says: "do not chain"),
    ]

    @Test(arguments: refusals)
    func whatCannotBecomeSQLIsReportedWhereItIs(_ refusal: Refusal) throws {
        let read = SwiftPredicate.parse(refusal.swift)
        #expect(read.query == nil)
        let error = try #require(read.diagnostics.first { $0.severity == .error })
        let bytes = Array(refusal.swift.utf8)
        let pointed = String(decoding: bytes[error.span.start..<min(error.span.end, bytes.count)], as: UTF8.self)
        #expect(pointed.hasPrefix(refusal.pointsAt), "points at '\(pointed)'")
        #expect(error.message.contains(refusal.says), "\(error.message)")
    }

    @Test func deepNestingIsAnErrorNotACrash() {
        let deep = String(repeating: "(", count: 5000) + "$0.limit > 1" + String(repeating: ")", count: 5000)
        let read = SwiftPredicate.parse(deep)
        #expect(read.query == nil)
        #expect(read.diagnostics.contains { $0.code == .nestingTooDeep })
    }

    @Test func garbageNeverCrashes() {
        for text in [
            "", "#Predicate", "#Predicate<", "{", "}", "{ x in", "$0.", "?.", "[1,", "switch", "if let", "\\", "(((", "$1",
        ] {
            let read = SwiftPredicate.parse(text)
            #expect(read.query == nil || text.isEmpty == false, "\(text)")
        }
    }
}
