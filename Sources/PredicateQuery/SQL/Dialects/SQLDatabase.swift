// The public name of each SQL dialect.

/// The databases pq lowers queries for. A store names its database on its mapping
/// (`StoreMapping.database`), which picks the `SQLDialect` its queries are lowered
/// and rendered in; nothing else asks which database it is.
public enum SQLDatabase: String, Sendable, Hashable, Codable {
    /// SQLite, with pq's SQL functions registered on the connection.
    case sqlite
    /// PostgreSQL.
    case postgreSQL

    /// The dialect queries for this database are lowered and rendered in.
    var dialect: any SQLDialect {
        switch self {
        case .sqlite: SQLiteDialect()
        case .postgreSQL: PostgreSQLDialect()
        }
    }
}
