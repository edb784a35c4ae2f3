// Date arithmetic on PostgreSQL (`SQLLowering+DatesAsSeconds`): every date taking
// part in a computation is read as pq's Double of seconds since 2001, dates not
// computed keep their timestamptz form, and what cannot be answered so is refused.

import Foundation
import Testing

@testable import PredicateQuery

struct PostgreSQLDatesTests {
    let schema = Schema(entities: [
        Entity(
            "Item", attributes: [Attribute("created", .date), Attribute("due", .date, optional: true)],
            relationships: [])
    ])

    func compile(_ text: String) -> CompileResult {
        var mapping = StoreMapping.make(for: schema, layout: .plain)
        mapping.database = .postgreSQL
        return QueryCompiler.compile(text, schema: schema, mapping: mapping)
    }

    func sql(_ text: String) throws -> String {
        let result = compile(text)
        return try #require(result.compiled?.sql, "\(text): \(result.diagnostics.map(\.message))")
    }

    static let seconds = "CAST(EXTRACT(EPOCH FROM "

    @Test func everyDateOfAComputationIsReadAsSecondsSince2001() throws {
        let computed = try sql("Item where created + 1e-7s > due")
        // The column added to and the one compared with it, both.
        #expect(computed.components(separatedBy: Self.seconds + "t0.\"created\")").count > 1)
        #expect(computed.contains(Self.seconds + "t0.\"due\")"))
        let ranged = try sql("Item where created in due - 1h...due + 1h")
        #expect(ranged.contains(Self.seconds + "t0.\"created\")"))
        let coalesced = try sql("Item where (due + 1d ?? created) == created")
        #expect(coalesced.contains("coalesce(") && coalesced.contains(Self.seconds + "t0.\"created\")"))
        // Dates not computed stay timestamptz, so an index serves them.
        #expect(!(try sql("Item where created > due")).contains("EXTRACT"))
    }

    @Test func aComputedDateInAParameterListIsRefused() {
        let result = compile("Item where created + 1d in $dates")
        #expect(result.compiled == nil)
        #expect(result.diagnostics.contains { $0.code == .unsupportedByDatabase && $0.message.contains("computed date") })
    }

    @Test func aDateIsWholeMicrosecondsOnlyIfPqsOwnDoubleIsToo() {
        #expect(PostgreSQLSupport.isWholeMicroseconds(Date(timeIntervalSinceReferenceDate: 700_000_000.000001)))
        #expect(PostgreSQLSupport.isWholeMicroseconds(Date(timeIntervalSinceReferenceDate: -0.000001)))
        #expect(!PostgreSQLSupport.isWholeMicroseconds(Date(timeIntervalSinceReferenceDate: 0.0000005)))
        // A whole microsecond since 1970 whose Double since 2001 is not that microsecond's.
        let date = Date(timeIntervalSinceReferenceDate: 8_000_000_000.000001)
        let since1970 = date.timeIntervalSince1970
        #expect((since1970 * 1_000_000).rounded() / 1_000_000 == since1970)
        #expect(!PostgreSQLSupport.isWholeMicroseconds(date))
    }
}
