// A query that fails part way through streamed output (here its --timeout stops
// it): the rows printed before stay, their last line ended, without what ends a
// whole result (a table's row count, JSON's closing bracket), and the error says
// why on standard error with exit status 1.

import Foundation
import PredicateQueryTestSupport
import Testing

struct StreamedFailureTests {
    @Test("rows printed before a query fails stay, and the error follows", arguments: ["csv", "table", "json", "markdown"])
    func rowsBeforeAFailureStay(format: String) throws {
        let store = try LargeStore.path.get()
        // A million rows take pq far longer than 500 ms in any build (a release
        // build: seconds), and a table prints its first page of 1,000 rows well within it.
        let result = try PQProcess.run(["--store", store, "--format", format, "--timeout", "0.5", "item where TRUEPREDICATE"])
        #expect(result.status == 1)
        #expect(result.error == "error: the query ran longer than its 500 ms timeout and was stopped\n", "\(result.error)")
        // On bytes: CSV's lines end in CRLF, one Character.
        #expect(result.output.utf8.last == UInt8(ascii: "\n"))
        #expect(!result.output.contains("rows)"))
        #expect(!result.output.hasSuffix("]\n"))
        let lines = result.output.utf8.count(where: { $0 == UInt8(ascii: "\n") })
        #expect(lines > 2 && lines < LargeStore.rowCount, "\(lines) lines")
    }
}
