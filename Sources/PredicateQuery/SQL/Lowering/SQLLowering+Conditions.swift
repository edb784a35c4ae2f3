// Conditions and values: comparisons, string tests, membership, arithmetic.
//
// What a database decides differently the dialect decides (`SQLDialect`): string
// tests and folded values (SQLite calls functions its store registers,
// `SQLiteDialect+Strings`; PostgreSQL matches patterns made in Swift,
// `PostgreSQLDialect+Strings`), exact Int–Double comparisons, widened numbers,
// dates computed as seconds, and empty parameter lists.

extension SQLLowering {
    /// Where a condition stands: whether NULL may stand for false there.
    enum Mode {
        /// WHERE and AND/OR below it: NULL drops the row, as false would.
        case lenient
        /// Under NOT, and wherever the exact truth value matters: only 0 or 1.
        case exact
    }

    /// Makes a possibly-NULL condition exact when the mode needs it.
    func exactly(_ expr: SQLExpr, nullable: Bool, _ mode: Mode) -> SQLExpr {
        mode == .exact && nullable ? .falseIfNull(expr) : expr
    }

    mutating func folded(_ expr: SQLExpr, _ options: StringOptions) -> SQLExpr {
        guard !options.isEmpty else { return expr }
        let dialect = self.dialect
        return dialect.folded(expr, options, in: &self)
    }

    /// A condition: a SQL expression that is true exactly when the typed condition is.
    mutating func condition(_ expr: TypedExpr, _ mode: Mode) throws(LoweringError) -> SQLExpr {
        switch expr {
        case .not(.not(let operand)):
            // `!!x` is `x`: both sides are two-valued, and each NOT costs SQLite's parser depth.
            return try condition(operand, mode)
        case .not(let operand):
            return .not(try condition(operand, .exact))
        case .and(let operands):
            var lowered: [SQLExpr] = []
            for operand in operands { lowered.append(try condition(operand, mode)) }
            return .and(lowered)
        case .or(let operands):
            // Equalities of one path against values are one `IN` list (`TypedExpr.equalitiesAsMembership`).
            let grouped = TypedExpr.equalitiesAsMembership(operands)
            if grouped.count == 1, let only = grouped.first { return try condition(only, mode) }
            var lowered: [SQLExpr] = []
            for operand in grouped { lowered.append(try condition(operand, mode)) }
            return .or(lowered)
        case .isNil(let operand):
            return try nilTest(operand)
        case .compare(let op, let lhs, let rhs, let options):
            return try comparison(op, lhs, rhs, options, mode)
        case .stringTest(let op, let lhs, let rhs, let options):
            return try stringTest(op, lhs, rhs, options, mode)
        case .inList(let element, let members):
            return try listMembership(element, members, mode)
        case .inParameterList(let element, let name, let type, let options):
            let (lowered, nullable) = try value(element)
            let subject = folded(lowered, options)
            guard case .binding(let index) = bind(.parameterList(name, type, folding: options)) else { return .truth(false) }
            // Where the dialect has no empty `IN ()`, an empty list is bound as one NULL,
            // which the exact form turns into false.
            return exactly(
                .inBindingList(dialect.testedValue(subject), index), nullable: nullable || !dialect.acceptsEmptyInList,
                mode)
        case .inRange(let element, let lower, let upper, let kind):
            let types = [element.type, lower.type, upper.type]
            let seconds = comparesDatesAsSeconds([element, lower, upper])
            var (subject, n1) = try value(element, asSeconds: seconds)
            var (low, n2) = try value(lower, asSeconds: seconds)
            var (high, n3) = try value(upper, asSeconds: seconds)
            (subject, low, high) = (
                dialect.testedValue(exactNumber(subject, element.type, among: types)),
                exactNumber(low, lower.type, among: types), exactNumber(high, upper.type, among: types)
            )
            let test: SQLExpr =
                kind == .closed
                ? .between(subject, low, high)
                : .and([.binary(subject, ">=", low), .binary(subject, "<", high)])
            return exactly(test, nullable: n1 || n2 || n3, mode)
        case .quantified(let quantifier, let path, let body):
            return try quantified(quantifier, path, body)
        default:
            // A Boolean value: an attribute, a parameter, a constant.
            let (lowered, nullable) = try value(expr)
            return exactly(lowered, nullable: nullable, mode)
        }
    }

    /// The key of an object: the primary key of one in scope, or the foreign-key
    /// column that points to it, so `budget == $b` needs no join.
    private mutating func key(of path: ObjectPath) throws(LoweringError) -> SQLExpr {
        guard let last = path.steps.last else {
            let entity = try entityMapping(path.entity)
            return .column(alias: try objectAlias(level: path.level, steps: []), name: entity.primaryKey)
        }
        let owner = try objectAlias(level: path.level, steps: Array(path.steps.dropLast()))
        guard case .foreignKey(let column) = try relationshipMapping(last) else {
            throw LoweringError(message: "relationship '\(last.relationship.name)' is not stored as a foreign key")
        }
        return .column(alias: owner, name: column)
    }

