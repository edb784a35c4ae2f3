// Parameter values given as text take the type the query gives the parameter;
// text that does not fit that type is an error naming the parameter.

import Foundation
import PredicateQueryExamples
import Testing

@testable import PredicateQuery

struct ParameterTextTests {
    private var genre: ValueType {
        let checked = TypeChecker.check(Parser.parse("Movie where genre == $g").query!, schema: ExampleSchemas.combined)
        return checked.query!.parameters[0].type
    }

    private func single(_ text: String, _ type: ValueType) -> Value? {
        try? ParameterText.single(text, as: type, name: "p")
    }

    private func message(_ text: String, _ type: ValueType) -> String? {
        do {
            _ = try ParameterText.value(text, as: type, name: "p")
            return nil
        } catch {
            return error.message
        }
    }

    @Test func scalarsTakeTheirTypesForm() {
        #expect(single("1_000", .int) == .int(1000))
        #expect(single("2.5", .double) == .double(2.5))
        #expect(single("yes", .bool) == .bool(true))
        #expect(single("0", .bool) == .bool(false))
        #expect(single("'Rent'", .string) == .string("Rent"))
        #expect(single("\"it's\"", .string) == .string("it's"))
        #expect(single("null", .string) == .null)
        #expect(single("2024-03-15", .date) == .date(Date(timeIntervalSince1970: 1_710_460_800)))
        #expect(
            single("E621E1F8-C36C-495A-93FC-0C247A3E6E5F", .uuid)
                == .uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!))
    }

    @Test func enumsTakeACaseNameOrARawValue() {
        #expect(single("action", genre) == .int(1))
        #expect(single(".kids", genre) == .int(2))
        #expect(single("3", genre) == .int(3))
        #expect(message("western", genre) == "parameter '$p': 'western' is not a case of 'Genre' (action, kids, horror)")
    }

    @Test func listsAreCommaSeparated() throws {
        #expect(
            try ParameterText.value("[Rent, 'Travel']", as: .list(.string), name: "p")
                == .list([.string("Rent"), .string("Travel")]))
        #expect(try ParameterText.value("", as: .list(.int), name: "p") == .list([]))
        #expect(message("1,x", .list(.int)) == "parameter '$p' needs a value of type 'Int', not 'x'")
    }

    @Test func textThatDoesNotFitIsAnError() {
        #expect(message("ten", .int) == "parameter '$p' needs a value of type 'Int', not 'ten'")
        #expect(message("maybe", .bool) == "parameter '$p' needs a value of type 'Bool', not 'maybe'")
        #expect(message("15/03/2024", .date) == "parameter '$p' needs a value of type 'Date', not '15/03/2024'")
        #expect(message("AA", .data) == "parameter '$p' takes Data as hexadecimal ('0x00ff') or Base64 ('base64:AP8='), not 'AA'")
        #expect(message("0xABC", .data) == "parameter '$p' needs a value of type 'Data', not '0xABC'")
        #expect(
            message("Movie:3", .object("Budget")) == "parameter '$p' takes an object of 'Budget', as 'Budget:3', not 'Movie:3'")
        #expect(
            message("-1", .object("Budget")) == "parameter '$p' takes an object of 'Budget' by its key, as 'Budget:3', not '-1'")
        #expect(message("AA", .opaque("Color")) == "parameter '$p' has type 'Color', which cannot be given as text")
    }

    @Test func bytesAndObjectsReadFromText() throws {
        #expect(try ParameterText.single("0x00fF10", as: .data, name: "p") == .data(Data([0, 255, 16])))
        #expect(try ParameterText.single("base64:AP8=", as: .data, name: "p") == .data(Data([0, 255])))
        #expect(try ParameterText.single("0x", as: .data, name: "p") == .data(Data()))
        for text in ["Budget:3", "#3", "3", "'Budget:3'"] {
            #expect(try ParameterText.single(text, as: .object("Budget"), name: "p") == .int(3), "\(text)")
        }
        #expect(try ParameterText.value("Budget:1, #8", as: .list(.object("Budget")), name: "p") == .list([.int(1), .int(8)]))
    }
}
