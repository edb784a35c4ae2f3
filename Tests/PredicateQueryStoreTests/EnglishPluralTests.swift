// The plural introspection gives a to-many relationship, for SQLite's tables and
// PostgreSQL's alike.

import PredicateQueryStore
import Testing

struct EnglishPluralTests {
    @Test func namesArePluralizedAsInEnglish() {
        #expect(EnglishPlural.of("transaction") == "transactions")
        #expect(EnglishPlural.of("category") == "categories")
        #expect(EnglishPlural.of("day") == "days")
        #expect(EnglishPlural.of("box") == "boxes")
        #expect(EnglishPlural.of("address") == "addresses")
        #expect(EnglishPlural.of("status") == "statuses")
        #expect(EnglishPlural.of("transactions") == "transactions")
    }
}
