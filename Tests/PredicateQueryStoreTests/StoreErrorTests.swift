// Store errors by kind: the stable codes a service maps to statuses, which kinds
// are the caller's mistake and which may pass, and what the neutral initializer
// makes of a database's code (it records it; each store module maps its own codes).

import PredicateQuery
import Testing

@testable import PredicateQueryStore

struct StoreErrorTests {
    @Test func everyKindHasItsStableCode() {
        #expect(
            StoreError.Kind.allCases.map(\.rawValue) == [
                "query.parameter", "query.limitExceeded", "query.patternTooCostly", "query.valueOutOfRange",
                "query.timeout", "query.cancelled", "store.busy", "store.poolExhausted", "store.corrupt",
                "store.unavailable", "store.internal",
            ])
    }

    @Test func kindsSayWhoCanFixThem() {
        #expect(
            Set(StoreError.Kind.allCases.filter(\.isCallersMistake))
                == [.invalidParameter, .limitExceeded, .patternTooCostly, .valueOutOfRange])
        #expect(Set(StoreError.Kind.allCases.filter(\.isTransient)) == [.timeout, .busy, .poolExhausted])
        #expect(StoreError.Kind.allCases.allSatisfy { !($0.isCallersMistake && $0.isTransient) })
    }

    @Test func anErrorIsInternalUnlessItsKindIsGiven() {
        let plain = StoreError("something broke")
        #expect(plain.kind == .internal && plain.code == nil && plain.description == "something broke")
        // A database's code is kept, not read: SQLite's are mapped in PredicateQuerySQLite.
        let withCode = StoreError("locked", code: 5)
        #expect(withCode.kind == .internal && withCode.code == 5)
        #expect(StoreError("locked", code: 5, kind: .busy).kind == .busy)
    }

    @Test func valuesThatCannotBeBoundAreTheCallersMistake() {
        let wrong = StoreError(BindingError(message: "parameter '$n' is missing"))
        #expect(wrong.kind == .invalidParameter && wrong.message == "parameter '$n' is missing")
        #expect(StoreError(BindingError(message: "too many values", isLimit: true)).kind == .limitExceeded)
    }
}
