// NSPredicate-style format strings: arguments become parameters or checked key
// paths, never text; mistakes point into the format string.

import Foundation
import PredicateQueryExamples
import Testing

@testable import PredicateQuery

struct PredicateFormatTests {
    @Test func theIssuesExampleExpandsToParametersAndAKeyPath() throws {
        let expansion = PredicateFormat.expand("%K == %@ AND limit > %d", ["name", "Rent", 100])
        #expect(expansion.diagnostics.isEmpty)
        #expect(expansion.text == "`name` == $pq_arg2 AND limit > $pq_arg3")
        #expect(expansion.parameterValues == ["pq_arg2": .single(.string("Rent")), "pq_arg3": .single(.int(100))])
        let query = try #require(Parser.parse(expansion.text).query)
        #expect(query.syntaxDump == Parser.parse("name == $pq_arg2 && limit > $pq_arg3").query?.syntaxDump)
    }

    @Test func specifiersInsideQuotesAndDoublePercentStayText() {
        let expansion = PredicateFormat.expand("name like '%@*' AND limit %% 2 == %d", [1])
        #expect(expansion.text == "name like '%@*' AND limit % 2 == $pq_arg1")
        #expect(expansion.diagnostics.isEmpty)
    }

    @Test func keyPathsAreEscapedNamesAndAreChecked() {
        let expansion = PredicateFormat.expand("%K == %@", ["budget.name", "Travel"])
        #expect(expansion.text == "`budget`.`name` == $pq_arg2")
        let schema = ExampleSchemas.combined
        let result = QueryCompiler.compile(
            "Transaction where " + expansion.text, schema: schema, mapping: StoreMapping.make(for: schema, layout: .coreData))
        #expect(result.compiled != nil)
        // A %K argument is a name, never SQL or query text.
        for hostile in ["name; DROP TABLE ZBUDGET", "name == 'x' OR 1", "", "a..b", "name`"] {
            let bad = PredicateFormat.expand("%K == 1", [.value(.string(hostile))])
            #expect(bad.diagnostics.map(\.message) == ["the argument of the 1st '%K' must be a key path such as 'budget.name'"])
        }
        // A reserved word is a fine property name through %K.
        #expect(PredicateFormat.expand("%K == 1", ["in"]).text == "`in` == 1")
    }

    @Test func nilBecomesTheNilLiteralAndListsBindAsLists() {
        #expect(PredicateFormat.expand("budget == %@", [nil]).text == "budget == nil")
        let list = PredicateFormat.expand("name IN %@", [.list([.string("Rent"), .string("Travel")])])
        #expect(list.parameterValues == ["pq_arg1": .list([.string("Rent"), .string("Travel")])])
    }

    @Test func numberSpecifiersConvertOrComplain() {
        #expect(PredicateFormat.expand("limit > %f", [100]).parameterValues == ["pq_arg1": .single(.double(100))])
        #expect(PredicateFormat.expand("age > %ld", [.text("42")]).parameterValues == ["pq_arg1": .single(.int(42))])
        #expect(
            PredicateFormat.expand("age > %d", ["old"]).diagnostics.map(\.message) == [
                "the argument of the 1st '%d' must be an integer"
            ])
        #expect(PredicateFormat.expand("age > %d", [2.5]).diagnostics.count == 1)
    }

    @Test func argumentCountMismatchesPointIntoTheFormat() {
        let missing = PredicateFormat.expand("name == %@ AND limit > %d", ["Rent"])
        #expect(missing.diagnostics.map(\.message) == ["'%d' has no argument; the format needs more than the 1 given"])
        #expect(missing.diagnostics.first?.span == SourceSpan(start: 23, end: 25))
        let extra = PredicateFormat.expand("name == %@", ["Rent", 1])
        #expect(extra.diagnostics.map(\.message) == ["2 arguments were given, but the format uses 1"])
        let unknown = PredicateFormat.expand("name == %s", ["Rent"])
        #expect(unknown.diagnostics.first?.message == "'%s' is not a format specifier pq knows; use %@, %K, %d, %f or %%")
        let rendered = DiagnosticRenderer(fileName: "<format>").render(missing.diagnostics, in: "name == %@ AND limit > %d")
        #expect(rendered.contains("<format>:1:24: error:"))
        #expect(rendered.contains("^~"))
    }
}

