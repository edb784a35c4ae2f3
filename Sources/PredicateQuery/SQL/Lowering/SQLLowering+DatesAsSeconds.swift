// Date arithmetic where the store's dates are not pq's (`SQLDialect.computesDatesAsSeconds`:
// PostgreSQL), with pq's meaning.
//
// pq's date is a Double of seconds since 2001-01-01 (`SQLiteSemantics`): `d + 1h`
// adds in Double, rounding as Swift does, and dates compare as those Doubles. A
// PostgreSQL store holds dates as `timestamptz`, whole microseconds; its interval
// arithmetic would not round as pq does. So wherever a date is computed, every date
// taking part (the computed one and whatever it is compared, listed or coalesced
// with) is lowered to pq's Double: `CAST(EXTRACT(EPOCH FROM d) - 978307200 AS double
// precision)`, whose EXTRACT is an exact numeric (PostgreSQL 14 and later) and whose
// cast rounds once, correctly, as pq's own conversion of a microsecond count does.
// The duration is added in `double precision` with the guards of pq's other Double
// arithmetic (`PostgreSQLDialect+Numbers`), and nil stays NULL throughout. Dates
// compared with dates that are not computed keep their `timestamptz` form, so an
// index on the column still applies.

extension TypedExpr {
    /// Whether this date is computed by date arithmetic (through `??` or `@min`/`@max`),
    /// so PostgreSQL must compare it as pq's Double of seconds since 2001.
    var isComputedDate: Bool {
        switch self {
        case .arithmetic(_, _, _, .date): true
        case .coalesce(let lhs, let rhs, .date): lhs.isComputedDate || rhs.isComputedDate
        case .aggregate(.min, _, _, let value?, _), .aggregate(.max, _, _, let value?, _):
            value.type == .date && value.isComputedDate
        default: false
        }
    }
}

extension SQLLowering {
    /// Whether these operands (compared, listed or ranged together) are dates, one of
    /// them computed, in a dialect that computes dates as Doubles.
    func comparesDatesAsSeconds(_ operands: [TypedExpr]) -> Bool {
        dialect.computesDatesAsSeconds && operands.contains { $0.type == .date && $0.isComputedDate }
    }

    /// A value, or, with `asSeconds`, a date as pq's Double of seconds since 2001.
    mutating func value(_ expr: TypedExpr, asSeconds: Bool) throws(LoweringError) -> (SQLExpr, nullable: Bool) {
        guard asSeconds, expr.type == .date else { return try value(expr) }
        let (lowered, nullable) = try value(expr)
        return (expr.isComputedDate ? lowered : .secondsSince2001(lowered), nullable)
    }

    /// `date ± duration` (or `duration + date`) in Double seconds since 2001, as pq adds.
    mutating func dateArithmeticInSeconds(
        _ op: ArithmeticOperator, _ lhs: TypedExpr, _ rhs: TypedExpr
    ) throws(LoweringError) -> SQLExpr {
        let (left, _) = try value(lhs, asSeconds: true)
        let (right, _) = try value(rhs, asSeconds: true)
        return dialect.arithmetic(op, left, right, type: .double)
    }

    /// `a ?? b` of dates where one side is computed: both sides as seconds since 2001.
    mutating func dateCoalesceInSeconds(_ lhs: TypedExpr, _ rhs: TypedExpr) throws(LoweringError) -> (SQLExpr, nullable: Bool) {
        let (left, leftNullable) = try value(lhs, asSeconds: true)
        let (right, rightNullable) = try value(rhs, asSeconds: true)
        return (.function("coalesce", [left, right]), leftNullable && rightNullable)
    }
}
