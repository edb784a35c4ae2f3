// Output on real data, through the `pq` binary: the object key (`#`) never
// collides with an attribute named `id`; nil is told apart from the empty string
// in every format (`--null`, `.nullvalue`); dates keep their full precision in
// output and in literals; `--columns` and `.columns` choose the columns shown.

import Foundation
import PredicateQuery
import PredicateQuerySQLite
import Testing

@testable import PredicateQueryCLI

struct OutputOptionTests {
    /// Seconds since 2001 of a date with a fraction no millisecond formatter keeps.
    static let preciseDate = 731_764_800.123456

    static let schema = Schema(entities: [
        Entity(
            "Item",
            attributes: [
                Attribute("id", .uuid), Attribute("name", .string, optional: true),
                Attribute("date", .date, optional: true),
            ])
    ])

    /// A store of three items with an `id` attribute: a name, an empty name and
    /// no name; the first has a date with microseconds.
    static func store() throws -> (URL, String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pq-output-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("items.sqlite").path
        let store = try SQLiteStore.create(at: path, schema: schema)
        var graph = ObjectGraph(schema: schema)
        let ids = try ["00000000-0000-4000-8000-00000000000A", "00000000-0000-4000-8000-00000000000B"].map {
            try #require(UUID(uuidString: $0))
        }
        graph.insert(
            "Item",
            [
                "id": .uuid(ids[0]), "name": .string("Lamp"),
                "date": .date(Date(timeIntervalSinceReferenceDate: preciseDate)),
            ])
        graph.insert("Item", ["id": .uuid(ids[1]), "name": .string("")])
        graph.insert("Item", ["id": .uuid(UUID())])
        try store.insert(graph)
        return (directory, path)
    }