    private mutating func nilTest(_ operand: TypedExpr) throws(LoweringError) -> SQLExpr {
        guard case .object(let path) = operand else {
            let (lowered, _) = try value(operand)
            return dialect.nilTest(lowered)
        }
        guard let last = path.steps.last else { return .truth(false) }
        let owner = try objectAlias(level: path.level, steps: Array(path.steps.dropLast()))
        guard case .foreignKey(let column) = try relationshipMapping(last) else {
            throw LoweringError(message: "relationship '\(last.relationship.name)' is not stored as a foreign key")
        }
        return .isNull(.column(alias: owner, name: column))
    }

    private mutating func comparison(
        _ op: ComparisonOperator, _ lhs: TypedExpr, _ rhs: TypedExpr, _ options: StringOptions, _ mode: Mode
    ) throws(LoweringError) -> SQLExpr {
        let seconds = comparesDatesAsSeconds([lhs, rhs])
        let (left, leftNullable) = try value(lhs, asSeconds: seconds)
        let (right, rightNullable) = try value(rhs, asSeconds: seconds)
        let dialect = self.dialect
        if !options.isEmpty, op == .equal || op == .notEqual,
            let equality = try dialect.foldedEquality(op, (left, leftNullable), (right, rightNullable), options, in: &self)
        {
            return equality
        }
        let types = [lhs.type, rhs.type]
        // Mutating calls go first, on lines of their own: as the argument of a method of
        // `self`, the copy of `self` that call holds would make every binding appended
        // meanwhile copy the whole `bindings` array (quadratic in the literals).
        let (foldedLeft, foldedRight) = (folded(left, options), folded(right, options))
        let l = exactNumber(foldedLeft, lhs.type, among: types)
        let r = exactNumber(foldedRight, rhs.type, among: types)
        switch op {
        case .equal:
            // `=` and `IS` agree unless a side is NULL; where NULL reads as false,
            // `=` is the plain spelling. `IS` is null-safe: nil == nil.
            let plain = mode == .lenient && (!leftNullable || !rightNullable)
            // With a parameter, whether its value is nil is known when the query
            // runs: the operator is chosen then, so a value gets `=` and its index.
            if !plain, mode == .lenient, let index = parameterBinding(r) ?? parameterBinding(l) {
                // A stored Double's NaN is nil (`PostgreSQLDialect+NotANumber`), which the
                // marker's `IS` would miss: lowered again with the value, `=` reads the column.
                guard !isStoredDouble(l), !isStoredDouble(r) else {
                    shapeDependsOnValues = true
                    return .binary(l, "IS", r)
                }
                return .parameterEquality(l, r, binding: index)
            }
            return dialect.comparison(l, plain ? "=" : "IS", r)
        case .notEqual: return .binary(l, "IS NOT", r)
        default: return exactly(dialect.comparison(l, op.rawValue, r), nullable: leftNullable || rightNullable, mode)
        }
    }

    /// Whether a value is a Double attribute's column read with its NaN as nil.
    private func isStoredDouble(_ expr: SQLExpr) -> Bool {
        guard case .storedDouble = expr else { return false }
        return true
    }

    /// The binding index of a parameter placeholder standing alone.
    private func parameterBinding(_ expr: SQLExpr) -> Int? {
        guard case .binding(let index) = expr, index < bindings.count, case .parameter = bindings[index] else { return nil }
        return index
    }

    private mutating func stringTest(
        _ op: StringOperator, _ lhs: TypedExpr, _ rhs: TypedExpr, _ options: StringOptions, _ mode: Mode
    ) throws(LoweringError) -> SQLExpr {
        let (left, leftNullable) = try value(lhs)
        let (right, rightNullable) = try value(rhs)
        let nullable = leftNullable || rightNullable
        let dialect = self.dialect
        let test = try dialect.stringTest(op, left, right, options, in: &self)
        return exactly(test, nullable: nullable, mode)
    }

    private mutating func listMembership(
        _ element: TypedExpr, _ members: [TypedExpr], _ mode: Mode
    )
        throws(LoweringError) -> SQLExpr
    {
        let types = [element.type] + members.map(\.type)
        let seconds = comparesDatesAsSeconds([element] + members)
        let (lowered, subjectNullable) = try value(element, asSeconds: seconds)
        let subject = dialect.testedValue(exactNumber(lowered, element.type, among: types))
        if members.isEmpty { return .truth(false) }
        var loweredMembers: [SQLExpr] = []
        var nullable = subjectNullable
        for member in members {
            let (expr, memberNullable) = try value(member, asSeconds: seconds)
            loweredMembers.append(exactNumber(expr, member.type, among: types))
            nullable = nullable || memberNullable
        }
        return exactly(.inList(subject, loweredMembers), nullable: nullable, mode)
    }

    /// A number compared exactly with numbers of the other kind, in a dialect whose
    /// own comparison of an Int with a Double rounds the Int (see `PostgreSQLDialect`).
    func exactNumber(_ expr: SQLExpr, _ type: ValueType, among types: [ValueType]) -> SQLExpr {
        guard !dialect.comparesIntsWithDoublesExactly, type == .int || type == .double, types.contains(.int),
            types.contains(.double)
        else { return expr }
        return .exactNumber(expr, isDouble: type == .double)
    }

