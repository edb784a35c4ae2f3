// The canonical printer: a syntax tree back to query text.
//
// The output uses one spelling per construct (`&&`, `==`, infix `contains`,
// `x in a...b`, `xs.contains(where: { … })`, `xs.filter({ t in … })`) and the
// fewest parentheses that keep the tree's shape, so parse → print → parse gives the
// same tree. Names that would read as keywords are put in backticks. No form it
// prints is nested deeper than the form it was read from (bar the parentheses a
// comparison takes under `!`), so a query at the nesting limit prints as text that
// parses: `~x` stays `~x`, and an `||` that is `x in[c] {…}` is printed as that
// membership where the `||` would take parentheses.

/// Prints syntax trees as canonical query text.
public struct Printer {
    /// Names bound by the closures being printed, innermost last.
    private var scopes: [String] = []

    /// A printer.
    public init() {}

    /// Binding strength, loosest first, as in the precedence table of Grammar/pq.ebnf.
    private enum Level: Int, Comparable {
        case or = 1, and, not, comparison, coalesce, range, additive, multiplicative, prefix, postfix

        static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// The canonical text of a query.
    public static func print(_ query: Query) -> String {
        var printer = Printer()
        return printer.printQuery(query)
    }

    /// The canonical text of an expression.
    public static func print(_ expr: Expr) -> String {
        var printer = Printer()
        return printer.print(expr, at: .or)
    }

    private mutating func printQuery(_ query: Query) -> String {
        var parts: [String] = []
        if let entity = query.entity {
            let bare =
                PlainName.isPlain(entity.text) && !Parser.isReserved(entity.text)
                && (query.predicate != nil || entity.text.first?.isUppercase == true)
            parts.append(bare ? entity.text : "`\(entity.text)`")
            if let predicate = query.predicate {
                parts.append("where")
                parts.append(print(predicate, at: .or))
            }
        } else if let predicate = query.predicate {
            // A lone name that is capitalised or needs backticks would read as an entity.
            if case .keyPath(let path) = predicate.kind, path.root == .object, path.components.count == 1,
                path.components[0].name.first?.isUppercase == true
                    || Self.identifier(path.components[0].name) != path.components[0].name
            {
                parts.append("SELF." + Self.memberName(path.components[0].name))
            } else {
                parts.append(print(predicate, at: .or))
            }
        }
        if !query.sortKeys.isEmpty {
            parts.append("sort by " + query.sortKeys.map(printSortKey).joined(separator: ", "))
        }
        if let limit = query.limit { parts.append("limit " + Self.printCount(limit)) }
        if let offset = query.offset { parts.append("offset " + Self.printCount(offset)) }
        return parts.joined(separator: " ")
    }

    private func printSortKey(_ key: SortKey) -> String {
        var text = printPath(key.path) + key.options.modifier
        if !key.isAscending { text += " desc" }
        return text
    }

    private static func printCount(_ count: QueryCount) -> String {
        switch count.value {
        case .literal(let value): String(value)
        case .parameter(let name): "$" + name
        }
    }

    // MARK: - Expressions

    private static func level(of expr: Expr) -> Level {
        switch expr.kind {
        case .or: .or
        case .and: .and
        case .not: .not
        case .comparison, .stringTest, .membership, .quantified: .comparison
        case .coalesce: .coalesce
        case .range: .range
        case .arithmetic(.bitwiseXor, _, let rhs) where isAllOnes(rhs): .prefix
        case .arithmetic(let op, _, _): op.isAdditive ? .additive : .multiplicative
        case .negate: .prefix
        case .literal(.integer(let value)): value < 0 ? .prefix : .postfix
        case .literal(.decimal(let value)): value.sign == .minus ? .prefix : .postfix
        case .literal(.duration(let value, _)): value.sign == .minus ? .prefix : .postfix
        default: .postfix
        }
    }

    /// The integer -1, every bit set: `x ^ -1` is `~x`.
    private static func isAllOnes(_ expr: Expr) -> Bool {
        if case .literal(.integer(-1)) = expr.kind { return true }
        return false
    }

    private mutating func print(_ expr: Expr, at required: Level) -> String {
        // An `||` that is `x in[c] {…}` as the parser reads it, where the `||` would take
        // parentheses: printed as the membership, it needs none (see `modifiedMembership`).
        if required > .or, required <= .comparison, let membership = Self.modifiedMembership(expr) {
            return printMembership(membership)
        }
        let text = printUnparenthesized(expr)
        return Self.level(of: expr) < required ? "(" + text + ")" : text
    }

