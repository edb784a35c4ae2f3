// A Double stored as NaN is nil on PostgreSQL, as it is in pq and on SQLite.
//
// SQLite stores NaN as NULL. PostgreSQL's `double precision`, `real` and `numeric`
// columns hold it (in a database pq did not create, or one an earlier pq wrote NaN
// into), and PostgreSQL orders NaN above every number and equal to itself (both in
// `double precision` and in `numeric`): read as it is, `amount > 5` would
// return it, `amount == nil` miss it and sorting put it last. So every read of a
// Double attribute's column is `NULLIF(c, 'NaN')` (`SQLExpr.storedDouble`; the
// untyped literal takes the column's own type, so a `real` or `numeric` column is
// compared as before). Where that would cost an index on a plain test, an
// equivalent form reads the column itself. What the column is tested against is
// never NaN: a NaN parameter is bound as nil (`BindingResolver.check`), a NaN
// computed by pq's arithmetic or aggregates is made nil (`NULLIF`), and every
// other Double column read is `NULLIF`'d. So where the column holds NaN:
//
// - `c < v`, `c <= v` and `c = v` are false (NaN is above v, and unequal to it),
//   as they are with nil (NULL, which stands for false where such a test stands;
//   the exact form under `!` makes both false);
// - `c > v` and `c >= v` would hold, and become `c > v AND c < 'NaN'`, still a
//   range of an index on c;
// - `c IN (…)` and `c BETWEEN lo AND hi` (or `c >= lo AND c < hi`) are false;
// - `c == nil` is `c IS NULL OR c = 'NaN'`, each answered from an index.
//
// The rest — sorting, `!=` and `==` where nil may be on either side (`IS [NOT]
// DISTINCT FROM`, which no index answers), arithmetic, aggregates — reads
// `NULLIF(c, 'NaN')`. An equality with a parameter is lowered again once its value
// is known (`SQLLowering.comparison`): `c = $1` for a value, `NULLIF` for nil.

extension PostgreSQLDialect {
    func storedDouble(_ column: SQLExpr) -> SQLExpr { .storedDouble(column) }

    func comparison(_ lhs: SQLExpr, _ op: String, _ rhs: SQLExpr) -> SQLExpr {
        guard ["=", "<", "<=", ">", ">="].contains(op) else { return .binary(lhs, op, rhs) }
        switch (lhs, rhs) {
        case (.storedDouble(let column), _):
            return Self.excludingNotANumber(.binary(column, op, rhs), column, if: op == ">" || op == ">=")
        case (_, .storedDouble(let column)):
            return Self.excludingNotANumber(.binary(lhs, op, column), column, if: op == "<" || op == "<=")
        default:
            return .binary(lhs, op, rhs)
        }
    }

    func nilTest(_ operand: SQLExpr) -> SQLExpr {
        guard case .storedDouble(let column) = operand else { return .isNull(operand) }
        return .or([.isNull(column), .binary(column, "=", .storedNotANumber)])
    }

    func testedValue(_ operand: SQLExpr) -> SQLExpr {
        guard case .storedDouble(let column) = operand else { return operand }
        return column
    }

    /// `test AND column < 'NaN'` where the test holds for a stored NaN (which is
    /// above every number), else the test alone.
    private static func excludingNotANumber(_ test: SQLExpr, _ column: SQLExpr, if holdsForNaN: Bool) -> SQLExpr {
        holdsForNaN ? .and([test, .binary(column, "<", .storedNotANumber)]) : test
    }
}
