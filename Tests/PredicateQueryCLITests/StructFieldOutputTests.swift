// A SwiftData Codable struct that the store keeps one column per field (issue 12):
// queried by path, and shown nested in JSON, by field in tables and CSV.

import Foundation
import PredicateQueryTestSupport
import Testing

@testable import PredicateQuerySQLite

struct StructFieldOutputTests {
    static let model = """
        import SwiftData

        @Model final class Cocktail {
            @Attribute(.unique) var id: UUID
            var name: String
            var author: Author?
            var garnishes: [String] = []
        }

        struct Author: Codable {
            var id: String
            var person: String
            var place: String
            var year: Int
        }
        """

    /// A Core Data store as SwiftData writes `Cocktail`: `ZID` is the author's id and
    /// `ZID1` the cocktail's own (clashes are numbered by property name, `author`
    /// before `id`, as real stores show: see the corpus README), no `ZAUTHOR` column.
    private func store(in folder: URL) throws -> (store: String, model: String) {
        let path = folder.appendingPathComponent("Cocktails.sqlite").path
        // `[String]` as SwiftData keeps it: a binary property list in one BLOB column.
        let garnishes = try PropertyListSerialization.data(
            fromPropertyList: ["orange peel", "ice"], format: .binary, options: 0
        ).map { String(format: "%02X", $0) }.joined()
        let connection = try SQLiteConnection(path: path, readOnly: false, create: true)
        try connection.execute(
            """
            CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
            CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
            INSERT INTO Z_PRIMARYKEY VALUES (1, 'Cocktail', 0, 2);
            CREATE TABLE ZCOCKTAIL (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZYEAR INTEGER,
                ZID VARCHAR, ZID1 BLOB, ZNAME VARCHAR, ZPERSON VARCHAR, ZPLACE VARCHAR, ZGARNISHES BLOB);
            INSERT INTO ZCOCKTAIL VALUES
                (1, 1, 1, 1922, 'a1', x'E621E1F8C36C495A93FC0C247A3E6E5F', 'Negroni', 'Camillo', 'Florence', x'\(garnishes)');
            INSERT INTO ZCOCKTAIL VALUES
                (2, 1, 1, NULL, NULL, x'00000000000000000000000000000000', 'Spritz', NULL, NULL, NULL);
            """)
        let model = folder.appendingPathComponent("Cocktail.swift").path
        try Self.model.write(toFile: model, atomically: true, encoding: .utf8)
        return (path, model)
    }

    @Test func aStructStoredByFieldIsQueriedByPathAndShownNested() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pq-struct-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (store, model) = try store(in: folder)
        let json = try PQProcess.run(["--store", store, "--model", model, "--format", "json", "author.person == 'Camillo'"])
        #expect(json.status == 0, "\(json.error)")
        #expect(
            json.output == """
                [
                  {"#": 1, "id": "E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "name": "Negroni", "author": {"id": "a1", "person": "Camillo", "place": "Florence", "year": 1922}, "garnishes": ["orange peel", "ice"]}
                ]

                """)
        let csv = try PQProcess.run(["--store", store, "--model", model, "--format", "csv", "author.person == nil"])
        #expect(csv.status == 0, "\(csv.error)")
        #expect(
            csv.output == "#,id,name,author.id,author.person,author.place,author.year,garnishes\r\n"
                + "2,00000000-0000-0000-0000-000000000000,Spritz,,,,,\r\n")
        // An array of values takes nil tests and shows what it holds.
        let table = try PQProcess.run(["--store", store, "--model", model, "--columns", "name,garnishes", "garnishes != nil"])
        #expect(table.status == 0, "\(table.error)")
        #expect(table.output.contains("Negroni  [\"orange peel\", \"ice\"]"), "\(table.output)")
        #expect(!table.output.contains("Spritz"))
    }
}