    /// `x ==[c] a || x ==[c] b`, which is how the parser reads `x in[c] {a, b}` (a nil
    /// member is `x == nil`, with no modifier): the element, the members and the
    /// modifier, when `expr` is exactly that; nil otherwise.
    ///
    /// Printed as an `||`, it takes parentheses under `&&` or a quantifier, and then the
    /// element is one nesting level deeper than `x in[c] {…}` put it: an element nested
    /// to the limit would not parse back. Printed as the membership it was, the element
    /// keeps its depth and the members are no deeper than inside those parentheses. Where
    /// the `||` needs no parentheses it is printed as one: there the list's brackets would
    /// put the members a level deeper instead.
    private static func modifiedMembership(_ expr: Expr) -> (element: Expr, members: [Expr], options: StringOptions)? {
        guard case .or(let operands) = expr.kind, operands.count >= 2 else { return nil }
        var options: StringOptions?
        var members: [Expr] = []
        for operand in operands {
            guard case .comparison(.equal, _, let member, let memberOptions) = operand.kind else { return nil }
            if case .literal(.null) = member.kind {
                guard memberOptions.isEmpty else { return nil }
            } else {
                guard !memberOptions.isEmpty, options == nil || options == memberOptions else { return nil }
                options = memberOptions
            }
            members.append(member)
        }
        guard let options, case .comparison(_, let element, _, _) = operands[0].kind else { return nil }
        let elementTree = element.syntaxDump
        for operand in operands.dropFirst() {
            guard case .comparison(_, let other, _, _) = operand.kind, other.syntaxDump == elementTree else { return nil }
        }
        return (element, members, options)
    }

    private mutating func printMembership(_ membership: (element: Expr, members: [Expr], options: StringOptions)) -> String {
        print(membership.element, at: .coalesce) + " in" + membership.options.modifier + " "
            + printUnparenthesized(Expr(.list(membership.members)))
    }

    private mutating func printUnparenthesized(_ expr: Expr) -> String {
        switch expr.kind {
        case .or(let operands):
            return operands.map { print($0, at: .and) }.joined(separator: " || ")
        case .and(let operands):
            return operands.map { print($0, at: .not) }.joined(separator: " && ")
        case .not(let operand):
            // `!` binds as a prefix: a comparison or an `||` under it takes parentheses.
            // An `||` that is `x in[c] {…}` stays an `||` there: inside the parentheses
            // either way, as a membership its members would go a level deeper.
            let inner: String
            switch (Self.level(of: operand), operand.kind) {
            case (.comparison, _), (_, .or): inner = "(" + printUnparenthesized(operand) + ")"
            default: inner = print(operand, at: .not)
            }
            return "!" + inner
        case .comparison(let op, let lhs, let rhs, let options):
            return print(lhs, at: .coalesce) + " " + op.rawValue + options.modifier + " " + printRightOperand(rhs)
        case .stringTest(let op, let lhs, let rhs, let options):
            return print(lhs, at: .coalesce) + " " + op.rawValue + options.modifier + " " + printRightOperand(rhs)
        case .membership(let element, let collection, let options):
            return print(element, at: .coalesce) + " in" + options.modifier + " " + print(collection, at: .coalesce)
        case .coalesce(let lhs, let rhs):
            return print(lhs, at: .range) + " ?? " + print(rhs, at: .coalesce)
        case .quantified(let quantifier, let body):
            let inner: String
            if let membership = Self.modifiedMembership(body) {
                inner = printMembership(membership)
            } else if Self.level(of: body) == .comparison && !Self.isQuantified(body) {
                inner = printUnparenthesized(body)
            } else {
                inner = print(body, at: .coalesce)
            }
            return quantifier.rawValue + " " + inner
        case .range(let lower, let upper, let kind):
            return print(lower, at: .additive) + (kind == .closed ? "..." : "..<") + print(upper, at: .additive)
        case .arithmetic(.bitwiseXor, let lhs, let rhs) where Self.isAllOnes(rhs):
            // `x ^ -1` is how the parser reads `~x`; printed back as `~x`, it binds as a
            // prefix does and needs no parentheses under `*`, so it never costs more
            // nesting than it was written with.
            return "~" + print(lhs, at: .prefix)
        case .arithmetic(let op, let lhs, let rhs):
            let level = Self.level(of: expr)
            return print(lhs, at: level) + " " + op.rawValue + " "
                + print(rhs, at: Level(rawValue: level.rawValue + 1) ?? .postfix)
        case .negate(let operand):
            let inner = print(operand, at: .prefix)
            // `- -x`, not `-(-x)`: parentheses would count toward the nesting limit, and
            // `--x` would read as a comment at the start of a line in pq's input files.
            return inner.hasPrefix("-") ? "- " + inner : "-" + inner
        case .literal(let literal):
            return Self.printLiteral(literal)
        case .enumCase(let name):
            return "." + Self.memberName(name)
        case .keyPath(let path):
            return printPath(path)
        case .parameter(let name):
            return "$" + name
        case .call(let function, let arguments):
            return function.rawValue + "(" + arguments.map { print($0, at: .or) }.joined(separator: ", ") + ")"
        case .list(let elements):
            return "[" + elements.map { print($0, at: .or) }.joined(separator: ", ") + "]"
        case .member(let base, let component):
            return printPostfixBase(base) + (component.isOptionalChained ? "?." : ".") + Self.memberName(component.name)
        case .elementTest(let quantifier, let collection, let closure):
            let method = quantifier == .all ? ".allSatisfy(" : ".contains(where: "
            return printPostfixBase(collection) + method + printClosure(closure) + ")"
        case .filter(let collection, let closure):
            return printPostfixBase(collection) + ".filter(" + printClosure(closure) + ")"
        case .aggregate(let function, let collection, let field):
            let base = printPostfixBase(collection)
            if function == .count { return base + ".count" }
            return base + ".@" + function.rawValue + field.map { "." + Self.memberName($0.name) }.joined()
        case .isEmpty(let collection):
            return printPostfixBase(collection) + ".isEmpty"
        case .invalid:
            return "<invalid>"
        }
    }

