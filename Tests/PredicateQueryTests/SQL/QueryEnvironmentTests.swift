// The environment a query runs in: the moment now() stands for, and the time zone
// whose midnight today() is, given or else the system's current one.

import Foundation
import Testing

@testable import PredicateQuery

struct QueryEnvironmentTests {
    /// 2023-11-14 22:13:20 UTC, which is already the 15th in Tokyo.
    private let moment = Date(timeIntervalSince1970: 1_700_000_000)

    @Test func todayStartsInTheGivenTimeZone() throws {
        let utc = try #require(TimeZone(identifier: "UTC"))
        let tokyo = try #require(TimeZone(identifier: "Asia/Tokyo"))
        // 2023-11-14 00:00 UTC.
        #expect(QueryEnvironment(now: moment, timeZone: utc).date(.today) == Date(timeIntervalSince1970: 1_699_920_000))
        // 2023-11-15 00:00 in Tokyo (UTC+9) is 2023-11-14 15:00 UTC.
        #expect(QueryEnvironment(now: moment, timeZone: tokyo).date(.today) == Date(timeIntervalSince1970: 1_699_974_000))
        #expect(QueryEnvironment(now: moment, timeZone: tokyo).date(.now) == moment)
    }

    @Test func withoutOneTodayStartsInTheCurrentTimeZone() {
        let environment = QueryEnvironment(now: moment)
        #expect(environment.timeZone == TimeZone.current)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        #expect(environment.date(.today) == calendar.startOfDay(for: moment))
    }

    @Test func aTimeZoneSetAfterwardsIsTheOneUsed() throws {
        var environment = QueryEnvironment(now: moment)
        environment.timeZone = try #require(TimeZone(identifier: "Asia/Tokyo"))
        #expect(environment.timeZone.identifier == "Asia/Tokyo")
        #expect(environment.date(.today) == Date(timeIntervalSince1970: 1_699_974_000))
    }
}
