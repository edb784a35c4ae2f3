// The service as a client sees it: JSON requests in, JSON rows or JSON diagnostics
// out, over pq's hand-written example data (no filler rows).

import Foundation
import QueryService
import Testing

struct QueryServiceTests {
    let service: QueryService

    init() throws {
        service = try QueryService(exampleData: 0)
    }

    /// The decoded body of a response.
    private func body(_ response: QueryResponse) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: response.body)
        return try #require(object as? [String: Any])
    }

    private func names(_ response: QueryResponse, key: String = "name") throws -> [String] {
        let rows = try #require(try body(response)["rows"] as? [[String: Any]])
        return rows.compactMap { $0[key] as? String }
    }

    private func post(_ json: String) async -> QueryResponse {
        await service.handle(body: Data(json.utf8))
    }

    private func diagnostic(_ response: QueryResponse) throws -> [String: Any] {
        let diagnostics = try #require(try body(response)["diagnostics"] as? [[String: Any]])
        return try #require(diagnostics.first)
    }

    @Test func filterSortAndParametersComeFromTheRequest() async throws {
        let response = await post(
            #"{"entity": "Budget", "filter": "limit > $min && name contains[c] $text", "sort": "limit desc", "parameters": {"min": 100, "text": "VAC"}}"#
        )
        #expect(response.status == 200)
        #expect(try names(response) == ["Vacation", "Vacation Rentals"])
        let payload = try body(response)
        #expect(payload["query"] as? String == "Budget where limit > $min && name contains[c] $text sort by limit desc limit 100 offset 0")
        #expect(payload["hasMore"] as? Bool == false)
    }

    @Test func rowsCarryEveryAttributeEnumsByNameAndToOneKeys() async throws {
        let movie = try body(await post(#"{"entity": "Movie", "filter": "genre == $g", "sort": "name", "parameters": {"g": "horror"}}"#))
        let movies = try #require(movie["rows"] as? [[String: Any]])
        #expect(movies.map { $0["name"] as? String } == ["Alien", "The Shining"])
        #expect(movies.allSatisfy { $0["genre"] as? String == "horror" })

        let cash = try body(await post(#"{"entity": "Transaction", "filter": "note == 'Cash withdrawal' || note == 'Hotel'", "sort": "note"}"#))
        let rows = try #require(cash["rows"] as? [[String: Any]])
        #expect(rows.count == 2)
        #expect(rows[0]["budget"] is NSNull)
        #expect(rows[0]["date"] as? String == "2024-05-20T00:00:00Z")
        #expect(rows[1]["budget"] as? Int == 1)
        #expect(rows[1]["amount"] as? Double == 720.5)
        #expect(rows[1]["hasReceipt"] as? Bool == true)
    }

    @Test func queryStringParametersAreTypedByTheQuery() async throws {
        let response = await service.handle(
            entity: "Transaction",
            queryItems: [("filter", "date >= $since && amount > $min"), ("sort", "date"), ("$since", "2024-05-01"), ("$min", "50")])
        #expect(response.status == 200)
        #expect(try names(response, key: "note") == ["May rent", "Birthday present", "Cash withdrawal", "Cabin deposit"])

        let wrong = await service.handle(entity: "Transaction", queryItems: [("filter", "amount > $min"), ("$min", "lots")])
        #expect(wrong.status == 400)
        #expect(try body(wrong)["error"] as? String == "parameter '$min' needs a value of type 'Double', not 'lots'")

        let unknown = await service.handle(entity: "Budget", queryItems: [("where", "limit > 1")])
        #expect(unknown.status == 400)
    }

    @Test func pagesSayWhetherMoreRowsFollow() async throws {
        let first = await post(#"{"entity": "Budget", "sort": "name", "limit": 3}"#)
        #expect(try names(first) == ["Emergency", "Gifts", "Groceries"])
        #expect(try body(first)["hasMore"] as? Bool == true)
        let last = await post(#"{"entity": "Budget", "sort": "name", "limit": 3, "offset": 6}"#)
        #expect(try names(last) == ["Vacation Rentals", "Vacuum Repair"])
        #expect(try body(last)["hasMore"] as? Bool == false)

        let tooMany = await post(#"{"entity": "Budget", "limit": 5000}"#)
        #expect(tooMany.status == 400)
        #expect(try body(tooMany)["error"] as? String == "'limit' must be between 0 and 1000, not 5000")
    }

    @Test func filterErrorsPointIntoTheFilter() async throws {
        let response = await post(#"{"entity": "Budget", "filter": "limit > 'lots'"}"#)
        #expect(response.status == 400)
        let found = try diagnostic(response)
        #expect(found["field"] as? String == "filter")
        #expect(found["code"] as? String == "check.typeMismatch")
        #expect(found["column"] as? Int == 1)
        #expect((found["rendered"] as? String)?.contains("filter:1:1: error:") == true)
        #expect((found["rendered"] as? String)?.contains("limit > 'lots'\n^~~~~~~~~~~~~~") == true)

        let unparsable = await post(#"{"entity": "Budget", "filter": "limit > "}"#)
        #expect(unparsable.status == 400)
        #expect(try body(unparsable)["error"] as? String == "the filter does not parse")
        #expect(try diagnostic(unparsable)["field"] as? String == "filter")
    }

    @Test func sortErrorsPointIntoTheSort() async throws {
        let response = await post(#"{"entity": "Budget", "filter": "limit > 100", "sort": "limit desc, nmae"}"#)
        #expect(response.status == 400)
        let found = try diagnostic(response)
        #expect(found["field"] as? String == "sort")
        #expect(found["code"] as? String == "check.unknownProperty")
        #expect(found["column"] as? Int == 13)
        let notes = try #require(found["notes"] as? [[String: Any]])
        #expect(notes.contains { ($0["message"] as? String) == "did you mean 'name'?" })
    }

    @Test func anUnknownEntityIsNotFound() async throws {
        let response = await post(#"{"entity": "Budgte", "filter": "limit > 1"}"#)
        #expect(response.status == 404)
        let found = try diagnostic(response)
        #expect(found["field"] as? String == "entity")
        let notes = try #require(found["notes"] as? [[String: Any]])
        #expect(notes.contains { ($0["message"] as? String) == "did you mean 'Budget'?" })
    }

    @Test func parametersMustAllBeGivenUsedAndWellTyped() async throws {
        let missing = await post(#"{"entity": "Budget", "filter": "limit > $min"}"#)
        #expect(missing.status == 400)
        #expect(try body(missing)["error"] as? String == "the query needs a value for '$min' (Double)")

        let unused = await post(#"{"entity": "Budget", "filter": "limit > $min", "parameters": {"min": 1, "max": 2}}"#)
        #expect(try body(unused)["error"] as? String == "parameter '$max' is not used by the query")

        let wrongType = await post(#"{"entity": "Budget", "filter": "limit > $min", "parameters": {"min": "100"}}"#)
        #expect(try body(wrongType)["error"] as? String == "parameter '$min' needs a value of type 'Double', not the string \"100\"")

        let list = await post(#"{"entity": "Budget", "filter": "name in $names", "sort": "name", "parameters": {"names": ["Rent", "Travel", "Nope"]}}"#)
        #expect(try names(list) == ["Rent", "Travel"])
        let notAList = await post(#"{"entity": "Budget", "filter": "name in $names", "parameters": {"names": "Rent"}}"#)
        #expect(try body(notAList)["error"] as? String == "parameter '$names' needs a list of String values, not the string \"Rent\"")
    }

    @Test func hostileTextIsOnlyEverAValue() async throws {
        let injected = await post(
            #"{"entity": "Budget", "filter": "name == $name", "parameters": {"name": "Rent'; DROP TABLE ZBUDGET; --"}}"#)
        #expect(injected.status == 200)
        #expect(try names(injected) == [])
        let stacked = await post(#"{"entity": "Budget", "filter": "name == 'Rent'; DROP TABLE ZBUDGET"}"#)
        #expect(stacked.status == 400)
        let quotedTable = await post(#"{"entity": "ZBUDGET\"; DROP TABLE ZBUDGET; --"}"#)
        #expect(quotedTable.status == 404)
        // Everything is still there.
        #expect(try names(await post(#"{"entity": "Budget", "limit": 1000}"#)).count == 8)
    }

    @Test func malformedBodiesAreExplained() async throws {
        let notJSON = await post("limit > 100")
        #expect(notJSON.status == 400)
        #expect(try body(notJSON)["error"] as? String == "the body is not a query request: it is not valid JSON")
        let noEntity = await post(#"{"filter": "limit > 100"}"#)
        #expect(try body(noEntity)["error"] as? String == "the body is not a query request: 'entity' is missing")
    }
    /// A 400 whose message names the parameter or field and what was expected,
    /// for a number out of range, a body that is not an object, and a value of the
    /// wrong JSON type.
    @Test func messagesNameWhatIsWrongWithAParameterOrTheBody() async throws {
        func error(_ response: QueryResponse) throws -> String {
            #expect(response.status == 400, "\(response.text)")
            return try #require(try body(response)["error"] as? String)
        }
        let prefix = "the body is not a query request: "
        // Numbers no Swift number holds: in a parameter, and in a list parameter.
        #expect(
            try error(await post(#"{"entity": "Budget", "filter": "limit > $min", "parameters": {"min": 1e400}}"#))
                == prefix + "parameter '$min' is a number out of range: JSON numbers here must be within ±1.8e308 (a 64-bit double)")
        #expect(
            try error(await post(#"{"entity": "User", "filter": "age in $ages", "parameters": {"ages": [1, -1e400]}}"#))
                == prefix
                + "parameter '$ages' (item 1) is a number out of range: JSON numbers here must be within ±1.8e308 (a 64-bit double)")
        // A whole number past 64 bits for an Int parameter.
        let wide = await post(#"{"entity": "User", "filter": "age > $n", "parameters": {"n": 99999999999999999999}}"#)
        #expect(
            try error(wide)
                == "parameter '$n' is out of range for 'Int' (a 64-bit integer, -9223372036854775808 to 9223372036854775807), not 1e+20")
        #expect(try body(wide)["code"] as? String == "query.parameter")
        // The same from a URL's text.
        let text = await service.handle(entity: "Budget", queryItems: [("filter", "limit > $min"), ("$min", "1e400")])
        #expect(try error(text) == "parameter '$min' is out of range for 'Double' (a 64-bit double, within ±1.8e308), not '1e400'")
        let digits = await service.handle(entity: "User", queryItems: [("filter", "age > $n"), ("$n", "99999999999999999999")])
        #expect(
            try error(digits)
                == "parameter '$n' is out of range for 'Int' (a 64-bit integer, -9223372036854775808 to 9223372036854775807), not '99999999999999999999'")
        // Bodies that are JSON but not an object.
        #expect(
            try error(await post(#"[{"entity": "Budget"}]"#))
                == prefix + #"it must be a JSON object, such as {"entity": "Budget"}, not an array"#)
        #expect(try error(await post(#" "Budget" "#)) == prefix + #"it must be a JSON object, such as {"entity": "Budget"}, not a string"#)
        #expect(try error(await post("42")) == prefix + #"it must be a JSON object, such as {"entity": "Budget"}, not a number"#)
        // Fields of the wrong JSON type, saying what they hold.
        #expect(try error(await post(#"{"entity": 5}"#)) == prefix + "'entity' must be text, not a number")
        #expect(try error(await post(#"{"entity": "Budget", "filter": ["a"]}"#)) == prefix + "'filter' must be text, not an array")
        #expect(
            try error(await post(#"{"entity": "Budget", "parameters": [1]}"#)) == prefix + "'parameters' must be an object, not an array")
        // A parameter of the wrong JSON type names it and the type the query gives it.
        #expect(
            try error(await post(#"{"entity": "Budget", "filter": "limit > $min", "parameters": {"min": "100"}}"#))
                == #"parameter '$min' needs a value of type 'Double', not the string "100""#)
        #expect(
            try error(await post(#"{"entity": "User", "filter": "age > $n", "parameters": {"n": 1.5}}"#))
                == "parameter '$n' needs a value of type 'Int', not 1.5")
    }
}
