// The naming rules introspection applies to SQL names (no server needed): Swift
// names for tables and columns, singulars and plurals, foreign-key stems, enum
// cases, and which CHECK constraints read as enums.

import Testing

@testable import PredicateQueryPostgres

struct PostgresSchemaNamingTests {
    @Test("tables become singular upper camel case entities; columns lower camel case attributes")
    func swiftNames() {
        let entities = ["budgets", "trip_tag", "categories", "addresses", "status", "boxes", "order_lines", "URLCache"]
            .map { PostgresSchemaNaming.entityName(ofTable: $0) ?? "nil" }
        #expect(entities == ["Budget", "TripTag", "Category", "Address", "Status", "Box", "OrderLine", "URLCache"])
        let attributes = ["created_at", "URL", "userID", "Weird Name", "full_name", "9lives", "#"]
            .map { PostgresSchemaNaming.lowerCamel($0) ?? "nil" }
        #expect(attributes == ["createdAt", "url", "userID", "weirdName", "fullName", "nil", "nil"])
        let toMany = ["transaction", "transactions", "category", "order_line", "box"]
            .map { PostgresSchemaNaming.toManyName(ofTable: $0) ?? "nil" }
        #expect(toMany == ["transactions", "transactions", "categories", "orderLines", "boxes"])
        #expect(
            ["budget_id", "ownerId", "userID", "budget", "_id"].map { PostgresSchemaNaming.strippingKeySuffix($0) ?? "-" } == [
                "budget", "owner", "user", "-", "-",
            ])
        #expect(
            ["createdAt", "userID", "URLCache", "name"].map(PostgresSchemaNaming.snakeCase) == [
                "created_at", "user_id", "url_cache", "name",
            ])
        #expect(
            ["one-off", "Monthly", "true", "---"].enumerated().map { PostgresSchemaNaming.caseName($1, position: $0) } == [
                "oneOff", "monthly", "case2", "case3",
            ])
    }

    @Test("simple CHECK lists on one column read as enums; anything else does not")
    func checkEnums() {
        let text = "CHECK ((status = ANY (ARRAY['pending'::text, 'cleared'::text, 'it''s'::text])))"
        #expect(PostgresCheckEnum.labels(in: text, column: "status") == ["pending", "cleared", "it's"])
        let varchar = "CHECK (((status)::text = ANY ((ARRAY['a'::character varying, 'b'::character varying])::text[])))"
        #expect(PostgresCheckEnum.labels(in: varchar, column: "status") == ["a", "b"])
        let ors = "CHECK (((state = 'o'::bpchar) OR (state = 'p'::bpchar)))"
        #expect(PostgresCheckEnum.labels(in: ors, column: "state") == ["o", "p"])
        for refused in [
            "CHECK ((status <> 'void'::text))", "CHECK (((status = 'a'::text) AND (status = 'b'::text)))",
            "CHECK ((lower(status) = ANY (ARRAY['a'::text])))", "CHECK ((other = ANY (ARRAY['a'::text])))",
            "CHECK ((NOT (status = ANY (ARRAY['a'::text]))))", "CHECK ((status = ANY (ARRAY['a'::text, 'a'::text])))",
        ] {
            #expect(PostgresCheckEnum.labels(in: refused, column: "status") == nil, "\(refused)")
        }
    }
}
