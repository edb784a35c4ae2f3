// PostgreSQL's string tests with pq's meaning: `like`, `matches`, and the `[c]`/`[d]`
// tests, each matched against a pattern made in Swift from the needle when its
// value is known (`PostgreSQLPattern`, bound as `SQLBinding.pattern`).
//
// A folded test is pq's rule spelled out: the test on the text as it is, or on the
// text composed (`normalize(x, NFC)`) against the composed needle, each with the
// scalars the modifier folds to nothing removed first (`regexp_replace` with a
// bound class), since those neither match nor separate anything in pq's folded
// text. `==[c]` compares the composed forms only, as pq's `pq_fold` does. `like[d]`
// also holds where the pattern matches without `[d]`. The needle must be a literal
// or a parameter; `PostgreSQLSupport` refuses the other forms before this runs.
// Ordering with `[c]`/`[d]` (and `==[c]` between stored values) compares pq's folded
// value instead, computed by PostgreSQL through a map of pq's folds (`postgreSQLFolded`).
// A text PostgreSQL might compose otherwise than pq (a character its Unicode tables
// may not know) makes the statement fail rather than answer (`composed`).

extension SQLLowering {
    /// A string test on PostgreSQL that needs a pattern: `like`, `matches`, or any
    /// test with `[c]`/`[d]`. The test may be NULL where a side is.
    mutating func postgreSQLStringTest(
        _ op: StringOperator, _ left: SQLExpr, _ right: SQLExpr, _ options: StringOptions
    ) throws(LoweringError) -> SQLExpr {
        let needle = try boundNeedle(right)
        switch op {
        case .matches:
            let pattern = bind(.pattern(PostgreSQLPattern(kind: .regex, options: [], composed: false), of: needle))
            guard options.contains(.diacriticInsensitive) else { return .binary(left, "~", pattern) }
            // `matches[d]`: the text as it is, or its folded value (`pq_fold(x, [d])`).
            return .or([.binary(left, "~", pattern), .binary(postgreSQLFolded(left, options), "~", pattern)])
        case .like where options.isEmpty:
            return .binary(
                left, "LIKE", bind(.pattern(PostgreSQLPattern(kind: .like, options: [], composed: false), of: needle)))
        case .like:
            let folded = foldedMatch(left, needle, .like, options)
            guard options.contains(.diacriticInsensitive) else { return folded }
            // `like[d]` also holds where the pattern matches without `[d]`.
            return .or([folded, try postgreSQLStringTest(op, left, right, options.subtracting(.diacriticInsensitive))])
        case .contains: return foldedMatch(left, needle, .contains, options)
        case .beginsWith: return foldedMatch(left, needle, .prefix, options)
        case .endsWith: return foldedMatch(left, needle, .suffix, options)
        }
    }

    /// `==[c]`/`!=[c]` (and `[d]`, `[cd]`) on PostgreSQL: the composed text, folded,
    /// is the composed needle folded. Null-safe as pq's equality is: nil equals nil.
    mutating func postgreSQLFoldedEquality(
        _ op: ComparisonOperator, _ lhs: (SQLExpr, Bool), _ rhs: (SQLExpr, Bool), _ options: StringOptions
    ) throws(LoweringError) -> SQLExpr {
        // The needle is the side whose value is bound; the other is the text.
        let (text, needleExpr) = (try? boundNeedle(rhs.0)) != nil ? (lhs, rhs) : (rhs, lhs)
        let needle = try boundNeedle(needleExpr.0)
        let pattern = bind(.pattern(PostgreSQLPattern(kind: .whole, options: options, composed: true), of: needle))
        let match = SQLExpr.binary(removingFoldedAway(composed(text.0), options), "~", pattern)
        let equal: SQLExpr =
            text.1 || needleExpr.1
            ? .function("coalesce", [match, .and([.isNull(text.0), .isNull(pattern)])])
            : match
        return op == .notEqual ? .not(equal) : equal
    }

