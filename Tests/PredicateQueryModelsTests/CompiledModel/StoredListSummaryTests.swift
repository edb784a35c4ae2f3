// Arrays of values, as SwiftData stores them (a binary property list in one
// column), summarized for output.

import Foundation
import PredicateQueryModels
import Testing

struct StoredListSummaryTests {
    private func plist(_ value: Any) throws -> Data {
        try PropertyListSerialization.data(fromPropertyList: value, format: .binary, options: 0)
    }

    @Test func arraysOfSimpleValuesAreWrittenOut() throws {
        #expect(StoredListSummary.summary(of: try plist(["swift", "sql"])) == "[\"swift\", \"sql\"]")
        #expect(StoredListSummary.summary(of: try plist([1, 2, 3])) == "[1, 2, 3]")
        #expect(StoredListSummary.summary(of: try plist([String]())) == "[]")
        #expect(
            StoredListSummary.summary(of: try plist(["a", "b", "c", "d", "e", "f", "g"]))
                == "[7 items: \"a\", \"b\", \"c\", \"d\", \"e\", …]")
    }

    @Test func anythingElseHasNoSummary() throws {
        #expect(StoredListSummary.summary(of: try plist(["key": "value"])) == nil)
        #expect(StoredListSummary.summary(of: try plist([["nested"]])) == nil)
        #expect(StoredListSummary.summary(of: Data("not a plist".utf8)) == nil)
        #expect(StoredListSummary.summary(of: Data("bplist00".utf8)) == nil)
    }
}
