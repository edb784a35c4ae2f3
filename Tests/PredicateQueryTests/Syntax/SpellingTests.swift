// Every spelling of a construct maps to the same syntax node: NSPredicate's and
// Swift's, keywords in any case, modifiers with or without a space.

import Testing

@testable import PredicateQuery

struct SpellingTests {
    /// Groups of inputs that must parse to the same tree; the first is canonical.
    static let equivalent: [[String]] = [
        ["a && b", "a AND b", "a and b", "a And b"],
        ["a || b", "a OR b", "a or b"],
        ["!a", "NOT a", "not a", "! a"],
        ["!(a == 1)", "NOT a == 1", "not (a = 1)", "!a == 1"],
        ["a == 1", "a = 1", "a==1"],
        ["a != 1", "a <> 1"],
        ["a <= 1", "a =< 1"],
        ["a >= 1", "a => 1"],
        ["name contains 'x'", "name CONTAINS 'x'", "name.contains('x')", "name Contains \"x\""],
        [
            "name contains[cd] 'x'", "name CONTAINS[cd] 'x'", "name contains [cd] 'x'", "name CONTAINS[CD] 'x'",
            "name contains[dc] 'x'", "name.localizedStandardContains('x')",
        ],
        ["name contains[c] 'x'", "name.localizedCaseInsensitiveContains('x')"],
        ["name ==[c] 'x'", "name == [c] 'x'", "name =[c] 'x'"],
        ["name beginswith 'x'", "name BEGINSWITH 'x'", "name.hasPrefix('x')", "name.starts(with: 'x')"],
        ["name endswith 'x'", "name ENDSWITH 'x'", "name.hasSuffix('x')"],
        ["name like 'a*'", "name LIKE 'a*'"],
        ["name matches 'a.*'", "name MATCHES 'a.*'"],
        ["x in [1, 2]", "x IN {1, 2}", "x in {1,2}", "[1, 2].contains(x)"],
        ["x in 1...10", "x between 1 and 10", "x BETWEEN {1, 10}", "x between [1, 10]", "(1...10).contains(x)"],
        ["any tags.name == 'x'", "ANY tags.name == 'x'", "some tags.name == 'x'", "SOME tags.name = 'x'"],
        ["all tags.name == 'x'", "ALL tags.name == 'x'"],
        ["none tags.name == 'x'", "NONE tags.name == 'x'"],
        ["tags.count > 1", "tags.@count > 1", "tags.@COUNT > 1"],
        ["ts.@sum.amount > 1", "ts.@SUM.amount > 1"],
        ["tags.contains(where: { $0.name == 'x' })", "tags.contains { $0.name == 'x' }"],
        ["tags.contains(where: { t in t.name == 'x' })", "tags.contains { t in t.name == 'x' }"],
        [
            "tags.filter({ t in t.name == 'x' }).count > 0", "SUBQUERY(tags, $t, $t.name == 'x').@count > 0",
            "tags.filter { t in t.name == 'x' }.count > 0", "subquery(tags, $t, $t.name == 'x').@count > 0",
        ],
        ["tags.allSatisfy({ $0.name == 'x' })", "tags.allSatisfy { $0.name == 'x' }"],
        ["true", "TRUE", "yes", "YES", "TRUEPREDICATE", "truepredicate"],
        ["false", "FALSE", "no", "NO", "FALSEPREDICATE"],
        ["a == nil", "a == NIL", "a == null", "a == NULL", "a = nil"],
        ["name == 'x'", "SELF.name == 'x'", "self.name == 'x'"],
        ["budget?.name == 'x'", "budget ?. name == 'x'"],
        ["-5 == a", "- 5 == a", "-(5) == a"],
        ["a == 1_000", "a == 1000", "a == 0x3E8", "a == 0b1111101000", "a == 0o1750"],
        ["Budget where limit > 1", "Budget WHERE limit > 1", "Budget Where limit > 1"],
        [
            "Budget sort by name desc, limit", "Budget SORT BY name DESC, limit ASC",
            "Budget sort by name descending, limit ascending",
        ],
    ]

    @Test("spellings of one construct parse to one node", arguments: equivalent)
    func spellingsAgree(_ group: [String]) {
        let canonical = dump(group[0])
        for spelling in group.dropFirst() {
            #expect(dump(spelling) == canonical, "\(spelling.debugDescription) differs from \(group[0].debugDescription)")
        }
    }

    @Test("the canonical printer prints the first spelling of each group", arguments: equivalent)
    func printerUsesCanonicalSpelling(_ group: [String]) throws {
        let query = try #require(parseOrRecord(group.last ?? ""))
        let printed = Printer.print(query)
        #expect(dump(printed) == dump(group[0]))
    }

    @Test func quantifierKeywordsNeedAPath() {
        // `any` is reserved, so it cannot silently become a key path.
        #expect(parseCodes("any == 1") == ["parse.expectedExpression"])
        #expect(dump("`any` == 1") == "(query (== (key any) 1))")
    }
}