    /// The right operand of a comparison or string test. Right after the operator,
    /// `[c]` reads as a modifier, so a list that prints like one is parenthesised.
    private mutating func printRightOperand(_ expr: Expr) -> String {
        let text = print(expr, at: .coalesce)
        let lowered = text.lowercased()
        let looksLikeModifier = Parser.modifierSpellings.contains { lowered.hasPrefix("[" + $0 + "]") }
        return looksLikeModifier ? "(" + text + ")" : text
    }

    /// An expression a postfix form applies to. `xs.@sum.a` takes every name after
    /// it as part of its field, so it is parenthesised before another postfix.
    private mutating func printPostfixBase(_ expr: Expr) -> String {
        if case .aggregate(_, _, let field) = expr.kind, !field.isEmpty {
            return "(" + printUnparenthesized(expr) + ")"
        }
        return print(expr, at: .postfix)
    }

    /// Whether canonical text starts with a name token followed by ` in `.
    private static func startsWithNameThenIn(_ text: String) -> Bool {
        var rest = Substring(text)
        if rest.hasPrefix("`") {
            guard let close = rest.dropFirst().firstIndex(of: "`") else { return false }
            rest = rest[rest.index(after: close)...]
        } else {
            let name = rest.prefix { $0.unicodeScalars.allSatisfy(Lexer.isNameContinue) }
            guard let first = name.unicodeScalars.first, Lexer.isNameStart(first) else { return false }
            rest = rest.dropFirst(name.count)
        }
        return rest.hasPrefix(" in ")
    }

    private static func isQuantified(_ expr: Expr) -> Bool {
        if case .quantified = expr.kind { return true }
        return false
    }

    private mutating func printClosure(_ closure: Closure) -> String {
        scopes.append(closure.variable)
        defer { scopes.removeLast() }
        var body = print(closure.body, at: .or)
        if closure.variable == "0" {
            // `{ x in … }` declares x, so a body that starts that way is parenthesised.
            if Self.startsWithNameThenIn(body) { body = "(" + body + ")" }
            return "{ " + body + " }"
        }
        return "{ " + Self.identifier(closure.variable) + " in " + body + " }"
    }

    private func printPath(_ path: PropertyPath) -> String {
        var text: String
        var components = path.components[...]
        switch path.root {
        case .variable(let name):
            text = name == "0" ? "$0" : Self.identifier(name)
        case .object:
            guard let first = components.popFirst() else { return "SELF" }
            let shadowed = scopes.contains(first.name)
            text = shadowed ? "SELF." + Self.memberName(first.name) : Self.identifier(first.name)
        }
        for component in components {
            text += (component.isOptionalChained ? "?." : ".") + Self.memberName(component.name)
        }
        return text
    }

    // MARK: - Names and literals

    /// A name in operand position: escaped if it is reserved.
    static func identifier(_ name: String) -> String {
        PlainName.isPlain(name) && !Parser.isReserved(name) ? name : "`" + name + "`"
    }

    /// A name after a dot: escaped only if it would read as `count` or `isEmpty`.
    private static func memberName(_ name: String) -> String {
        PlainName.isPlain(name) && name != "count" && name != "isEmpty" ? name : "`" + name + "`"
    }

    static func printLiteral(_ literal: Literal) -> String {
        switch literal {
        case .integer(let value): String(value)
        case .decimal(let value): value.description
        case .string(let value): quoted(value)
        case .bool(let value): value ? "true" : "false"
        case .null: "nil"
        case .duration(let value, let unit): printNumber(value) + String(unit.rawValue)
        }
    }

    private static func printNumber(_ value: Double) -> String {
        if value == 0 { return value.sign == .minus ? "-0" : "0" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return value.description
    }

    /// A string literal in single quotes (or `delimiter`: `"` for Swift source),
    /// escaping what must be escaped; pq's text and Swift read the escapes alike.
    public static func quoted(_ value: String, delimiter: Unicode.Scalar = "'") -> String {
        var text = String(delimiter)
        for scalar in value.unicodeScalars {
            switch scalar {
            case delimiter: text += "\\" + String(delimiter)
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case "\0": text += "\\0"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    text += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                } else {
                    text.unicodeScalars.append(scalar)
                }
            }
        }
        return text + String(delimiter)
    }
}
