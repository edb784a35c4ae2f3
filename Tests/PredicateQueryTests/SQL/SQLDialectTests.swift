// Identifiers are quoted so that any name, quotes included, stays one identifier.

import Testing

@testable import PredicateQuery

struct SQLDialectTests {
    let dialect = SQLiteDialect()

    @Test func namesAreDoubleQuotedAndQuotesInsideAreDoubled() {
        #expect(dialect.quote("ZNAME") == #""ZNAME""#)
        #expect(dialect.quote("") == #""""#)
        #expect(dialect.quote(#"a"b"#) == #""a""b""#)
        #expect(dialect.quote(#"""#) == #""""""#)
        #expect(dialect.quote(#"x"; DROP TABLE "ZBUDGET"; --"#) == #""x""; DROP TABLE ""ZBUDGET""; --""#)
    }
}
