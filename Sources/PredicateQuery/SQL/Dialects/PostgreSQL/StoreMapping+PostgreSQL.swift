// A mapping of tables in a PostgreSQL database.

extension StoreMapping {
    /// The mapping, for tables in a PostgreSQL database: its queries are lowered and
    /// rendered in PostgreSQL's dialect. A PostgreSQL store takes every mapping it
    /// opens this way, whether pq stored it or read it from the database's tables.
    public var inPostgreSQL: StoreMapping {
        var mapping = self
        mapping.database = .postgreSQL
        return mapping
    }
}
