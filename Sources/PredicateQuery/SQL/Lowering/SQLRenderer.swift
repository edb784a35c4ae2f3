// Renders the SQL syntax tree as text, with the fewest parentheses that keep its
// meaning: operands that are not atoms are parenthesised, and long AND/OR chains
// become balanced trees so SQLite's expression depth limit (1,000) is never near.
// Everything is appended to one text: rendering runs on every compile, and
// building a string per node cost more than the rest of lowering. What only the
// parameters' values decide is left as a slot of the text (`SQLText`).

struct SQLRenderer {
    let dialect: any SQLDialect

    /// The statement as text, with its slots.
    func render(_ select: SQLSelect) -> SQLText {
        var out = SQLText()
        out.reserveCapacity(256)
        render(select, into: &out)
        return out
    }

    /// Writes the statement into `out`: as text (`SQLText`), or as what SQLite's
    /// parser holds reading it (`SQLParserDepth`).
    func render<Output: SQLOutput>(_ select: SQLSelect, into out: inout Output) {
        out += "SELECT "
        list(select.columns, into: &out)
        out += " FROM "
        render(select.from, into: &out)
        for join in select.joins {
            out += join.isLeft ? " LEFT JOIN " : " JOIN "
            render(join.table, into: &out)
            out += " ON "
            render(join.condition, into: &out)
        }
        if let filter = select.filter {
            out += " WHERE "
            render(filter, into: &out)
        }
        if !select.grouping.isEmpty {
            out += " GROUP BY "
            list(select.grouping, into: &out)
        }
        if let having = select.having {
            out += " HAVING "
            render(having, into: &out)
        }
        if !select.ordering.isEmpty {
            out += " ORDER BY "
            for (index, ordering) in select.ordering.enumerated() {
                if index > 0 { out += ", " }
                render(ordering.expr, into: &out)
                if !ordering.isAscending { out += " DESC" }
                if dialect.placesNilsExplicitly, ordering.isNullable {
                    out += ordering.isAscending ? " NULLS FIRST" : " NULLS LAST"
                }
            }
        }
        if let limit = select.limit {
            out += " LIMIT "
            render(limit, into: &out)
        } else if select.offset != nil, let unlimited = dialect.unlimited {
            out += " LIMIT " + unlimited
        }
        if let offset = select.offset {
            out += " OFFSET "
            render(offset, into: &out)
        }
    }

    private func render<Output: SQLOutput>(_ table: SQLTableReference, into out: inout Output) {
        out.appendIdentifier(table.table, quotedBy: dialect)
        out += " "
        out += table.alias
    }

    private func list<Output: SQLOutput>(_ exprs: [SQLExpr], into out: inout Output) {
        for (index, expr) in exprs.enumerated() {
            if index > 0 { out += ", " }
            render(expr, into: &out)
        }
    }

