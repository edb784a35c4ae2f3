// Layout discovery on fixture stores, one per layout fact of the corpus README:
// each property must read its own column, as hand-written SQL on the same store
// says, and what pq cannot be sure of is refused with the candidates named.

import Foundation
import PredicateQuery
import PredicateQueryExamples
import Testing

@testable import PredicateQuerySQLite

struct CoreDataLayoutDiscoveryTests {
    /// Notes-like: four sibling sub-entities of `Object` in one table, each with a
    /// `title`. Rule order (entity number) would give Folder `ZTITLE`; the data says
    /// `ZTITLE` holds Note's titles, `ZTITLE1` Folder's, `ZTITLE2` Attachment's, and
    /// `ZTITLE3` nothing at all (Account's, whichever it is).
    static let siblings = Schema(entities: [
        Entity("Object", attributes: [Attribute("created", .date, optional: true)], abstract: true),
        Entity("Folder", attributes: [Attribute("title", .string, optional: true)], parent: "Object"),
        Entity("Note", attributes: [Attribute("title", .string, optional: true)], parent: "Object"),
        Entity("Attachment", attributes: [Attribute("title", .string, optional: true)], parent: "Object"),
        Entity("Account", attributes: [Attribute("title", .string, optional: true)], parent: "Object"),
    ])

    static let siblingEntities = [(1, "Object", 0), (2, "Folder", 1), (3, "Note", 1), (4, "Attachment", 1), (5, "Account", 1)]

    static let siblingTable = """
        CREATE TABLE ZOBJECT (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCREATED TIMESTAMP,
            ZTITLE VARCHAR, ZTITLE1 VARCHAR, ZTITLE2 VARCHAR, ZTITLE3 VARCHAR);
        INSERT INTO ZOBJECT VALUES (1, 2, 1, 0, NULL, 'Inbox', NULL, NULL);
        INSERT INTO ZOBJECT VALUES (2, 2, 1, 0, NULL, 'Archive', NULL, NULL);
        INSERT INTO ZOBJECT VALUES (3, 3, 1, 0, 'Groceries', NULL, NULL, NULL);
        INSERT INTO ZOBJECT VALUES (4, 3, 1, 0, 'Inbox', NULL, NULL, NULL);
        INSERT INTO ZOBJECT VALUES (5, 3, 1, 0, NULL, NULL, NULL, NULL);
        INSERT INTO ZOBJECT VALUES (6, 4, 1, 0, NULL, NULL, 'photo.jpg', NULL);
        INSERT INTO ZOBJECT VALUES (7, 5, 1, 0, NULL, NULL, NULL, NULL);
        """

