// What PostgreSQL's catalog says about one schema's tables, read in a handful of
// queries: tables, their columns with types (domains read as their base type),
// primary and foreign keys, single-column CHECK constraints, and the labels of
// enum types. Introspection (`PostgresIntrospection`) and `--model` matching
// (`PostgresModelMatching`) work from this snapshot; nothing here decides what
// pq makes of it.
//
// The schema is `current_schema()`: the first schema of the session's
// `search_path` that exists (`public` unless the URL says otherwise, as with
// `options=-csearch_path=app`). A search path naming no existing schema is an error.

import Foundation
import PredicateQuery
import PredicateQueryStore

/// One schema's tables as PostgreSQL's catalog describes them.
struct PostgresCatalog {
    /// A column of a table.
    struct Column {
        var name: String
        /// Position in the table (`attnum`), which keys and constraints refer to.
        var number: Int
        var isNotNull: Bool
        /// The type's name (`int4`, `timestamptz`, `_text` for arrays, an enum's name).
        var typeName: String
        /// The type as PostgreSQL prints it (`character varying(40)`, `text[]`).
        var displayType: String
        /// `b` base, `e` enum, `c` composite, `r` range, …; arrays are base types in category `A`.
        var typeKind: String
        var typeCategory: String
        /// The enum type's OID, for `typeKind == "e"`.
        var typeOID: String
    }

    /// A constraint of a table, by column numbers.
    struct Constraint {
        /// `p` primary key, `f` foreign key, `c` check, `u` unique.
        var kind: String
        var name: String
        var columns: [Int]
        /// For a foreign key: the table referred to (its OID) and the columns there.
        var referencedTable: String
        var referencedColumns: [Int]
        /// `pg_get_constraintdef`: the CHECK's expression.
        var definition: String
    }

    struct Table {
        var oid: String
        var name: String
        var columns: [Column]
        var constraints: [Constraint]

        func column(number: Int) -> Column? { columns.first { $0.number == number } }
        var primaryKey: [Column] {
            guard let key = constraints.first(where: { $0.kind == "p" }) else { return [] }
            return key.columns.compactMap(column(number:))
        }
        var foreignKeys: [Constraint] { constraints.filter { $0.kind == "f" } }
    }

    /// The schema read (`public` unless the search path says otherwise).
    var schemaName: String
    var tables: [Table]
    /// Views, materialized views and foreign tables in the schema, which pq does not
    /// read (named in the notes), each with what it is.
    var views: [(name: String, kind: String)]
    /// Each enum type's labels in their declared order, by the type's OID.
    var enumLabels: [String: [String]]

    func table(oid: String) -> Table? { tables.first { $0.oid == oid } }

    /// Reads the catalog of the connection's current schema.
    init(connection: PostgresConnection) throws(StoreError) {
        let current = try connection.query("SELECT current_schema(), current_setting('search_path')")
        guard let row = current.first, row.count == 2 else { throw StoreError("cannot read the database's schema") }
        guard let name = row[0] else {
            throw StoreError(
                "the database has no schema named by its search_path (\(row[1] ?? "")): give an existing one, as in postgresql://…/db?options=-csearch_path%3Dpublic"
            )
        }
        schemaName = name
        let namespace = [PostgresParameter(text: name, type: PostgresValues.text)]
        let relations = try connection.query(
            """
            SELECT c.oid::text, c.relname, c.relkind::text FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = $1 AND c.relkind IN ('r', 'p', 'v', 'm', 'f') AND NOT c.relispartition ORDER BY c.relname
            """, namespace)
        var tables: [Table] = []
        var views: [(name: String, kind: String)] = []
        for relation in relations {
            guard relation.count == 3, let oid = relation[0], let relname = relation[1] else { continue }
            if let kind = ["v": "view", "m": "materialized view", "f": "foreign table"][relation[2] ?? ""] {
                views.append((relname, kind))
            } else {
                tables.append(Table(oid: oid, name: relname, columns: [], constraints: []))
            }
        }
        let columns = try connection.query(
            """
            SELECT a.attrelid::text, a.attname, a.attnum::text, a.attnotnull::text, b.typname,
                   format_type(a.atttypid, a.atttypmod), b.typtype::text, b.typcategory::text, b.oid::text
            FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
            JOIN pg_type t ON t.oid = a.atttypid
            JOIN pg_type b ON b.oid = CASE WHEN t.typtype = 'd' THEN t.typbasetype ELSE t.oid END
            WHERE n.nspname = $1 AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attrelid, a.attnum
            """, namespace)
        var index: [String: Int] = [:]
        for (position, table) in tables.enumerated() { index[table.oid] = position }
        for field in columns {
            guard field.count == 9, let owner = field[0], let position = index[owner], let name = field[1],
                let number = field[2].flatMap({ Int($0) })
            else { continue }
            tables[position].columns.append(
                Column(
                    name: name, number: number, isNotNull: field[3] == "true", typeName: field[4] ?? "",
                    displayType: field[5] ?? "", typeKind: field[6] ?? "", typeCategory: field[7] ?? "",
                    typeOID: field[8] ?? ""))
        }
        let constraints = try connection.query(
            """
            SELECT con.conrelid::text, con.contype::text, con.conname, array_to_string(con.conkey, ','),
                   con.confrelid::text, coalesce(array_to_string(con.confkey, ','), ''), pg_get_constraintdef(con.oid)
            FROM pg_constraint con JOIN pg_class c ON c.oid = con.conrelid JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = $1 AND con.contype IN ('p', 'f', 'c', 'u') ORDER BY con.conrelid, con.conname
            """, namespace)
        func numbers(_ text: String?) -> [Int] { (text ?? "").split(separator: ",").compactMap { Int($0) } }
        for field in constraints {
            guard field.count == 7, let owner = field[0], let position = index[owner], let kind = field[1] else { continue }
            tables[position].constraints.append(
                Constraint(
                    kind: kind, name: field[2] ?? "", columns: numbers(field[3]), referencedTable: field[4] ?? "0",
                    referencedColumns: numbers(field[5]), definition: field[6] ?? ""))
        }
        let labels = try connection.query(
            "SELECT e.enumtypid::text, e.enumlabel FROM pg_enum e ORDER BY e.enumtypid, e.enumsortorder")
        var enumLabels: [String: [String]] = [:]
        for field in labels {
            guard field.count == 2, let type = field[0], let label = field[1] else { continue }
            enumLabels[type, default: []].append(label)
        }
        self.tables = tables
        self.views = views
        self.enumLabels = enumLabels
    }
}
