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

    /// The renderer writes names straight into the statement's bytes, as both dialects quote them.
    @Test(arguments: [
        ("ZNAME", #""ZNAME""#), ("", #""""#), (#"a"b"#, #""a""b""#), (#"""#, #""""""#), (#""""#, #""""""""#),
        ("naïve 名前", #""naïve 名前""#), (#"x"; DROP TABLE "ZBUDGET"; --"#, #""x""; DROP TABLE ""ZBUDGET""; --""#),
    ])
    func namesWrittenInPlaceAreQuotedAlike(name: String, quoted: String) {
        for dialect in [SQLiteDialect() as any SQLDialect, PostgreSQLDialect()] {
            var bytes = Array("t0.".utf8)
            dialect.appendQuoted(name, to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == "t0." + quoted)
            #expect(dialect.quote(name) == quoted)
        }
    }

    @Test func aColumnWithAQuoteInItsNameIsOneIdentifierInTheStatement() throws {
        let entity = Entity(#"It"em"#, attributes: [Attribute("size", .integer(bits: 64)), Attribute(#"na"me"#, .string)])
        let schema = Schema(entities: [entity])
        let mapping = StoreMapping.make(for: schema, layout: .plain)
        let sql = try #require(QueryCompiler.compile("size > 1", schema: schema, mapping: mapping).compiled?.sql)
        #expect(sql.contains(#"t0."na""me""#), "\(sql)")
        #expect(sql.contains(#"FROM "It""em" t0"#), "\(sql)")
    }
}
