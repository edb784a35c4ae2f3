// pq's arithmetic and `@sum`/`@avg` on PostgreSQL: exactly pq's answer, or an error.
//
// pq's numbers are SQLite's (README, "Meaning"): an Int overflow gives the Double
// result, a Double overflow infinity, NaN and division by zero nil. PostgreSQL's
// `bigint` and `double precision` operators compute the same values wherever they
// compute one, and raise SQLSTATE 22003 where they do not:
//
// - Int `+ - *`, `-x` and `/` are PostgreSQL's `bigint` operators: exact, `/`
//   truncating and `%` taking the dividend's sign, as pq's; `Int.min % -1` is 0 in
//   both. Where pq's result leaves Int's range (and pq switches to a Double),
//   PostgreSQL raises "bigint out of range".
// - Double `+ - * /` are `double precision`'s IEEE operators, rounding as Swift's
//   do, guarded so that where finite operands overflow to ±∞, or nonzero ones
//   underflow to 0 in `*` and `/`, the result is that ±∞ or 0 and not PostgreSQL's
//   "value out of range" error (`SQLRenderer+Doubles`; only an exact tie at half
//   the least subnormal may still raise it). NaN (∞ − ∞, 0 × ∞) becomes NULL
//   (`NULLIF(x, 'NaN')`).
// - Division and remainder by zero: the divisor is `NULLIF(d, 0)`, so nil.
// - Bitwise `&`, `|` and `^` (`#`) never overflow.
// - `@sum` of Ints: PostgreSQL sums `bigint` exactly into `numeric`. pq's sum is
//   exact unless a partial sum, in key order, leaves Int's range (then a Double);
//   that cannot happen when the positive values alone and the negative values alone
//   stay in range, and then the sum is pq's. Otherwise each partial sum is tested
//   (`SQLLowering+PartialSums`): if one leaves the range the statement raises
//   "integer out of range", else the sum is pq's. (Where the sum's filter holds
//   aggregates, the test is left out and the statement raises there anyway.)
// - `@sum` of Doubles and `@avg`: pq adds Doubles one at a time in the elements' key
//   order, as `sum(x ORDER BY key)` does (an Int as its Double, for `@avg`), then
//   divides by the count; a finite partial sum overflowing to ±∞ raises "value out
//   of range: overflow" (the aggregate's own addition cannot be guarded).
//
// The store turns these errors into `StoreError.Kind.valueOutOfRange`, naming the
// cause; a different answer is never returned.

extension PostgreSQLDialect {
    func arithmetic(_ op: ArithmeticOperator, _ lhs: SQLExpr, _ rhs: SQLExpr, type: ValueType) -> SQLExpr {
        let divisor = SQLExpr.function("nullif", [rhs, .integer(0)])
        guard type == .int else {
            // `%` and the bitwise operators take Ints only.
            return Self.nilForNaN(.doubleArithmetic(op.rawValue, lhs, op == .divide ? divisor : rhs))
        }
        switch op {
        case .divide, .remainder: return .binary(lhs, op.rawValue, divisor)
        case .bitwiseXor: return .binary(lhs, "#", rhs)
        default: return .binary(lhs, op.rawValue, rhs)
        }
    }

    var needsPartialSumTest: Bool { true }

    /// PostgreSQL compares a `bigint` with a `double precision` as Doubles, rounding
    /// the Int: such pairs are compared as exact decimals (`SQLExpr.exactNumber`).
    var comparesIntsWithDoublesExactly: Bool { false }

    /// A column of a database pq did not create may be `smallint`, `integer`, `real`
    /// or `numeric`, which PostgreSQL computes with at their own width.
    var widensNarrowNumbers: Bool { true }

    func aggregate(
        _ function: AggregateFunction, of value: SQLExpr, type: ValueType, order: SQLExpr, partialSumLeavesRange: SQLExpr?
    ) -> SQLExpr {
        switch function {
        case .sum where type == .int:
            // Only where the positive or the negative values alone leave Int's range
            // can a partial sum; only then is the (slower) test of each one run.
            let mayLeave = SQLExpr.or([
                .binary(.function("sum", [.function("greatest", [value, .integer(0)])]), ">", .integer(Int.max)),
                .binary(.function("sum", [.function("least", [value, .integer(0)])]), "<", .integer(Int.min)),
            ])
            // 2^31 as integer: "integer out of range", which nothing else in pq's SQL
            // raises, so the store can name this cause. Not a constant, so PostgreSQL
            // raises it only where this branch is taken, never while planning.
            let overflow = SQLExpr.castToInteger(
                .binary(.binary(.function("sum", [value]), "*", .integer(0)), "+", .integer(Int(Int32.max) + 1)))
            let sum = SQLExpr.castToBigInt(.function("sum", [value]))
            let leaves = partialSumLeavesRange.map { SQLExpr.choose($0, then: overflow, else: sum) } ?? overflow
            return .choose(mayLeave, then: leaves, else: .function("coalesce", [sum, .integer(0)]))
        case .sum:
            return Self.nilForNaN(.function("coalesce", [.orderedAggregate("sum", value, orderedBy: order), .integer(0)]))
        case .avg:
            let double = type == .int ? SQLExpr.castToReal(value) : value
            return Self.nilForNaN(
                .doubleArithmetic(
                    "/", .orderedAggregate("sum", double, orderedBy: order), .castToReal(.function("count", [value]))))
        case .count, .min, .max:
            return .function(function.rawValue, [value])
        }
    }

    /// `NULLIF(x, 'NaN')`: pq's NaN is nil.
    private static func nilForNaN(_ expr: SQLExpr) -> SQLExpr { .function("nullif", [expr, .notANumber]) }
}
