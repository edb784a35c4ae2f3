// pq's arithmetic and ordering, which are SQLite's, as the evaluator implements
// them. The expected values were read off sqlite3 3.40 (`SELECT 9223372036854775807 + 1`, …).

import Foundation
import Testing

@testable import PredicateQuery

struct SQLiteSemanticsTests {
    static let arithmeticCases: [(ArithmeticOperator, Value, Value, Value)] = [
        (.add, .int(.max), .int(1), .double(9_223_372_036_854_775_808)),
        (.subtract, .int(.min), .int(1), .double(-9_223_372_036_854_775_808)),
        (.multiply, .int(.max), .int(2), .double(18_446_744_073_709_551_616)),
        (.divide, .int(.min), .int(-1), .double(9_223_372_036_854_775_808)),
        (.remainder, .int(.min), .int(-1), .int(0)),
        (.divide, .int(5), .int(0), .null),
        (.remainder, .int(5), .int(0), .null),
        (.divide, .double(5), .double(0), .null),
        (.divide, .int(7), .int(2), .int(3)),
        (.divide, .int(-7), .int(2), .int(-3)),
        (.remainder, .int(-7), .int(3), .int(-1)),
        (.remainder, .int(7), .int(-3), .int(1)),
        (.subtract, .double(.infinity), .double(.infinity), .null),
        (.add, .double(0.1), .double(0.2), .double(0.30000000000000004)),
        (.add, .null, .int(1), .null),
    ]

    @Test("arithmetic", arguments: arithmeticCases)
    func arithmetic(_ op: ArithmeticOperator, _ lhs: Value, _ rhs: Value, _ expected: Value) {
        #expect(SQLiteSemantics.arithmetic(op, lhs, rhs) == expected)
    }

    @Test func negationOfTheSmallestIntIsADouble() {
        #expect(SQLiteSemantics.negate(.int(.min)) == .double(9_223_372_036_854_775_808))
        #expect(SQLiteSemantics.negate(.int(5)) == .int(-5))
    }

    @Test func orderingAcrossTypes() {
        #expect(SQLiteSemantics.compare(.null, .int(.min)) < 0)
        #expect(SQLiteSemantics.compare(.int(.max), .string("")) < 0)
        #expect(SQLiteSemantics.compare(.string("\u{10FFFF}"), .data(Data())) < 0)
        #expect(SQLiteSemantics.compare(.string("Z"), .string("a")) < 0)
        #expect(SQLiteSemantics.compare(.string("é"), .string("e\u{301}")) > 0)
        #expect(SQLiteSemantics.compare(.string("ab"), .string("abc")) < 0)
        // Ints and Doubles compare exactly: 2^53 + 1 is above the Double 2^53.
        #expect(SQLiteSemantics.compare(.int(9_007_199_254_740_993), .double(9_007_199_254_740_992)) > 0)
        #expect(SQLiteSemantics.compare(.int(2), .double(2)) == 0)
        #expect(SQLiteSemantics.compare(.bool(true), .int(1)) == 0)
        #expect(SQLiteSemantics.isSame(.null, .null))
        #expect(!SQLiteSemantics.isSame(.null, .int(0)))
    }
}

struct AggregatesTests {
    @Test func sumIsExactForIntsAndNeverFails() {
        #expect(Aggregates.sum([]) == .int(0))
        #expect(Aggregates.sum([.int(1), .null, .int(2)]) == .int(3))
        #expect(Aggregates.sum([.int(.max), .int(1)]) == .double(9_223_372_036_854_775_808))
        #expect(Aggregates.sum([.int(.max), .int(1), .int(-1)]) == .double(Double(Int64.max) + 1 - 1))
        #expect(Aggregates.sum([.double(0.5), .int(1)]) == .double(1.5))
        #expect(Aggregates.sum([.double(.infinity), .double(-.infinity)]) == .null)
    }
}