    /// The folded test of `text` against the needle bound at `needle`: on the text as
    /// it is, or else composed.
    private mutating func foldedMatch(
        _ text: SQLExpr, _ needle: Int, _ kind: PostgreSQLPattern.Kind, _ options: StringOptions
    ) -> SQLExpr {
        var forms: [SQLExpr] = []
        for composed in [false, true] {
            let subject = removingFoldedAway(composed ? self.composed(text) : text, options)
            let pattern = bind(.pattern(PostgreSQLPattern(kind: kind, options: options, composed: composed), of: needle))
            forms.append(.binary(subject, "~", pattern))
        }
        return .or(forms)
    }

    /// The text composed (NFC), refused where PostgreSQL's Unicode tables may compose it otherwise.
    private mutating func composed(_ text: SQLExpr) -> SQLExpr {
        .composed(
            text, unsettled: constant(PostgreSQLPattern.unsettledCompositionClass),
            message: constant(PostgreSQLPattern.unsettledCompositionMessage))
    }

    /// A string constant of pq's own, bound once however often it is used: at the
    /// first binding equal to it (a literal of the query may be), found by one scan
    /// when the constant is first used (a scan per use would be quadratic).
    private mutating func constant(_ text: String) -> SQLExpr {
        // pq's constants are static strings, so a constant met again compares equal at
        // once, by its storage; a few kilobytes are never hashed.
        if let known = ownConstants.first(where: { $0.text == text }) { return .binding(known.index) }
        let equal = bindings.firstIndex {
            if case .constant(.string(let bound), .string) = $0 { bound == text } else { false }
        }
        let found = equal.map(SQLExpr.binding) ?? bind(.constant(.string(text), .string))
        ownConstants.append((text, equal ?? bindings.count - 1))
        return found
    }

    /// The text without the scalars `options` folds to nothing.
    private mutating func removingFoldedAway(_ text: SQLExpr, _ options: StringOptions) -> SQLExpr {
        guard let characters = PostgreSQLPattern.emptyFoldClass(options) else { return text }
        return .removing(text, constant(characters))
    }

    /// pq's folded value of a string (`pq_fold`), for ordering and for `==[c]` between
    /// two stored values: the text composed, then each scalar replaced by its fold
    /// from a map pq makes from its own folding (`PostgreSQLPattern.foldMap`), in
    /// code-point order (`COLLATE "C"`).
    mutating func postgreSQLFolded(_ text: SQLExpr, _ options: StringOptions) -> SQLExpr {
        .collated(
            .foldedValue(
                removingFoldedAway(composed(text), options), map: constant(PostgreSQLPattern.foldMap(options)),
                decomposingHangul: options.contains(.diacriticInsensitive)))
    }

    /// Whether the value is bound (a literal or a parameter), so a pattern can be made from it.
    func isBoundNeedle(_ expr: SQLExpr) -> Bool {
        (try? boundNeedle(expr)) != nil
    }

    /// The binding index of a needle whose value is bound (a literal or a parameter).
    func boundNeedle(_ expr: SQLExpr) throws(LoweringError) -> Int {
        var inner = expr
        if case .collated(let operand) = expr { inner = operand }
        guard case .binding(let index) = inner, index < bindings.count else {
            throw LoweringError(
                message: "PostgreSQL matches a string test only against a literal or a parameter",
                code: .unsupportedByDatabase)
        }
        switch bindings[index] {
        case .constant, .parameter: return index
        default:
            throw LoweringError(
                message: "PostgreSQL matches a string test only against a literal or a parameter",
                code: .unsupportedByDatabase)
        }
    }
}

extension PostgreSQLPattern.Kind {
    /// The pattern PostgreSQL tests a string operator with: a regular expression for
    /// `matches`, a LIKE pattern for `like`, a match of the needle for the others
    /// (folded as the test's modifier says). `PostgreSQLSupport` checks a needle
    /// against the same kind before anything is lowered.
    init(_ op: StringOperator) {
        switch op {
        case .matches: self = .regex
        case .like: self = .like
        case .contains: self = .contains
        case .beginsWith: self = .prefix
        case .endsWith: self = .suffix
        }
    }
}
