// The literal check must see literals and must not mistake pq's own SQL for them.

import PredicateQueryFuzzing
import Testing

struct SQLLiteralCheckTests {
    @Test func placeholdersAliasesAndQuotedIdentifiersAreNotLiterals() {
        #expect(SQLLiteralCheck.literal(in: "SELECT t0.\"Z_PK\" FROM \"ZBUDGET\" t0 WHERE t0.\"ZLIMIT\" > ?1 LIMIT -1") == nil)
        #expect(SQLLiteralCheck.literal(in: "SELECT t12.\"Z_PK\", d3.\"ZNAME\" FROM \"Z_12TAGS\" j10 WHERE ?124 = 1") == nil)
        #expect(SQLLiteralCheck.literal(in: "SELECT \"it's\" FROM \"100\"") == nil)
    }

    @Test func stringsAndLongNumbersAreLiterals() {
        #expect(SQLLiteralCheck.literal(in: "SELECT 1 FROM x t0 WHERE t0.\"a\" = 'Vac'") == "a string literal")
        #expect(SQLLiteralCheck.literal(in: "SELECT 1 FROM x t0 WHERE t0.\"a\" > 100") == "the number 100")
        #expect(SQLLiteralCheck.literal(in: "SELECT 1 FROM x t0 WHERE \"a\" = 1 OR 1=1 --'") != nil)
    }
}
