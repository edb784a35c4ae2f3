// PostgreSQL's spelling of the lowered SQL.
//
// The lowering is the same as for SQLite; what differs is spelled here: `$n`
// placeholders, `IS NOT DISTINCT FROM` for null-safe equality, Booleans as
// `true`/`false` (SQLite's conditions are 0 and 1), `strpos` for `instr`, REAL as
// `double precision`, strings compared and sorted by code point (`COLLATE "C"`,
// which is SQLite's BINARY on UTF-8, whatever the database's own collation), and
// nils placed explicitly (PostgreSQL sorts them last when ascending, pq first).
// What PostgreSQL cannot answer as pq does is refused before this runs
// (`PostgreSQLSupport`).

/// PostgreSQL: identifiers in double quotes, `$n` placeholders.
struct PostgreSQLDialect: SQLDialect {
    func quote(_ identifier: String) -> String { SQLIdentifier.quoted(identifier) }
    func appendQuoted(_ identifier: String, to bytes: inout [UInt8]) { SQLIdentifier.appendQuoted(identifier, to: &bytes) }

    func placeholder(_ index: Int) -> String { "$\(index + 1)" }

    func function(_ name: String) -> String {
        switch name {
        case "instr": "strpos"
        default: name
        }
    }

    var unlimited: String? { nil }

    func binaryOperator(_ op: String) -> String {
        switch op {
        case "IS": "IS NOT DISTINCT FROM"
        case "IS NOT": "IS DISTINCT FROM"
        default: op
        }
    }

    func truth(_ value: Bool) -> String { value ? "true" : "false" }

    var doubleType: String { "double precision" }

    var stringCollation: String? { "C" }

    var placesNilsExplicitly: Bool { true }

    /// Dates are `timestamptz`, whole microseconds: computed ones are pq's Double
    /// seconds since 2001 (`SQLLowering+DatesAsSeconds`).
    var computesDatesAsSeconds: Bool { true }

    /// PostgreSQL has no empty `IN ()`.
    var acceptsEmptyInList: Bool { false }

    /// What PostgreSQL cannot answer as pq does is refused (`PostgreSQLSupport`).
    func checkSupported(_ query: CheckedQuery) throws(LoweringError) {
        try PostgreSQLSupport.check(query)
    }
}