    @Test func theKeyNeverCollidesWithAnAttributeNamedID() throws {
        let (directory, path) = try Self.store()
        defer { try? FileManager.default.removeItem(at: directory) }
        let json = try PQProcess.run(["--store", path, "--format", "json", "Item sort by name"])
        #expect(json.status == 0, "\(json.error)")
        for line in json.output.split(separator: "\n") where line.contains("{") {
            #expect(line.components(separatedBy: "\"id\":").count == 2, "one \"id\" key: \(line)")
            #expect(line.components(separatedBy: "\"#\":").count == 2, "one \"#\" key: \(line)")
        }
        let objects = try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]]
        #expect(objects?.compactMap { $0["id"] as? String }.contains("00000000-0000-4000-8000-00000000000A") == true)
        #expect(objects?.compactMap { $0["#"] as? Int }.sorted() == [1, 2, 3])
        let csv = try PQProcess.run(["--store", path, "--format", "csv", "Item"])
        #expect(csv.output.hasPrefix("#,id,name,date\r\n"), "\(csv.output)")
        let table = try PQProcess.run(["--store", path, "Item"])
        #expect(table.output.split(separator: "\n").first?.split(separator: " ") == ["#", "id", "name", "date"])
    }

    @Test func nilIsToldApartFromTheEmptyString() throws {
        let (directory, path) = try Self.store()
        defer { try? FileManager.default.removeItem(at: directory) }
        let rows = ["--store", path, "--columns", "#,name"]
        let table = try PQProcess.run(rows + ["Item"])
        let lines = table.output.split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        #expect(lines.contains("2"), "the empty name prints as nothing: \(lines)")
        #expect(lines.contains("3  nil"), "nil prints as nil: \(lines)")
        let chosen = try PQProcess.run(rows + ["--null", "(null)", "Item"])
        #expect(chosen.output.contains("3  (null)"), "\(chosen.output)")
        let csv = try PQProcess.run(rows + ["--format", "csv", "Item"])
        #expect(csv.output == "#,name\r\n1,Lamp\r\n2,\"\"\r\n3,\r\n")
        let json = try PQProcess.run(rows + ["--format", "json", "Item"])
        #expect(json.output.contains("{\"#\": 2, \"name\": \"\"}") && json.output.contains("{\"#\": 3, \"name\": null}"))
        let markdown = try PQProcess.run(rows + ["--format", "markdown", "Item"])
        #expect(markdown.output.contains("| 2 |  |") && markdown.output.contains("| 3 | nil |"), "\(markdown.output)")
        let repl = try PQProcess.run(["--store", path], input: ".columns # name\n.nullvalue NULL here\nItem where name == nil\n")
        #expect(repl.output.contains("3  NULL here"), "\(repl.output) \(repl.error)")
    }

    @Test func datesKeepTheirFullPrecision() throws {
        let (directory, path) = try Self.store()
        defer { try? FileManager.default.removeItem(at: directory) }
        let json = try PQProcess.run(["--store", path, "--format", "json", "--columns", "date", "Item where name == 'Lamp'"])
        #expect(json.output.contains("\"2024-03-10T12:00:00.123456Z\""), "\(json.output) \(json.error)")
        let table = try PQProcess.run(["--store", path, "--columns", "date", "Item where name == 'Lamp'"])
        #expect(table.output.contains("2024-03-10T12:00:00.123456Z"), "\(table.output)")
        let exact = try PQProcess.run(["--store", path, "--count", "Item where date == '2024-03-10T12:00:00.123456Z'"])
        #expect(exact.output == "1\n", "\(exact.error)")
        let milliseconds = try PQProcess.run(["--store", path, "--count", "Item where date == '2024-03-10T12:00:00.123Z'"])
        #expect(milliseconds.output == "0\n", "\(milliseconds.error)")
        let function = try PQProcess.run(
            ["--store", path, "--count", "Item where date >= date('2024-03-10T13:00:00.1234+01:00')"])
        #expect(function.output == "1\n", "\(function.error)")
    }

    @Test func columnsChooseWhatIsShown() throws {
        let (directory, path) = try Self.store()
        defer { try? FileManager.default.removeItem(at: directory) }
        let csv = try PQProcess.run(["--store", path, "--format", "csv", "--columns", "name, #", "Item sort by name"])
        #expect(csv.output == "name,#\r\n,3\r\n\"\",2\r\nLamp,1\r\n", "\(csv.output)")
        let unknown = try PQProcess.run(["--store", path, "--columns", "nmae", "Item"])
        #expect(unknown.status == 1)
        #expect(unknown.error.contains("Item has no column named 'nmae'; did you mean 'name'?"), "\(unknown.error)")
        #expect(unknown.output.isEmpty)
        let empty = try PQProcess.run(["--store", path, "--columns", ",", "Item"])
        #expect(empty.status == 2 && empty.error.contains("--columns needs column names"))
        let repl = try PQProcess.run(
            ["--store", path], input: ".columns name\nItem where name == 'Lamp'\n.columns\nItem where name == 'Lamp'\n")
        let headers = repl.output.split(separator: "\n").filter { $0.hasPrefix("name") || $0.contains("#  id") }
        #expect(headers.count == 2, "\(repl.output)")
    }

    @Test func columnsCompleteInTheREPL() {
        #expect(
            Completion.candidates(for: "", line: ".columns ", schema: Self.schema, entity: "Item") == ["#", "date", "id", "name"])
        #expect(Completion.candidates(for: "na", line: ".columns na", schema: Self.schema, entity: nil) == ["name"])
        #expect(Completion.candidates(for: ".nu", line: ".nu", schema: Self.schema, entity: nil) == [".nullvalue"])
    }

    @Test func columnsFollowToOneRelationships() throws {
        let gifts = try PQProcess.run([
            "--format", "csv", "--columns", "note,budget.name,budget?.limit",
            "Transaction where budget.name == 'Gifts' sort by amount desc",
        ])
        #expect(gifts.status == 0, "\(gifts.error)")
        let limit = try PQProcess.run(["--format", "csv", "--columns", "limit", "Budget where name == 'Gifts'"])
        let giftsLimit = limit.output.split(separator: "\r\n").last.map(String.init) ?? "?"
        #expect(
            gifts.output
                == "note,budget.name,budget?.limit\r\nBirthday present,Gifts,\(giftsLimit)\r\nFlowers,Gifts,\(giftsLimit)\r\n")
        let none = try PQProcess.run([
            "--columns", "note,budget.name", "Transaction where budget == nil && note == 'Cash withdrawal'",
        ])
        #expect(none.output.contains("Cash withdrawal  nil"), "\(none.output)")
        let misspelt = try PQProcess.run(["--columns", "budget.nme", "Transaction"])
        #expect(misspelt.status == 1)
        #expect(misspelt.error.contains("has no member 'nme'; did you mean 'name'?"), "\(misspelt.error)")
        let toMany = try PQProcess.run(["--columns", "budget.transactions.note", "Transaction"])
        #expect(toMany.status == 1 && toMany.error.contains("to-many relationship 'transactions'"), "\(toMany.error)")
    }
}
