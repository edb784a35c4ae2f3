// Double arithmetic on PostgreSQL that gives IEEE's ±∞ and 0, as pq's does.
//
// PostgreSQL's `double precision` operators round as IEEE (and Swift) do, but raise
// "value out of range" where finite operands overflow to ±∞, and where nonzero
// operands of `*` and `/` underflow to 0. So each operation runs PostgreSQL's own
// operator where neither can happen, and works out the edge otherwise:
//
// - `+`/`-`: with both operands below 2^1022 in magnitude nothing overflows. Else
//   (an infinite operand never raises, nor does one below 2^-1021 beside the large
//   one, which it cannot push past the largest Double) h = x/2 ± y/2 is the sum
//   rounded, halved, exactly (both halvings are exact): the sum is ±∞ where
//   |h| ≥ 2^1023, else 2h.
// - `*`/`/`: with both operands' magnitudes in [2^-511, 2^511] the result is a
//   normal number. Else (zeros and infinities never raise) each operand is scaled
//   by a power of two to about 1 (exactly: x = x′·2^ex), so p = x′ op y′ is the
//   result's rounded significand and n = ex ± ey its scale: the result is ±∞ where
//   |p|·2^n reaches 2^1024, and 0 where it stays below 2^-1075 (half the least
//   subnormal), both decided on p, which PostgreSQL computes without raising.
//   Elsewhere PostgreSQL's operator gives the (subnormal) result itself; only where
//   |p|·2^n is exactly 2^-1075, a tie whose rounding p cannot tell, may it still
//   raise its underflow error.
// - A NaN operand (an `@avg` of ∞ and −∞) gets the plain operator, whose NaN the
//   caller makes nil: PostgreSQL sorts NaN above every number, so the tests of
//   magnitude would take it for a huge one and answer ±∞.
//
// The operands are named once per edge computation (`VALUES (lhs, rhs)`), so each
// appears three times in the text; nested operations would grow it exponentially,
// so operands past `guardedOperandBudget` get the plain operator, whose overflow
// stops the query (`StoreError.Kind.valueOutOfRange`) rather than answer otherwise.

extension SQLRenderer {
    private static let double = "CAST(2 AS double precision)"
    private static let infinity = "CAST('Infinity' AS double precision)"

    /// Whether an operand is NaN, tested first (see the header); PostgreSQL makes NaN
    /// equal to itself.
    private static let eitherIsNaN =
        "x = CAST('NaN' AS double precision) OR y = CAST('NaN' AS double precision)"

    private static func power(_ exponent: String) -> String { "power(\(double), \(exponent))" }

    /// Operands longer than this, together, get PostgreSQL's plain operator: each
    /// guarded operation writes its operands three times, and nested ones would
    /// grow the text exponentially. There an overflow stops the query instead.
    static let guardedOperandBudget = 4_096

    func doubleArithmetic<Output: SQLOutput>(_ op: String, _ lhs: SQLExpr, _ rhs: SQLExpr, into out: inout Output) {
        var l = Output()
        var r = Output()
        atom(lhs, into: &l)
        atom(rhs, into: &r)
        var plain = l
        plain += " " + op + " "
        plain += r
        guard l.markedByteCount + r.markedByteCount <= Self.guardedOperandBudget else {
            out += plain
            return
        }
        let isAdditive = op == "+" || op == "-"
        out += "CASE WHEN "
        if isAdditive {
            out += "abs("
            out += l
            out += ") < \(Self.power("1022")) AND abs("
            out += r
            out += ") < \(Self.power("1022"))"
        } else {
            let moderate = "BETWEEN \(Self.power("-511")) AND \(Self.power("511"))"
            out += "abs("
            out += l
            out += ") \(moderate) AND abs("
            out += r
            out += ") \(moderate)"
        }
        out += " THEN "
        out += plain
        out += " ELSE (SELECT CASE WHEN "
        if isAdditive {
            let half = "(x * 0.5 \(op) y * 0.5)"
            // An infinite operand never raises; nor does a tiny one beside the large
            // one (the sum is the large one), whose halving would underflow.
            out += "\(Self.eitherIsNaN) OR abs(x) = \(Self.infinity) OR abs(y) = \(Self.infinity)"
            out += " OR abs(x) < \(Self.power("-1021"))"
            out += " OR abs(y) < \(Self.power("-1021")) THEN x \(op) y"
            out += " WHEN \(half) >= \(Self.power("1023")) THEN \(Self.infinity)"
            out += " WHEN \(half) <= -\(Self.power("1023")) THEN -\(Self.infinity)"
            out += " ELSE \(half) * 2 END FROM (VALUES ("
            out += l
            out += ", "
            out += r
            out += ")) AS pq_v(x, y)"
        } else {
            let combine = op == "*" ? "+" : "-"
            out += "\(Self.eitherIsNaN) OR x = 0 OR y = 0 OR abs(x) = \(Self.infinity) OR abs(y) = \(Self.infinity)"
            out += " THEN x \(op) y"
            out += " WHEN n >= 1029 OR (n > 1019 AND abs(p) >= \(Self.power("least(1024 - n, 10)")))"
            out += " THEN CASE WHEN (x < 0) = (y < 0) THEN \(Self.infinity) ELSE -\(Self.infinity) END"
            out += " WHEN n <= -1082 OR (n < -1070 AND abs(p) < \(Self.power("greatest(-1075 - n, -10)"))) THEN 0"
            out += " ELSE x \(op) y END FROM (VALUES ("
            out += l
            out += ", "
            out += r
            out += ")) AS pq_v(x, y), LATERAL (VALUES ("
            out += Self.exponent("x") + ", " + Self.exponent("y")
            out += ")) AS pq_e(ex, ey), LATERAL (VALUES (ex \(combine) ey, "
            out += Self.scaled("x", "ex") + " \(op) " + Self.scaled("y", "ey")
            out += ")) AS pq_s(n, p)"
        }
        out += ") END"
    }

    /// About log2 |v| (off by one at most): v is v · 2^-e times 2^e, v · 2^-e near 1.
    private static func exponent(_ v: String) -> String {
        "floor(ln(CASE WHEN \(v) = 0 OR abs(\(v)) = \(infinity) THEN 1 ELSE abs(\(v)) END) / ln(\(double)))"
    }

    /// v · 2^-e, exactly, in two steps so that neither power leaves the Doubles' range.
    private static func scaled(_ v: String, _ e: String) -> String {
        "(\(v) * \(power("-trunc(\(e) / 2)")) * \(power("trunc(\(e) / 2) - \(e)")))"
    }
}