    func render<Output: SQLOutput>(_ expr: SQLExpr, into out: inout Output) {
        switch expr {
        case .column(let alias, let name):
            out += alias
            out += "."
            out.appendIdentifier(name, quotedBy: dialect)
        case .binding(let index): out += dialect.placeholder(index)
        case .integer(let value): out += String(value)
        case .truth(let value): out += dialect.truth(value)
        case .exactNumber(let operand, let isDouble):
            exactNumber(operand, isDouble: isDouble, into: &out)
        case .collated(let operand):
            atom(operand, into: &out)
            out += " COLLATE "
            out.appendIdentifier(dialect.stringCollation ?? "C", quotedBy: dialect)
        case .function(let name, let arguments):
            out += dialect.function(name)
            out += "("
            list(arguments, into: &out)
            out += ")"
        case .countRows:
            out += dialect.function("count")
            out += "(*)"
        case .not(let operand):
            out += "NOT "
            atom(operand, into: &out)
        case .negate(let operand):
            out += "-"
            atom(operand, into: &out)
        case .bitwiseNot(let operand):
            out += "~"
            atom(operand, into: &out)
        case .binary(let lhs, let op, let rhs):
            atom(lhs, into: &out)
            out += " "
            out += dialect.binaryOperator(op)
            out += " "
            atom(rhs, into: &out)
        case .parameterEquality(let lhs, let rhs, let index):
            atom(lhs, into: &out)
            out += " "
            out.append(.equality(binding: index))
            out += " "
            atom(rhs, into: &out)
        case .and(let operands): balanced(operands[...], "AND", into: &out)
        case .or(let operands): balanced(operands[...], "OR", into: &out)
        case .isNull(let operand):
            atom(operand, into: &out)
            out += " IS NULL"
        case .inList(let element, let members):
            atom(element, into: &out)
            out += " IN ("
            list(members, into: &out)
            out += ")"
        case .inBindingList(let element, let index):
            atom(element, into: &out)
            out += " IN ("
            out.append(.list(binding: index))
            out += ")"
        case .between(let element, let low, let high):
            atom(element, into: &out)
            out += " BETWEEN "
            atom(low, into: &out)
            out += " AND "
            atom(high, into: &out)
        case .exists(let select):
            out += "EXISTS ("
            render(select, into: &out)
            out += ")"
        case .scalar(let select):
            out += "("
            render(select, into: &out)
            out += ")"
        case .castToReal(let operand):
            out += "CAST("
            render(operand, into: &out)
            out += " AS "
            out += dialect.doubleType
            out += ")"
        case .castToBigInt(let operand):
            out += "CAST("
            render(operand, into: &out)
            out += " AS bigint)"
        case .castToInteger(let operand):
            out += "CAST("
            render(operand, into: &out)
            out += " AS integer)"
        case .secondsSince2001(let operand):
            secondsSince2001(operand, into: &out)
        case .castToText(let operand):
            out += "CAST("
            render(operand, into: &out)
            out += " AS text)"
            if let collation = dialect.stringCollation {
                out += " COLLATE "
                out.appendIdentifier(collation, quotedBy: dialect)
            }
        case .falseIfNull(let operand):
            out += dialect.function("coalesce")
            out += "("
            render(operand, into: &out)
            out += ", "
            out += dialect.truth(false)
            out += ")"
        case .nullUnless(let condition, let value):
            out += "CASE WHEN "
            render(condition, into: &out)
            out += " THEN "
            render(value, into: &out)
            out += " END"
        case .choose(let condition, let value, let otherwise):
            out += "CASE WHEN "
            render(condition, into: &out)
            out += " THEN "
            render(value, into: &out)
            out += " ELSE "
            render(otherwise, into: &out)
            out += " END"
        case .orderedAggregate(let name, let value, let key):
            out += dialect.function(name)
            out += "("
            render(value, into: &out)
            out += " ORDER BY "
            render(key, into: &out)
            out += ")"
        case .notANumber:
            out += "CAST('NaN' AS "
            out += dialect.doubleType
            out += ")"
        case .storedDouble(let column):
            out += dialect.function("nullif")
            out += "("
            render(column, into: &out)
            out += ", 'NaN')"
        case .storedNotANumber:
            out += "'NaN'"
        case .doubleArithmetic(let op, let lhs, let rhs):
            doubleArithmetic(op, lhs, rhs, into: &out)
        case .composed(let operand, let unsettled, let message):
            composed(operand, unsettled: unsettled, message: message, into: &out)
        case .foldedValue(let operand, let map, let decomposingHangul):
            foldedValue(operand, map: map, decomposingHangul: decomposingHangul, into: &out)
        case .removing(let operand, let characters):
            removing(operand, characters, into: &out)
        }
    }

    /// An operand: atoms as they are, anything else in parentheses.
    func atom<Output: SQLOutput>(_ expr: SQLExpr, into out: inout Output) {
        switch expr {
        case .column, .binding, .integer, .truth, .exactNumber, .function, .countRows, .scalar, .castToReal, .falseIfNull,
            .nullUnless, .composed, .removing, .foldedValue, .choose, .orderedAggregate, .notANumber, .castToBigInt,
            .castToInteger, .doubleArithmetic, .secondsSince2001,
            .storedDouble, .storedNotANumber:
            render(expr, into: &out)
        default:
            out += "("
            render(expr, into: &out)
            out += ")"
        }
    }

    /// `a AND b AND c AND d` as `(a AND b) AND (c AND d)`: depth log₂ n, not n.
    private func balanced<Output: SQLOutput>(_ operands: ArraySlice<SQLExpr>, _ op: String, into out: inout Output) {
        switch operands.count {
        case 0: out += dialect.truth(op == "AND")
        case 1: render(operands[operands.startIndex], into: &out)
        case 2:
            atom(operands[operands.startIndex], into: &out)
            out += " " + op + " "
            atom(operands[operands.startIndex + 1], into: &out)
        default:
            let middle = operands.startIndex + operands.count / 2
            group(operands[..<middle], op, into: &out)
            out += " " + op + " "
            group(operands[middle...], op, into: &out)
        }
    }

    private func group<Output: SQLOutput>(_ operands: ArraySlice<SQLExpr>, _ op: String, into out: inout Output) {
        if operands.count == 1 {
            atom(operands[operands.startIndex], into: &out)
        } else {
            out += "("
            balanced(operands, op, into: &out)
            out += ")"
        }
    }
}