    /// A number as pq computes with it, Int64 or Double: in a dialect that
    /// `widensNarrowNumbers` (PostgreSQL), a column of a narrower type (`smallint`,
    /// `integer`, `real`, `numeric`, in a database pq did not create) is widened to
    /// `bigint` or `double precision` for arithmetic and sums, which would otherwise
    /// overflow at its width or round differently.
    func widened(_ expr: SQLExpr, _ typed: TypedExpr) -> SQLExpr {
        guard dialect.widensNarrowNumbers else { return expr }
        let attribute: Attribute?
        switch typed {
        case .attribute(let path, _): attribute = path.attribute
        case .aggregate(.min, _, _, .attribute(let path, _)?, _), .aggregate(.max, _, _, .attribute(let path, _)?, _):
            attribute = path.attribute
        case .coalesce(let lhs, let rhs, _):
            let (left, right) = (widened(expr, lhs), widened(expr, rhs))
            if case .castToBigInt = left { return .castToBigInt(expr) }
            if case .castToBigInt = right { return .castToBigInt(expr) }
            if case .castToReal = left { return .castToReal(expr) }
            if case .castToReal = right { return .castToReal(expr) }
            return expr
        default: attribute = nil
        }
        switch attribute?.type {
        case .integer(let bits)? where bits < 64: return .castToBigInt(expr)
        case .float?, .decimal?: return .castToReal(expr)
        default: return expr
        }
    }

    /// A string compared by code point, in a dialect that must say so.
    func collated(_ expr: SQLExpr, _ type: ValueType) -> SQLExpr {
        guard dialect.stringCollation != nil, type == .string || type == .url else { return expr }
        return .collated(expr)
    }

    /// A value and whether it can be NULL.
    mutating func value(_ expr: TypedExpr) throws(LoweringError) -> (SQLExpr, nullable: Bool) {
        switch expr {
        case .constant(let constant, let type):
            // Bound first: as `collated`'s argument, `bind` would copy `bindings` (see `comparison`).
            let bound = bind(.constant(constant, type))
            return (collated(bound, type), constant.isNull)
        case .parameter(let name, let type):
            let bound = bind(.parameter(name, type))
            return (collated(bound, type), true)
        case .currentDate(let function):
            return (bind(.currentDate(function)), false)
        case .attribute(let path, let type):
            // A stored Double read as nil where it holds NaN may be nil whatever its type says.
            let column = try column(of: path)
            return (collated(column, type), path.isOptional || !path.steps.isEmpty || isStoredDouble(column))
        case .object(let path):
            return (try key(of: path), !path.steps.isEmpty)
        case .arithmetic(let op, let lhs, let rhs, .date) where dialect.computesDatesAsSeconds:
            return (try dateArithmeticInSeconds(op, lhs, rhs), true)
        case .arithmetic(.bitwiseXor, let operand, .constant(.int(-1), _), _),
            .arithmetic(.bitwiseXor, .constant(.int(-1), _), let operand, _):
            // `~x` (which the parser reads as `x ^ -1`): one operator on one operand,
            // exact for every Int, nil for nil, in both dialects.
            let (lowered, nullable) = try value(operand)
            return (.bitwiseNot(widened(lowered, operand)), nullable)
        case .arithmetic(let op, let lhs, let rhs, _):
            let (left, _) = try value(lhs)
            let (right, _) = try value(rhs)
            // Division by zero, NaN and nil operands all give NULL.
            return (dialect.arithmetic(op, widened(left, lhs), widened(right, rhs), type: lhs.type), true)
        case .negate(let operand, _):
            let (lowered, nullable) = try value(operand)
            return (.negate(widened(lowered, operand)), nullable)
        case .coalesce(let lhs, let rhs, _):
            if comparesDatesAsSeconds([expr]) { return try dateCoalesceInSeconds(lhs, rhs) }
            let (left, leftNullable) = try value(lhs)
            let (right, rightNullable) = try value(rhs)
            return (.function("coalesce", [left, right]), leftNullable && rightNullable)
        case .toDouble(let operand):
            let (lowered, nullable) = try value(operand)
            return (.castToReal(lowered), nullable)
        case .aggregate(let function, let path, let filter, let value, _):
            return try aggregate(function, path, filter: filter, value: value)
        case .quantified(_, let path, _):
            // Over a collection reached through a nil to-one the test is nil as a value,
            // as `$0.budget?.transactions.isEmpty` is in Swift: `?? true` takes its default
            // and `== false` is false (as a condition it is false, as nil is).
            let test = try condition(expr, .exact)
            guard let ownerPresent = try ownerPresence(path) else { return (test, false) }
            return (.nullUnless(ownerPresent, test), true)
        case .isNil, .not, .and, .or, .compare, .stringTest, .inList, .inParameterList, .inRange:
            // A condition used as a Boolean value (as in `(a > 1) == true`): exact 0 or 1.
            return (try condition(expr, .exact), false)
        }
    }
}
