// Renders the SQL syntax tree as text, with the fewest parentheses that keep its
// meaning: operands that are not atoms are parenthesised, and long AND/OR chains
// become balanced trees so SQLite's expression depth limit (1,000) is never near.

struct SQLRenderer {
    let dialect: any SQLDialect

    func render(_ select: SQLSelect) -> String {
        var parts = ["SELECT " + select.columns.map { render($0) }.joined(separator: ", ")]
        parts.append("FROM " + render(select.from))
        for join in select.joins {
            parts.append((join.isLeft ? "LEFT JOIN " : "JOIN ") + render(join.table) + " ON " + render(join.condition))
        }
        if let filter = select.filter { parts.append("WHERE " + render(filter)) }
        if !select.grouping.isEmpty { parts.append("GROUP BY " + select.grouping.map { render($0) }.joined(separator: ", ")) }
        if let having = select.having { parts.append("HAVING " + render(having)) }
        if !select.ordering.isEmpty {
            parts.append(
                "ORDER BY "
                    + select.ordering.map { render($0.expr) + ($0.isAscending ? "" : " DESC") }.joined(separator: ", "))
        }
        if let limit = select.limit {
            parts.append("LIMIT " + render(limit))
        } else if select.offset != nil, let unlimited = dialect.unlimited {
            parts.append("LIMIT " + unlimited)
        }
        if let offset = select.offset { parts.append("OFFSET " + render(offset)) }
        return parts.joined(separator: " ")
    }

    private func render(_ table: SQLTableReference) -> String {
        dialect.quote(table.table) + " " + table.alias
    }

    func render(_ expr: SQLExpr) -> String {
        switch expr {
        case .column(let alias, let name): return alias + "." + dialect.quote(name)
        case .binding(let index): return dialect.placeholder(index)
        case .integer(let value): return String(value)
        case .function(let name, let arguments):
            return dialect.function(name) + "(" + arguments.map { render($0) }.joined(separator: ", ") + ")"
        case .countRows: return dialect.function("count") + "(*)"
        case .not(let operand): return "NOT " + atom(operand)
        case .negate(let operand): return "-" + atom(operand)
        case .binary(let lhs, let op, let rhs): return atom(lhs) + " " + op + " " + atom(rhs)
        case .and(let operands): return balanced(operands, "AND")
        case .or(let operands): return balanced(operands, "OR")
        case .isNull(let operand): return atom(operand) + " IS NULL"
        case .inList(let element, let members):
            return atom(element) + " IN (" + members.map { render($0) }.joined(separator: ", ") + ")"
        case .inBindingList(let element, let index):
            return atom(element) + " IN (" + CompiledQuery.listMarker(index) + ")"
        case .between(let element, let low, let high):
            return atom(element) + " BETWEEN " + atom(low) + " AND " + atom(high)
        case .exists(let select): return "EXISTS (" + render(select) + ")"
        case .scalar(let select): return "(" + render(select) + ")"
        case .castToReal(let operand): return "CAST(" + render(operand) + " AS REAL)"
        case .falseIfNull(let operand): return dialect.function("coalesce") + "(" + render(operand) + ", 0)"
        }
    }

    /// An operand: atoms as they are, anything else in parentheses.
    private func atom(_ expr: SQLExpr) -> String {
        switch expr {
        case .column, .binding, .integer, .function, .countRows, .scalar, .castToReal, .falseIfNull: return render(expr)
        default: return "(" + render(expr) + ")"
        }
    }

    /// `a AND b AND c AND d` as `(a AND b) AND (c AND d)`: depth log₂ n, not n.
    private func balanced(_ operands: [SQLExpr], _ op: String) -> String {
        switch operands.count {
        case 0: return op == "AND" ? "1" : "0"
        case 1: return render(operands[0])
        case 2: return atom(operands[0]) + " " + op + " " + atom(operands[1])
        default:
            let middle = operands.count / 2
            let left = Array(operands[..<middle])
            let right = Array(operands[middle...])
            return group(left, op) + " " + op + " " + group(right, op)
        }
    }

    private func group(_ operands: [SQLExpr], _ op: String) -> String {
        operands.count == 1 ? atom(operands[0]) : "(" + balanced(operands, op) + ")"
    }
}
