// The rendering of the SQL nodes only PostgreSQL's lowering builds (`SQLExpr`):
// exact numbers, dates as seconds, composed strings, folded values and removed
// characters. (Its guarded Double arithmetic is `SQLRenderer+Doubles`.)

extension SQLRenderer {
    /// `CAST(i AS numeric)` for an Int. A Double in bigint's range is its integer part
    /// plus half the sign of its fraction, which orders it exactly among the Ints
    /// (PostgreSQL's own conversion keeps 15 digits); beyond that range, any Int is on
    /// one side of it and the plain conversion serves.
    func exactNumber<Output: SQLOutput>(_ operand: SQLExpr, isDouble: Bool, into out: inout Output) {
        guard isDouble else {
            out += "CAST("
            render(operand, into: &out)
            out += " AS numeric)"
            return
        }
        out += "CASE WHEN "
        atom(operand, into: &out)
        out += " >= -9223372036854775808.0 AND "
        atom(operand, into: &out)
        out += " < 9223372036854775808.0 THEN CAST(CAST(trunc("
        render(operand, into: &out)
        out += ") AS bigint) AS numeric) + CAST(sign("
        atom(operand, into: &out)
        out += " - trunc("
        render(operand, into: &out)
        out += ")) AS numeric) * 0.5 ELSE CAST("
        render(operand, into: &out)
        out += " AS numeric) END"
    }

    /// `CAST(EXTRACT(EPOCH FROM e) - 978307200 AS double precision)`: a `timestamptz`
    /// as pq's Double of seconds since 2001 (`SQLLowering+DatesAsSeconds`).
    func secondsSince2001<Output: SQLOutput>(_ operand: SQLExpr, into out: inout Output) {
        out += "CAST(EXTRACT(EPOCH FROM "
        render(operand, into: &out)
        out += ") - 978307200 AS double precision)"
    }

    /// `normalize(e, NFC)`, or a failure naming the text where it holds a character of
    /// the class `unsettled`.
    func composed<Output: SQLOutput>(
        _ operand: SQLExpr, unsettled: SQLExpr, message: SQLExpr, into out: inout Output
    ) {
        // The failing branch depends on the row, so PostgreSQL never evaluates it
        // while planning; it raises "invalid input syntax" with the message.
        out += "normalize(CASE WHEN "
        atom(operand, into: &out)
        out += " ~ "
        atom(unsettled, into: &out)
        out += " THEN CAST(CAST("
        atom(message, into: &out)
        out += " || "
        atom(operand, into: &out)
        out += " AS integer) AS text) ELSE "
        render(operand, into: &out)
        out += " END, NFC)"
    }

    /// pq's folded value of a string: each character replaced through the JSON `map`.
    func foldedValue<Output: SQLOutput>(
        _ operand: SQLExpr, map: SQLExpr, decomposingHangul: Bool, into out: inout Output
    ) {
        // string_agg of no characters is NULL: '' stays '', NULL stays NULL.
        out += "coalesce((SELECT string_agg("
        if decomposingHangul {
            out += "CASE WHEN ascii(pq_ch.c) BETWEEN \(0xAC00) AND \(0xD7A3) THEN normalize(pq_ch.c, NFD) ELSE "
        }
        out += "coalesce(CAST("
        render(map, into: &out)
        out += " AS jsonb) ->> pq_ch.c, pq_ch.c)"
        if decomposingHangul { out += " END" }
        out += ", '' ORDER BY pq_ch.n) FROM regexp_split_to_table("
        render(operand, into: &out)
        out += ", '') WITH ORDINALITY AS pq_ch(c, n)), CASE WHEN "
        atom(operand, into: &out)
        out += " IS NOT NULL THEN '' END)"
    }

    /// `regexp_replace(e, characters, '', 'g')`.
    func removing<Output: SQLOutput>(_ operand: SQLExpr, _ characters: SQLExpr, into out: inout Output) {
        out += "regexp_replace("
        render(operand, into: &out)
        out += ", "
        render(characters, into: &out)
        out += ", '', 'g')"
    }
}
