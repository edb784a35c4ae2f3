// One budget per query: the time left, the check that names the stage reached,
// and durations written as a person writes them in the messages.

import Testing

@testable import PredicateQueryStore

struct QueryBudgetTests {
    @Test func durationsReadAsAPersonWritesThem() {
        #expect(QueryBudget.describe(.zero) == "0 ms")
        #expect(QueryBudget.describe(.milliseconds(250)) == "250 ms")
        #expect(QueryBudget.describe(.seconds(5)) == "5 s")
        #expect(QueryBudget.describe(.milliseconds(1500)) == "1.5 s")
        #expect(QueryBudget.describe(.microseconds(999)) == "0 ms")
    }

    @Test func wholeMillisecondsRoundTowardsZero() {
        #expect(Duration.milliseconds(1500).wholeMilliseconds == 1500)
        #expect(Duration.microseconds(2_999).wholeMilliseconds == 2)
        #expect(Duration.seconds(3).wholeMilliseconds == 3000)
    }

    @Test func aSpentBudgetFailsItsCheckNamingTheStage() {
        let spent = QueryBudget(timeout: .zero)
        #expect(spent.remaining == .zero)
        #expect {
            try spent.check("running it")
        } throws: { error in
            let error = error as? StoreError
            return error?.kind == .timeout && error?.message == "the query used up its 0 ms budget while running it"
        }
    }

    @Test func aFreshBudgetHasItsTimeLeft() throws {
        let budget = QueryBudget(timeout: .seconds(60))
        #expect(budget.total == .seconds(60))
        #expect(budget.remaining > .seconds(30) && budget.remaining <= .seconds(60))
        try budget.check("parsing it")
    }
}