/// The expansion's map back into the format, typed arguments, and what each new
/// spelling expands to.
struct PredicateFormatExpansionTests {
    @Test func spansOfTheTextMapBackToWhatTheUserWrote() throws {
        let format = "%K CONTAINS %@ AND limit > %d"
        let expansion = PredicateFormat.expand(format, ["name", "Vac", 3])
        #expect(expansion.text == "`name` CONTAINS $pq_arg2 AND limit > $pq_arg3")
        let bytes = Array(expansion.text.utf8)
        func span(of piece: String) throws -> SourceSpan {
            let needle = Array(piece.utf8)
            let start = try #require(
                (0...(bytes.count - needle.count)).first { Array(bytes[$0..<($0 + needle.count)]) == needle })
            return SourceSpan(start: start, end: start + needle.count)
        }
        // A substitution maps to the specifier; text the user wrote keeps its place.
        #expect(expansion.originalSpan(try span(of: "`name`")) == SourceSpan(start: 0, end: 2))
        #expect(expansion.originalSpan(try span(of: "$pq_arg2")) == SourceSpan(start: 12, end: 14))
        #expect(expansion.originalSpan(try span(of: "limit")) == SourceSpan(start: 19, end: 24))
        #expect(expansion.originalSpan(try span(of: "$pq_arg3")) == SourceSpan(start: 27, end: 29))
        #expect(expansion.originalSpan(try span(of: "`name` CONTAINS $pq_arg2")) == SourceSpan(start: 0, end: 14))
        #expect(expansion.originalSpan(.point(bytes.count)) == .point(format.utf8.count))
        // Messages name the specifier, never the parameter.
        #expect(
            expansion.reworded("parameter '$pq_arg3' needs a value of type 'Double'")
                == "the 1st '%d' needs a value of type 'Double'")
        #expect(expansion.reworded("write 'name == $pq_arg2' instead") == "write 'name == %@' instead")
        let diagnostic = Diagnostic.error(.typeMismatch, "cannot compare '$pq_arg2'", at: try span(of: "$pq_arg2"))
        #expect(expansion.originalDiagnostics([diagnostic]).map(\.message) == ["cannot compare the 1st '%@'"])
    }

    @Test func aMessageQuotesTheFormatNotTheEscapedKeyPath() throws {
        // Found by a fresh seed of PredicateFormatGeneratedTests: the parser quoted
        // the back-quoted name the expansion wrote, which the user never saw.
        let format = "SELF%K("
        let expansion = PredicateFormat.expand(format, ["transactions.amount"])
        #expect(expansion.text == "SELF`transactions`.`amount`(")
        let parse = Parser.parse(expansion.text)
        let diagnostics = expansion.originalDiagnostics(parse.diagnostics)
        let first = try #require(diagnostics.first)
        #expect(first.message == "unexpected '%K' after the end of the query")
        #expect(first.span == SourceSpan(start: 4, end: 6))
        #expect(!diagnostics.contains { $0.message.contains("`") })
        // Text the user wrote is quoted as written.
        let own = PredicateFormat.expand("name == %@ name", ["x"])
        let ownDiagnostics = own.originalDiagnostics(Parser.parse(own.text).diagnostics)
        #expect(ownDiagnostics.first?.message == "unexpected 'name' after the end of the query")
    }

    @Test func ordinalsAreEnglish() {
        #expect(
            [1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111].map(PredicateFormat.ordinal) == [
                "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st", "111th",
            ])
    }

    @Test func betweenTakesTwoBoundsFromAList() {
        let typed = PredicateFormat.expand("limit BETWEEN %@", [.list([.int(1), .int(5)])])
        #expect(typed.text == "limit BETWEEN {$pq_arg1_lower, $pq_arg1_upper}")
        #expect(typed.parameterValues == ["pq_arg1_lower": .single(.int(1)), "pq_arg1_upper": .single(.int(5))])
        let lowercase = PredicateFormat.expand("limit between\n  %@", [.text("[1, 5]")])
        #expect(lowercase.diagnostics.isEmpty && lowercase.text.hasSuffix("{$pq_arg1_lower, $pq_arg1_upper}"))
        // Only after the word BETWEEN, not after a name that ends in it.
        #expect(PredicateFormat.expand("inbetween == %@", [1]).text == "inbetween == $pq_arg1")
        let single = PredicateFormat.expand("limit BETWEEN %@", [5])
        #expect(
            single.diagnostics.map(\.message) == [
                "after BETWEEN, the 1st '%@' takes a list of two values, the lower and upper bounds; its argument holds one value"
            ])
    }

    @Test func printfNumberSpecifiersAreNumbers() {
        for (specifier, integer) in [
            ("%a", false), ("%la", false), ("%A", false), ("%Lf", false), ("%E", false),
            ("%x", true), ("%lX", true), ("%o", true), ("%qd", true), ("%zu", true), ("%hhi", true),
        ] {
            let expansion = PredicateFormat.expand("limit > " + specifier, [.text("12")])
            #expect(expansion.diagnostics.isEmpty, "\(specifier)")
            #expect(expansion.parameterValues == ["pq_arg1": .single(integer ? .int(12) : .double(12))], "\(specifier)")
        }
        #expect(PredicateFormat.expand("name == %c", ["x"]).diagnostics.count == 1)
    }

    @Test func functionsOverListsAreConstantsAndOverPathsAggregates() {
        let max = PredicateFormat.expand("limit > max(%@)", [.list([.int(3), .double(7.5), .null])])
        #expect(max.text == "limit > $pq_arg1")
        #expect(max.parameterValues == ["pq_arg1": .single(.double(7.5))])
        #expect(
            PredicateFormat.expand("limit > sum(%@)", [.list([.int(3), .int(4)])]).parameterValues == [
                "pq_arg1": .single(.int(7))
            ])
        #expect(
            PredicateFormat.expand("n == count(%@)", [.list([.int(3), .int(4)])]).parameterValues == ["pq_arg1": .single(.int(2))]
        )
        let dates = [Date(timeIntervalSince1970: 10), Date(timeIntervalSince1970: 5)]
        #expect(
            PredicateFormat.expand("date > min(%@)", [.list(dates.map { .date($0) })]).parameterValues
                == ["pq_arg1": .single(.date(dates[1]))])
        #expect(PredicateFormat.expand("limit < average({1, 2})").text == "limit < 1.5")
        #expect(PredicateFormat.expand("limit < max([1, 20, 3])").text == "limit < 20")
        #expect(PredicateFormat.expand("limit < sum({})").text == "limit < 0")
        #expect(PredicateFormat.expand("sum(transactions.amount) > 1").text == "transactions.@sum.amount > 1")
        #expect(PredicateFormat.expand("average(%K) > 1", ["a.b.c"]).text == "`a`.`b`.@avg.`c` > 1")
        #expect(PredicateFormat.expand("count(tags) > 1").text == "tags.@count > 1")
        // A name that only ends like a function, a property path and now() stay as written.
        #expect(PredicateFormat.expand("maxmin(x) > 1").text == "maxmin(x) > 1")
        #expect(PredicateFormat.expand("a.max(x) > 1 AND date < now()").text == "a.max(x) > 1 AND date < now()")
        #expect(
            PredicateFormat.expand("limit > max(%@)", [3]).diagnostics.map(\.message) == [
                "max(…) takes a list; the argument of the 1st '%@' is one value"
            ])
    }

    @Test func aLoneKeyIsABooleanTest() throws {
        #expect(PredicateFormat.expand("%K", ["isFavorite"]).text == "(`isFavorite`)")
        #expect(PredicateFormat.expand("  %K ", ["isFavorite"]).text == "  (`isFavorite`) ")
        #expect(PredicateFormat.expand("\t%K\n", ["isFavorite"]).text == "\t(`isFavorite`)\n")
        #expect(PredicateFormat.expand("%K == YES", ["isFavorite"]).text == "`isFavorite` == YES")
        let query = try #require(Parser.parse(PredicateFormat.expand("%K", ["isFavorite"]).text).query)
        #expect(TypeChecker.check(query, schema: ExampleSchemas.combined).query?.entity.name == "Snippet")
    }

    /// The checked query of `text`.
    private func checked(_ text: String) throws -> CheckedQuery {
        let query = try #require(Parser.parse(text).query)
        return try #require(TypeChecker.check(query, schema: ExampleSchemas.combined).query)
    }

    @Test func objectsNilAndListsAreTypedArguments() throws {
        #expect(FormatArgument(ObjectKey<Budget>(3)) == .object(entity: "Budget", key: 3))
        let expansion = PredicateFormat.expand("budget == %@ OR budget == %@", [FormatArgument(ObjectKey<Budget>(3)), nil])
        #expect(expansion.text == "budget == $pq_arg1 OR budget == nil")
        let (values, problems) = expansion.parameterValues(for: try checked(expansion.text).parameters)
        #expect(problems.isEmpty && values == ["pq_arg1": .single(.int(3))])
        // An object of another entity, or a value where the query wants an object, is an error at the specifier.
        let movie = PredicateFormat.expand("budget == %@", [.object(entity: "Movie", key: 3)])
        let movieQuery = try checked(movie.text)
        let problem = try #require(movie.parameterValues(for: movieQuery.parameters).diagnostics.first)
        #expect(problem.message == "the 1st '%@' is an object of 'Movie', but the query compares it with an object of 'Budget'")
        #expect(problem.span == SourceSpan(start: 10, end: 12))
        let list = PredicateFormat.expand("name == %@", [.list([.string("a")])])
        let listQuery = try checked("Budget where " + list.text)
        #expect(
            list.parameterValues(for: listQuery.parameters).diagnostics.map(\.message) == [
                "the 1st '%@' takes one String value, not a list"
            ])
    }
}