    @Test func numberedSiblingColumnsAreAttributedFromTheirData() throws {
        let fixture = try CoreDataFixture(entities: Self.siblingEntities, Self.siblingTable)
        let store = try fixture.open(Self.siblings)
        #expect(store.mapping.entity("Note")?.columns["title"] == "ZTITLE")
        #expect(store.mapping.entity("Folder")?.columns["title"] == "ZTITLE1")
        #expect(store.mapping.entity("Attachment")?.columns["title"] == "ZTITLE2")
        #expect(store.mapping.entity("Account")?.columns["title"] == "ZTITLE3")
        #expect(store.warnings.isEmpty, "\(store.warnings)")
        for (entity, number, column) in [("Note", 3, "ZTITLE"), ("Folder", 2, "ZTITLE1"), ("Attachment", 4, "ZTITLE2")] {
            #expect(
                try store.count("\(entity) where title != nil")
                    == store.integers("SELECT count(*) FROM ZOBJECT WHERE Z_ENT = \(number) AND \(column) IS NOT NULL")[0])
            #expect(
                try store.keys("\(entity) where title == 'Inbox'")
                    == store.integers("SELECT Z_PK FROM ZOBJECT WHERE Z_ENT = \(number) AND \(column) = 'Inbox'"))
        }
        #expect(try store.count("Note where title != nil") == 2)
        #expect(try store.count("Object where TRUEPREDICATE") == 7)
    }

    /// pq's own stores number sibling columns as Core Data does, so discovery reads
    /// them back with the columns pq created them with.
    @Test func storesPQCreatesNumberSiblingColumnsAndReadBackTheSame() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("Siblings.sqlite")
        var graph = ObjectGraph(schema: Self.siblings)
        for (entity, title) in [("Folder", "Inbox"), ("Note", "Inbox"), ("Note", "Groceries"), ("Attachment", "a.jpg")] {
            graph.insert(entity, ["title": .string(title)])
        }
        let created = try SQLiteStore.create(at: path, schema: Self.siblings)
        try created.insert(graph)
        let columns = Set(
            ["Account", "Attachment", "Folder", "Note"].compactMap { created.mapping.entity($0)?.columns["title"] })
        #expect(columns == ["ZTITLE", "ZTITLE1", "ZTITLE2", "ZTITLE3"])
        try created.execute("DROP TABLE PQ_SCHEMA")
        let reopened = try SQLiteStore.open(at: path, schema: Self.siblings)
        #expect(reopened.warnings.isEmpty, "\(reopened.warnings)")
        for entity in ["Folder", "Note", "Attachment"] {
            #expect(reopened.mapping.entity(entity)?.columns == created.mapping.entity(entity)?.columns, "\(entity)")
            #expect(try reopened.keys("\(entity) where title == 'Inbox'") == created.keys("\(entity) where title == 'Inbox'"))
            #expect(try reopened.count("\(entity) where title != nil") == created.count("\(entity) where title != nil"))
        }
        #expect(try reopened.count("Note where title != nil") == 2)
    }

    @Test func siblingColumnsWhoseDataConflictsAreRefusedWithTheCandidates() throws {
        let fixture = try CoreDataFixture(
            entities: Self.siblingEntities,
            Self.siblingTable + "UPDATE ZOBJECT SET ZTITLE1 = 'Mixed' WHERE Z_PK = 3;")
        let message = try #require(fixture.refusal(Self.siblings))
        #expect(
            message
                == "the store does not match the model: cannot tell whose column ZTITLE1 of table ZOBJECT is: it holds values of entities 2, 3, claimed by Folder.title, Note.title (candidates ZTITLE, ZTITLE1, ZTITLE2, ZTITLE3)"
        )
        #expect(message.contains("ZTITLE1 of table ZOBJECT"), "\(message)")
        #expect(message.contains("Folder.title") && message.contains("Note.title"), "\(message)")
        #expect(message.contains("candidates ZTITLE, ZTITLE1, ZTITLE2, ZTITLE3"), "\(message)")
    }

    @Test func aSiblingWithTwoColumnsOfDataIsRefused() throws {
        let fixture = try CoreDataFixture(
            entities: Self.siblingEntities,
            Self.siblingTable + "UPDATE ZOBJECT SET ZTITLE3 = 'Second' WHERE Z_PK = 1;")
        let message = try #require(fixture.refusal(Self.siblings))
        #expect(message.contains("Folder.title: both ZTITLE1 and ZTITLE3"), "\(message)")
    }

    /// Notes' `ZACCOUNT` … `ZACCOUNT8`: to-one keys of sibling sub-entities are
    /// numbered too, and settled by their data; `Z3_ACCOUNT`, the entity number of
    /// the destination Core Data keeps beside a key into a shared table, is accounted for.
    @Test func numberedToOneKeysAreAttributedFromTheirData() throws {
        let schema = Schema(entities: [
            Entity("Object", abstract: true),
            Entity("Folder", relationships: [Relationship("account", to: "Account")], parent: "Object"),
            Entity("Note", relationships: [Relationship("account", to: "Account")], parent: "Object"),
            Entity("Account", attributes: [Attribute("name", .string, optional: true)], parent: "Object"),
        ])
        let fixture = try CoreDataFixture(
            entities: [(1, "Object", 0), (2, "Folder", 1), (3, "Note", 1), (4, "Account", 1)],
            """
            CREATE TABLE ZOBJECT (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZACCOUNT INTEGER,
                Z4_ACCOUNT INTEGER, ZACCOUNT1 INTEGER, ZNAME VARCHAR);
            INSERT INTO ZOBJECT VALUES (1, 4, 1, NULL, NULL, NULL, 'home'), (2, 4, 1, NULL, NULL, NULL, 'work');
            INSERT INTO ZOBJECT VALUES (3, 2, 1, NULL, NULL, 2, NULL), (4, 2, 1, NULL, NULL, 1, NULL);
            INSERT INTO ZOBJECT VALUES (5, 3, 1, 1, 4, NULL, NULL), (6, 3, 1, 1, 4, NULL, NULL), (7, 3, 1, 2, 4, NULL, NULL);
            """)
        let store = try fixture.open(schema)
        #expect(store.warnings.isEmpty, "\(store.warnings)")
        #expect(store.mapping.relationship("account", of: "Note") == .foreignKey(column: "ZACCOUNT"))
        #expect(store.mapping.relationship("account", of: "Folder") == .foreignKey(column: "ZACCOUNT1"))
        #expect(
            try store.keys("Note where account.name == 'home'")
                == store.integers(
                    "SELECT n.Z_PK FROM ZOBJECT n JOIN ZOBJECT a ON a.Z_PK = n.ZACCOUNT WHERE n.Z_ENT = 3 AND a.ZNAME = 'home'"))
        #expect(
            try store.keys("Folder where account.name == 'work'")
                == store.integers(
                    "SELECT f.Z_PK FROM ZOBJECT f JOIN ZOBJECT a ON a.Z_PK = f.ZACCOUNT1 WHERE f.Z_ENT = 2 AND a.ZNAME = 'work'"))
        #expect(try store.keys("Folder where account.name == 'work'") == [3])
    }

    /// MeWe's `ChatMessage.stickers`: no inverse, so a hidden key `Z1STICKERS` in
    /// the sticker table; ordered, so `Z_FOK_1STICKERS` beside it.
    @Test func toManyWithNoInverseIsAHiddenKeyAndOrderColumnsAreAccountedFor() throws {
        let schema = Schema(entities: [
            Entity(
                "ChatMessage", attributes: [Attribute("text", .string, optional: true)],
                relationships: [ordered(Relationship("stickers", toMany: "Sticker"))]),
            Entity("Sticker", attributes: [Attribute("name", .string, optional: true)]),
        ])
        let fixture = try CoreDataFixture(
            entities: [(1, "ChatMessage", 0), (2, "Sticker", 0)],
            """
            CREATE TABLE ZCHATMESSAGE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTEXT VARCHAR);
            CREATE TABLE ZSTICKER (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, Z1STICKERS INTEGER,
                Z_FOK_1STICKERS INTEGER, ZNAME VARCHAR);
            INSERT INTO ZCHATMESSAGE VALUES (1, 1, 1, 'hi'), (2, 1, 1, 'yo'), (3, 1, 1, 'bye');
            INSERT INTO ZSTICKER VALUES (1, 2, 1, 1, 1, 'cat'), (2, 2, 1, 1, 2, 'dog'), (3, 2, 1, 2, 1, 'cat'),
                (4, 2, 1, NULL, NULL, 'owl');
            """)
        let store = try fixture.open(schema)
        #expect(store.mapping.relationship("stickers", of: "ChatMessage") == .inverseForeignKey(column: "Z1STICKERS"))
        #expect(store.warnings.isEmpty, "\(store.warnings)")
        #expect(
            try store.keys("ChatMessage where stickers.@count >= 2")
                == store.integers("SELECT Z1STICKERS FROM ZSTICKER GROUP BY Z1STICKERS HAVING count(*) >= 2"))
        #expect(
            try store.keys("ChatMessage where any stickers.name == 'cat'")
                == store.integers("SELECT DISTINCT Z1STICKERS FROM ZSTICKER WHERE ZNAME = 'cat'"))
        #expect(try store.keys("ChatMessage where stickers.@count == 0") == [3])
    }

    /// An ordered to-many with a to-one inverse: the key is the inverse's column, the
    /// order column `Z_FOK_CHAT` is accounted for.
    @Test func orderedToManyWithAnInverseReadsTheInversesColumn() throws {
        let schema = Schema(entities: [
            Entity(
                "Chat", attributes: [Attribute("name", .string, optional: true)],
                relationships: [ordered(Relationship("messages", toMany: "Message", inverse: "chat"))]),
            Entity(
                "Message", attributes: [Attribute("text", .string, optional: true)],
                relationships: [Relationship("chat", to: "Chat", inverse: "messages")]),
        ])
        let fixture = try CoreDataFixture(
            entities: [(1, "Chat", 0), (2, "Message", 0)],
            """
            CREATE TABLE ZCHAT (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR);
            CREATE TABLE ZMESSAGE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCHAT INTEGER,
                Z_FOK_CHAT INTEGER, ZTEXT VARCHAR);
            INSERT INTO ZCHAT VALUES (1, 1, 1, 'family'), (2, 1, 1, 'work');
            INSERT INTO ZMESSAGE VALUES (1, 2, 1, 1, 1, 'a'), (2, 2, 1, 1, 2, 'b'), (3, 2, 1, 2, 1, 'c');
            """)
        let store = try fixture.open(schema)
        #expect(store.warnings.isEmpty, "\(store.warnings)")
        #expect(
            try store.keys("Chat where messages.@count > 1")
                == store.integers("SELECT ZCHAT FROM ZMESSAGE GROUP BY ZCHAT HAVING count(*) > 1"))
        #expect(
            try store.keys("Message where chat.name == 'work'")
                == store.integers("SELECT m.Z_PK FROM ZMESSAGE m JOIN ZCHAT c ON c.Z_PK = m.ZCHAT WHERE c.ZNAME = 'work'"))
    }

    /// Mastodon-like: self-referential pairs with join tables named after the
    /// forward side (`Z_1FOLLOWING`) and after the `…By` side (`Z_1MUTINGBY`), and
    /// two join tables of one entity needing the same column name (`Z_1VOTEDBY1`).
    @Test func joinTablesNamedAfterEitherSideWithSuffixedColumns() throws {
        let user = Entity(
            "User", attributes: [Attribute("name", .string, optional: true)],
            relationships: [
                Relationship("following", toMany: "User", inverse: "followingBy"),
                Relationship("followingBy", toMany: "User", inverse: "following"),
                Relationship("muting", toMany: "User", inverse: "mutingBy"),
                Relationship("mutingBy", toMany: "User", inverse: "muting"),
                Relationship("votePolls", toMany: "Poll", inverse: "votedBy"),
                Relationship("votePollOptions", toMany: "PollOption", inverse: "votedBy"),
            ])
        let schema = Schema(entities: [
            user,
            Entity(
                "Poll", attributes: [Attribute("title", .string, optional: true)],
                relationships: [Relationship("votedBy", toMany: "User", inverse: "votePolls")]),
            Entity(
                "PollOption", attributes: [Attribute("title", .string, optional: true)],
                relationships: [Relationship("votedBy", toMany: "User", inverse: "votePollOptions")]),
        ])
        let fixture = try CoreDataFixture(
            entities: [(1, "User", 0), (2, "Poll", 0), (3, "PollOption", 0)],
            """
            CREATE TABLE ZUSER (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR);
            CREATE TABLE ZPOLL (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTITLE VARCHAR);
            CREATE TABLE ZPOLLOPTION (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTITLE VARCHAR);
            CREATE TABLE Z_1FOLLOWING (Z_1FOLLOWINGBY INTEGER, Z_1FOLLOWING INTEGER, PRIMARY KEY (Z_1FOLLOWINGBY, Z_1FOLLOWING));
            CREATE TABLE Z_1MUTINGBY (Z_1MUTING INTEGER, Z_1MUTINGBY INTEGER, PRIMARY KEY (Z_1MUTING, Z_1MUTINGBY));
            CREATE TABLE Z_1VOTEPOLLS (Z_1VOTEDBY INTEGER, Z_2VOTEPOLLS INTEGER, PRIMARY KEY (Z_1VOTEDBY, Z_2VOTEPOLLS));
            CREATE TABLE Z_1VOTEPOLLOPTIONS (Z_1VOTEDBY1 INTEGER, Z_3VOTEPOLLOPTIONS INTEGER,
                PRIMARY KEY (Z_1VOTEDBY1, Z_3VOTEPOLLOPTIONS));
            INSERT INTO ZUSER VALUES (1, 1, 1, 'ann'), (2, 1, 1, 'bob'), (3, 1, 1, 'cy'), (4, 1, 1, 'dee');
            INSERT INTO ZPOLL VALUES (1, 2, 1, 'lunch'), (2, 2, 1, 'trip');
            INSERT INTO ZPOLLOPTION VALUES (1, 3, 1, 'pizza'), (2, 3, 1, 'soup');
            INSERT INTO Z_1FOLLOWING VALUES (1, 2), (1, 3), (2, 3), (4, 1);
            INSERT INTO Z_1MUTINGBY VALUES (3, 1), (3, 2), (2, 4);
            INSERT INTO Z_1VOTEPOLLS VALUES (1, 1), (2, 1), (2, 2);
            INSERT INTO Z_1VOTEPOLLOPTIONS VALUES (2, 1), (3, 2), (4, 2);
            """)
        let store = try fixture.open(schema)
        #expect(store.warnings.isEmpty, "\(store.warnings)")
        #expect(
            store.mapping.relationship("mutingBy", of: "User")
                == .joinTable(table: "Z_1MUTINGBY", sourceColumn: "Z_1MUTING", destinationColumn: "Z_1MUTINGBY"))
        #expect(
            store.mapping.relationship("votePollOptions", of: "User")
                == .joinTable(table: "Z_1VOTEPOLLOPTIONS", sourceColumn: "Z_1VOTEDBY1", destinationColumn: "Z_3VOTEPOLLOPTIONS"))
        // `a following b` is the row (a, b): a's key under the column named after followingBy.
        #expect(
            try store.keys("User where following.@count >= 2")
                == store.integers("SELECT Z_1FOLLOWINGBY FROM Z_1FOLLOWING GROUP BY 1 HAVING count(*) >= 2"))
        #expect(
            try store.keys("User where any followingBy.name == 'ann'")
                == store.integers(
                    "SELECT f.Z_1FOLLOWING FROM Z_1FOLLOWING f JOIN ZUSER u ON u.Z_PK = f.Z_1FOLLOWINGBY WHERE u.ZNAME = 'ann'"))
        #expect(
            try store.keys("User where muting.@count >= 1")
                == store.integers("SELECT DISTINCT Z_1MUTINGBY FROM Z_1MUTINGBY"))
        #expect(
            try store.keys("User where any mutingBy.name == 'cy'")
                == store.integers(
                    "SELECT m.Z_1MUTING FROM Z_1MUTINGBY m JOIN ZUSER u ON u.Z_PK = m.Z_1MUTINGBY WHERE u.ZNAME = 'cy'"))
        #expect(
            try store.keys("Poll where votedBy.@count >= 2")
                == store.integers("SELECT Z_2VOTEPOLLS FROM Z_1VOTEPOLLS GROUP BY 1 HAVING count(*) >= 2"))
        #expect(
            try store.keys("User where any votePollOptions.title == 'soup'")
                == store.integers(
                    "SELECT v.Z_1VOTEDBY1 FROM Z_1VOTEPOLLOPTIONS v JOIN ZPOLLOPTION o ON o.Z_PK = v.Z_3VOTEPOLLOPTIONS WHERE o.ZTITLE = 'soup'"
                ))
        #expect(try store.keys("User where any votePollOptions.title == 'soup'") == [3, 4])
    }

    @Test func twoJoinTablesThatBothFitAreRefused() throws {
        let schema = Schema(entities: [
            Entity(
                "User",
                relationships: [
                    Relationship("following", toMany: "User", inverse: "followingBy"),
                    Relationship("followingBy", toMany: "User", inverse: "following"),
                ])
        ])
        let fixture = try CoreDataFixture(
            entities: [(1, "User", 0)],
            """
            CREATE TABLE ZUSER (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER);
            CREATE TABLE Z_1FOLLOWING (Z_1FOLLOWINGBY INTEGER, Z_1FOLLOWING INTEGER);
            CREATE TABLE Z_1FOLLOWINGBY (Z_1FOLLOWINGBY INTEGER, Z_1FOLLOWING INTEGER);
            """)
        #expect(
            fixture.refusal(schema)
                == "the store does not match the model: User.following: both join tables Z_1FOLLOWING and Z_1FOLLOWINGBY fit; cannot tell which holds it"
        )
    }

    /// A SwiftData `Cocktail` with `var author: Author?` (fields id, person, place,
    /// year) and its own `id`: columns `ZID` (the author's id: clashes are numbered by
    /// the owning properties' names, `author` before `id`, as real stores show — the
    /// corpus README), `ZID1` (the cocktail's UUID), `ZPERSON`, `ZPLACE`, `ZYEAR`, and
    /// no `ZAUTHOR`.
    @Test func compositeAttributesAreAColumnPerField() throws {
        let fixture = try CoreDataFixture(
            entities: [(1, "Cocktail", 0)],
            """
            CREATE TABLE ZCOCKTAIL (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZYEAR INTEGER,
                ZID VARCHAR, ZID1 BLOB, ZNAME VARCHAR, ZPERSON VARCHAR, ZPLACE VARCHAR);
            INSERT INTO ZCOCKTAIL VALUES (1, 1, 1, 1922, 'a1', x'01', 'Negroni', 'Camillo', 'Florence');
            INSERT INTO ZCOCKTAIL VALUES (2, 1, 1, NULL, NULL, x'02', 'Spritz', NULL, NULL);
            """)
        let store = try fixture.open(Self.cocktails)
        #expect(store.warnings.isEmpty, "\(store.warnings)")
        let columns = store.mapping.entity("Cocktail")?.columns ?? [:]
        #expect(columns["id"] == "ZID1")
        #expect(columns["author"] == nil)
        #expect(columns["author.id"] == "ZID")
        #expect(columns["author.person"] == "ZPERSON")
        #expect(columns["author.year"] == "ZYEAR")
        #expect(
            try store.keys("Cocktail where name beginswith 'N'")
                == store.integers("SELECT Z_PK FROM ZCOCKTAIL WHERE ZNAME LIKE 'N%'"))
        #expect(
            try store.keys("Cocktail where author.person == 'Camillo'")
                == store.integers("SELECT Z_PK FROM ZCOCKTAIL WHERE ZPERSON = 'Camillo'"))
        #expect(
            try store.keys("Cocktail where author.id == 'a1' && author.year > 1900")
                == store.integers("SELECT Z_PK FROM ZCOCKTAIL WHERE ZID = 'a1' AND ZYEAR > 1900"))
        #expect(try store.keys("Cocktail where author.person == nil") == [2])
    }

    static let cocktails = Schema(
        entities: [
            Entity(
                "Cocktail",
                attributes: [
                    Attribute("id", .uuid), Attribute("name", .string),
                    Attribute("author", .named("Author"), optional: true),
                ])
        ],
        composites: [
            CompositeType(
                "Author",
                fields: [
                    Attribute("id", .string), Attribute("person", .string), Attribute("place", .string),
                    Attribute("year", .integer(bits: 64)),
                ])
        ])

    /// The order is the properties' names, not the source's: `IngredientBase` declares
    /// `id` before `prep` (a struct with a field `id`), and `id` keeps `ZID`; the two
    /// columns are both UUIDs, so only the rule tells them apart, and the data
    /// confirms it (the required `id` is never nil, the optional prep's often).
    @Test func clashesAreNumberedByPropertyNameWhenTypesCannotTell() throws {
        let schema = Schema(
            entities: [
                Entity(
                    "IngredientBase",
                    attributes: [Attribute("prep", .named("Prep"), optional: true), Attribute("id", .uuid)])
            ],
            composites: [CompositeType("Prep", fields: [Attribute("id", .uuid), Attribute("minutes", .integer(bits: 64))])])
        let fixture = try CoreDataFixture(
            entities: [(1, "IngredientBase", 0)],
            """
            CREATE TABLE ZINGREDIENTBASE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER,
                ZMINUTES INTEGER, ZID BLOB, ZID1 BLOB);
            INSERT INTO ZINGREDIENTBASE VALUES (1, 1, 1, 5, x'0A', x'B1');
            INSERT INTO ZINGREDIENTBASE VALUES (2, 1, 1, NULL, x'0B', NULL);
            INSERT INTO ZINGREDIENTBASE VALUES (3, 1, 1, NULL, x'0C', NULL);
            """)
        let store = try fixture.open(schema)
        let columns = store.mapping.entity("IngredientBase")?.columns ?? [:]
        #expect(columns["id"] == "ZID")
        #expect(columns["prep.id"] == "ZID1")
        #expect(try store.keys("IngredientBase where prep.id == nil") == [2, 3])
    }

    /// Where the data disagrees with the rule, the store is refused, naming the
    /// claimants and the candidates: the columns' types the other way round (a store
    /// laid out as pq once believed, `ZID` the UUID), or nil in the column of a
    /// property that cannot be nil.
    @Test func clashesTheDataContradictsAreRefused() throws {
        let swappedTypes = try CoreDataFixture(
            entities: [(1, "Cocktail", 0)],
            """
            CREATE TABLE ZCOCKTAIL (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZYEAR INTEGER,
                ZID BLOB, ZID1 VARCHAR, ZNAME VARCHAR, ZPERSON VARCHAR, ZPLACE VARCHAR);
            INSERT INTO ZCOCKTAIL VALUES (1, 1, 1, 1922, x'01', 'a1', 'Negroni', 'Camillo', 'Florence');
            """)
        #expect(
            swappedTypes.refusal(Self.cocktails)
                == "the store does not match the model: the columns of table ZCOCKTAIL do not hold Cocktail.author.id, Cocktail.id as Core Data numbers a clash (by property name, alphabetically): ZID is BLOB, not VARCHAR as Cocktail.author.id needs; ZID1 is VARCHAR, not BLOB as Cocktail.id needs (candidates ZID, ZID1)"
        )
        let nilInRequired = try CoreDataFixture(
            entities: [(1, "Cocktail", 0)],
            """
            CREATE TABLE ZCOCKTAIL (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZYEAR INTEGER,
                ZID BLOB, ZID1 BLOB, ZNAME VARCHAR, ZPERSON VARCHAR, ZPLACE VARCHAR);
            INSERT INTO ZCOCKTAIL VALUES (1, 1, 1, 1922, x'01', NULL, 'Negroni', 'Camillo', 'Florence');
            """)
        let schema = Schema(
            entities: Self.cocktails.entities,
            composites: [CompositeType("Author", fields: [Attribute("id", .uuid), Attribute("person", .string), Attribute("place", .string), Attribute("year", .integer(bits: 64))])])
        #expect(
            nilInRequired.refusal(schema)
                == "the store does not match the model: the columns of table ZCOCKTAIL do not hold Cocktail.author.id, Cocktail.id as Core Data numbers a clash (by property name, alphabetically): ZID1 has nil in rows of Cocktail.id, which cannot be nil (candidates ZID, ZID1)"
        )
    }

    /// pq's own stores keep a Codable struct whole: its fields are refused with a reason.
    @Test func fieldsOfAStructKeptWholeAreRefused() throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore.create(at: directory.path("Tags.sqlite"), schema: ExampleSchemas.snippetBox)
        let result = store.compile("Tag where colorData.red > 0.5")
        #expect(result.compiled == nil)
        #expect(
            result.diagnostics.map(\.message) == [
                "the store keeps 'Tag.colorData' whole in one column, so its fields cannot be compared one by one; test it with '== nil' or '!= nil'"
            ])
    }

    /// CoreDataPlus V2: the model renames `ExpensiveSportCar` to `LuxuryCar`; the
    /// store keeps the old name in `Z_PRIMARYKEY`.
    @Test func aRenamedEntityIsFoundByItsOriginalName() throws {
        let schema = Schema(entities: [
            Entity("Car", attributes: [Attribute("model", .string, optional: true)]),
            Entity("SportCar", parent: "Car"),
            Entity("LuxuryCar", parent: "SportCar", originalName: "ExpensiveSportCar"),
        ])
        let fixture = try CoreDataFixture(
            entities: [(1, "Car", 0), (2, "SportCar", 1), (3, "ExpensiveSportCar", 2)],
            """
            CREATE TABLE ZCAR (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZMODEL VARCHAR);
            INSERT INTO ZCAR VALUES (1, 1, 1, 'a'), (2, 2, 1, 'b'), (3, 3, 1, 'c'), (4, 3, 1, 'd'), (5, 2, 1, 'e');
            """)
        let store = try fixture.open(schema)
        #expect(store.mapping.entityNumbers["LuxuryCar"] == 3)
        #expect(
            try store.count("LuxuryCar where TRUEPREDICATE") == store.integers("SELECT count(*) FROM ZCAR WHERE Z_ENT = 3")[0])
        #expect(
            try store.count("SportCar where TRUEPREDICATE")
                == store.integers("SELECT count(*) FROM ZCAR WHERE Z_ENT IN (2, 3)")[0])
        #expect(try store.keys("LuxuryCar where model == 'd'") == [4])
    }

    @Test func columnsNoPropertyAccountsForAreReported() throws {
        let schema = Schema(entities: [Entity("Car", attributes: [Attribute("model", .string, optional: true)])])
        let fixture = try CoreDataFixture(
            entities: [(1, "Car", 0)],
            """
            CREATE TABLE ZCAR (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZMODEL VARCHAR, ZLEGACY INTEGER);
            INSERT INTO ZCAR VALUES (1, 1, 1, 'a', 7), (2, 1, 1, 'b', NULL);
            """)
        let store = try fixture.open(schema)
        #expect(
            store.warnings == [
                "a column of the store that no property of the model accounts for: ZCAR.ZLEGACY; pq does not read it"
            ])
        #expect(try store.keys("Car where model == 'b'") == store.integers("SELECT Z_PK FROM ZCAR WHERE ZMODEL = 'b'"))
    }

    @Test func aModelEntityTheStoreDoesNotHoldIsAWarning() throws {
        let schema = Schema(entities: [
            Entity(
                "Car", attributes: [Attribute("model", .string, optional: true)],
                relationships: [Relationship("maker", to: "Maker")]),
            Entity("Maker", attributes: [Attribute("name", .string, optional: true)]),
        ])
        let fixture = try CoreDataFixture(
            entities: [(1, "Car", 0)],
            """
            CREATE TABLE ZCAR (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZMAKER INTEGER, ZMODEL VARCHAR);
            INSERT INTO ZCAR VALUES (1, 1, 1, NULL, 'a'), (2, 1, 1, NULL, 'b');
            """)
        let store = try fixture.open(schema)
        #expect(store.warnings == ["the store holds no entity Maker of the model (not in its Z_PRIMARYKEY table); left out"])
        #expect(try store.keys("Car where model != nil") == store.integers("SELECT Z_PK FROM ZCAR WHERE ZMODEL IS NOT NULL"))
    }

    @Test func everyMismatchIsReportedInOneError() throws {
        let schema = Schema(entities: [
            Entity("Car", attributes: [Attribute("model", .string), Attribute("year", .integer(bits: 64))]),
            Entity("Person", attributes: [Attribute("name", .string)]),
        ])
        let fixture = try CoreDataFixture(
            entities: [(1, "Car", 0), (2, "Person", 0)],
            "CREATE TABLE ZCAR (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER);")
        #expect(
            fixture.refusal(schema)
                == "the store does not match the model: it has no table ZPERSON (Person); table ZCAR has no column ZMODEL (Car.model); table ZCAR has no column ZYEAR (Car.year)"
        )
    }

    @Test func arraysOfValuesTakeOnlyNilTests() throws {
        let schema = Schema(entities: [
            Entity("Recipe", attributes: [Attribute("tags", .transformable("[String]"), optional: true)])
        ])
        let fixture = try CoreDataFixture(
            entities: [(1, "Recipe", 0)],
            """
            CREATE TABLE ZRECIPE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTAGS BLOB);
            INSERT INTO ZRECIPE VALUES (1, 1, 1, x'62706c6973743030'), (2, 1, 1, NULL);
            """)
        let store = try fixture.open(schema)
        #expect(try store.keys("Recipe where tags != nil") == store.integers("SELECT Z_PK FROM ZRECIPE WHERE ZTAGS IS NOT NULL"))
        let refused = store.compile("Recipe where tags == 'x'")
        #expect(refused.compiled == nil)
        #expect(refused.diagnostics.map(\.message) == ["values of type '[String]' can only be tested for nil"])
        #expect(refused.diagnostics.first?.notes.contains { $0.message.contains("only '== nil' and '!= nil' apply") } == true)
    }

    private func ordered(_ relationship: Relationship) -> Relationship {
        var relationship = relationship
        relationship.isOrdered = true
        return relationship
    }
}
