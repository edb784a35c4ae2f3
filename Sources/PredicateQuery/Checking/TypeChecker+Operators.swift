// Comparisons, string tests, membership, arithmetic and negation.
//
// Meaning rules enforced here (Documentation/Language.md, "Meaning"): `== nil` and `!= nil`
// test presence; ordering and string tests with nil are errors when written and
// false at run time; ordering needs a type with an order; `[c]`/`[d]` need
// strings; Data, transformable and Codable-struct values only take nil tests.

import Foundation

extension TypeChecker {
    static func isNilLiteral(_ expr: Expr) -> Bool {
        if case .literal(.null) = expr.kind { return true }
        return false
    }

    mutating func checkComparison(
        _ op: ComparisonOperator, _ lhs: Expr, _ rhs: Expr, options: StringOptions, at span: SourceSpan
    ) -> TypedExpr? {
        if Self.isNilLiteral(lhs) || Self.isNilLiteral(rhs) {
            return checkNilComparison(op, value: Self.isNilLiteral(lhs) ? rhs : lhs, at: span)
        }
        guard let (left, right) = checkOperands(lhs, rhs) else { return nil }
        if case .object(let leftEntity) = left.type, case .object(let rightEntity) = right.type {
            return checkObjectComparison(op, left, right, leftEntity, rightEntity, at: span)
        }
        for (typed, expr) in [(left, lhs), (right, rhs)] {
            if case .object(let path) = typed {
                return error(
                    .relationshipComparison,
                    "cannot compare the relationship '\(Self.pathName(expr))' (of type '\(path.entity)') with a value",
                    at: expr.span,
                    notes: [
                        DiagnosticNote(
                            "compare one of its attributes, as in '\(Self.pathName(expr)).name == …', or test it with '== nil'")
                    ])
            }
        }
        guard let (l, r) = Self.comparable(left, right) else {
            // A Data, transformable (an array of values) or struct value compared with a value: say why it cannot be.
            if left.type.isOpaque != right.type.isOpaque {
                return unqueryable(left.type.isOpaque ? left.type : right.type, left.type.isOpaque ? lhs.span : rhs.span)
            }
            let boolAndInt = Set([left.type, right.type]) == Set([ValueType.bool, .int])
            return error(
                .typeMismatch,
                "binary operator '\(op.rawValue)' cannot be applied to operands of type '\(left.type)' and '\(right.type)'",
                at: span,
                notes: boolAndInt
                    ? [DiagnosticNote("a Bool compares with true and false, or with 1 and 0 as in NSPredicate")] : [])
        }
        let type = l.type
        // Data is equal or unequal byte for byte (`nonceData == $d`, apps that keep
        // UUIDs as Data); it has no order, and other opaque values take only nil tests.
        if type.isOpaque, type != .data { return unqueryable(type, (left.type.isOpaque ? lhs : rhs).span) }
        if op.isOrdering, !type.isOrdered {
            return error(
                .notOrderable, "'\(op.rawValue)' needs values with an order, and '\(type)' has none",
                at: span, notes: Self.orderHint(for: type))
        }
        if !options.isEmpty, !type.isTextual {
            return error(.modifierNotApplicable, "'\(options.modifier)' applies only to strings, not to '\(type)'", at: span)
        }
        return .compare(op, l, r, options)
    }

    /// Two objects by identity (`budget == $b`, `SELF != $other`): equal or unequal
    /// only, of one entity or one inheriting from the other.
    private mutating func checkObjectComparison(
        _ op: ComparisonOperator, _ left: TypedExpr, _ right: TypedExpr, _ leftEntity: String, _ rightEntity: String,
        at span: SourceSpan
    ) -> TypedExpr? {
        guard op == .equal || op == .notEqual else {
            return error(
                .notOrderable, "'\(op.rawValue)' needs values with an order, and objects have none", at: span,
                notes: [DiagnosticNote("objects are only equal or unequal; compare their attributes to order them")])
        }
        guard areRelated(leftEntity, rightEntity) else {
            return error(
                .typeMismatch, "cannot compare an object of '\(leftEntity)' with an object of '\(rightEntity)'", at: span)
        }
        return .compare(op, left, right, [])
    }

    /// Whether one entity is the other or inherits from it.
    func areRelated(_ first: String, _ second: String) -> Bool {
        guard let a = schema.entity(named: first), let b = schema.entity(named: second) else { return first == second }
        return schema.lineage(of: a).contains { $0.name == second } || schema.lineage(of: b).contains { $0.name == first }
    }

    /// `x == nil`, `x != nil`.
    private mutating func checkNilComparison(_ op: ComparisonOperator, value: Expr, at span: SourceSpan) -> TypedExpr? {
        guard op == .equal || op == .notEqual else {
            return error(
                .invalidNilComparison, "'\(op.rawValue)' cannot compare a value with nil", at: span,
                notes: [DiagnosticNote("only '==' and '!=' take nil; nil has no order")])
        }
        if Self.isNilLiteral(value) { return .constant(.bool(op == .equal), .bool) }
        guard let typed = check(value, expecting: nil) else { return nil }
        if case .attribute(let path, _) = typed, !path.isOptional {
            warning(
                .neverNil,
                "'\(path.attribute.name)' is never nil, so this comparison is always \(op == .equal ? "false" : "true")",
                at: span)
        }
        return op == .equal ? .isNil(typed) : .not(.isNil(typed))
    }

    static func orderHint(for type: ValueType) -> [DiagnosticNote] {
        switch type {
        case .enumeration:
            [DiagnosticNote("enum values are only equal or unequal; list the cases you want with 'in', as in 'x in [.a, .b]'")]
        case .bool: [DiagnosticNote("Bool values are only equal or unequal")]
        case .data: [DiagnosticNote("Data values are only equal or unequal, byte for byte")]
        default: []
        }
    }

    mutating func unqueryable<T>(_ type: ValueType, _ span: SourceSpan) -> T? {
        let isObject = schema.entity(named: type.description) != nil
        let note =
            isObject
            ? "a related object is compared through its attributes, as in 'budget?.name == …'; write '== nil' or '!= nil' to test for one"
            : type.description.hasPrefix("[")
                ? "an array of values is kept in one column, as a property list; only '== nil' and '!= nil' apply to it"
                : type == .data
                    ? "Data is only equal or unequal, byte for byte, to another Data value, as in 'data == $bytes'; or test it with '== nil'"
                    : "transformable and Codable-struct values are stored in a form the store cannot compare; write '== nil' or '!= nil'"
        let message =
            type == .data
            ? "values of type 'Data' can only be compared with '==' and '!=' or tested for nil"
            : "values of type '\(type)' can only be tested for nil"
        return error(.unqueryableAttribute, message, at: span, notes: [DiagnosticNote(note)])
    }

    /// The text of a key path operand, for messages.
    static func pathName(_ expr: Expr) -> String {
        if case .keyPath = expr.kind { return Printer.print(expr) }
        return "value"
    }

    // MARK: - String tests

    mutating func checkStringTest(
        _ op: StringOperator, _ lhs: Expr, _ rhs: Expr, options: StringOptions, at span: SourceSpan
    ) -> TypedExpr? {
        if case .keyPath(let path) = lhs.kind,
            case .collection(_, _, let relationship, _, let remaining)? = resolve(path, report: false),
            remaining.isEmpty, op == .contains
        {
            let name = relationship.relationship.name
            return error(
                .notAString, "'\(name)' is a to-many relationship, not a string", at: lhs.span,
                notes: [DiagnosticNote("to test its elements, write '\(name).contains(where: { … })' or 'any \(name).… == …'")])
        }
        if Self.isNilLiteral(lhs) || Self.isNilLiteral(rhs) {
            return error(
                .invalidNilComparison, "'\(op.rawValue)' cannot test nil", at: span,
                notes: [DiagnosticNote("a string test with a nil operand is false; test for nil with '== nil'")])
        }
        // Both operands must be strings, so each is checked against String on its own.
        let typedLeft = check(lhs, expecting: .string)
        let typedRight = check(rhs, expecting: .string)
        guard let left = typedLeft, let right = typedRight else { return nil }
        for (typed, expr) in [(left, lhs), (right, rhs)] where !typed.type.isTextual {
            if typed.type.isOpaque { return unqueryable(typed.type, expr.span) }
            return error(
                .notAString, "'\(op.rawValue)' needs String operands, but this is of type '\(typed.type)'",
                at: expr.span)
        }
        // What the right operand must be, as the operator's row of `StringOperator` says.
        switch op.definition.operand {
        case .text:
            break
        case .regex:
            if case .parameter(let name, _) = right { patternParameters.insert(name) }
            if case .constant(.string(let pattern), _) = right, !Self.isValidRegex(pattern) {
                return error(
                    .invalidRegex, "'\(pattern)' is not a valid regular expression", at: rhs.span,
                    notes: [DiagnosticNote("'\(op.keyword)' takes an ICU regular expression, matched against the whole string")])
            }
        case .likePattern:
            if case .constant(.string(let pattern), _) = right, let suggestion = Self.pqPattern(forSQL: pattern) {
                warning(
                    .sqlLikePattern, "'\(op.keyword)' matches '%' and '_' as themselves; pq's wildcards are '*' and '?'",
                    at: rhs.span,
                    notes: [DiagnosticNote("to match as SQL's LIKE would, write the pattern as \(Printer.quoted(suggestion))")])
            }
        }
        return .stringTest(op, left, right, options)
    }

    /// The pq pattern for a pattern written with SQL's wildcards (`%Vac%` → `*Vac*`);
    /// nil unless it holds `%` or `_` and none of pq's own `*` and `?`.
    static func pqPattern(forSQL pattern: String) -> String? {
        guard pattern.contains(where: { $0 == "%" || $0 == "_" }), !pattern.contains(where: { $0 == "*" || $0 == "?" })
        else { return nil }
        return String(pattern.map { $0 == "%" ? "*" : $0 == "_" ? "?" : $0 })
    }

    static func isValidRegex(_ pattern: String) -> Bool {
        StringFunctions.isValidRegex(pattern)
    }

    // MARK: - Membership

    mutating func checkMembership(
        _ element: Expr, in collection: Expr, options: StringOptions = [], at span: SourceSpan
    ) -> TypedExpr? {
        if !options.isEmpty {
            return checkModifiedMembership(element, in: collection, options: options, at: span)
        }
        switch collection.kind {
        case .list(let elements):
            return checkListMembership(element, elements, at: span)
        case .range(let lower, let upper, let kind):
            return checkRangeMembership(element, lower, upper, kind, at: span)
        case .parameter(let name):
            guard Self.contextDependence(of: element) < 2, let typed = check(element, expecting: nil) else {
                if Self.contextDependence(of: element) < 2 { return nil }
                return error(
                    .parameterTypeUnknown, "cannot infer the element type of list parameter '$\(name)'",
                    at: collection.span)
            }
            guard !typed.type.isOpaque, Self.expectation(from: typed.type) != nil else {
                return unqueryable(typed.type, element.span)
            }
            guard declareParameter(name, type: .list(typed.type), at: collection.span) else { return nil }
            return .inParameterList(typed, name, typed.type)
        case .keyPath(let path):
            if case .collection(_, _, let relationship, _, let remaining)? = resolve(path, report: false) {
                // An object among the elements (`$t in tags`, `any tags == $t`) needs an
                // object on the left; a plain value is compared with an attribute.
                guard !remaining.isEmpty || Self.contextDependence(of: element) != 1 else {
                    return error(
                        .toManyWithoutQuantifier,
                        "'\(relationship.relationship.name)' is a to-many relationship; 'in' cannot look inside it",
                        at: collection.span,
                        notes: [
                            DiagnosticNote(
                                "compare one of its elements' attributes, as in '\(Printer.print(element)) in "
                                    + "\(Printer.print(collection)).name', or test for an object with a parameter: "
                                    + "'$object in \(Printer.print(collection))'")
                        ])
                }
                // `'swift' in tags.name`: membership in the values a to-many path reaches
                // is NSPredicate's implicit ANY, `any tags.name == 'swift'`; `$t in tags`
                // is `any tags == $t`, an object among the elements.
                let comparison = Expr(.comparison(.equal, collection, element, []), span: span)
                return check(Expr(.quantified(.any, comparison), span: span), expecting: .bool)
            }
            fallthrough
        default:
            return error(
                .invalidMembership, "'in' needs a list, a range or a list parameter on its right",
                at: collection.span, notes: [DiagnosticNote("as in 'x in [1, 2, 3]', 'x in 1...10' or 'x in $values'")])
        }
    }

    /// `x in[c] $names`: Strings, compared as `==[c]` compares them. (A list of values
    /// with a modifier reaches the checker written out as `==[c]` tests.)
    private mutating func checkModifiedMembership(
        _ element: Expr, in collection: Expr, options: StringOptions, at span: SourceSpan
    ) -> TypedExpr? {
        guard case .parameter(let name) = collection.kind else {
            return error(
                .invalidMembership, "'in\(options.modifier)' needs a list parameter or a list of values on its right",
                at: collection.span)
        }
        guard let typed = check(element, expecting: .string) else { return nil }
        guard typed.type.isTextual else {
            if typed.type.isOpaque { return unqueryable(typed.type, element.span) }
            return error(
                .modifierNotApplicable, "'\(options.modifier)' applies only to strings, not to '\(typed.type)'",
                at: element.span)
        }
        guard declareParameter(name, type: .list(typed.type), at: collection.span) else { return nil }
        return .inParameterList(typed, name, typed.type, options)
    }

    private mutating func checkListMembership(_ element: Expr, _ elements: [Expr], at span: SourceSpan) -> TypedExpr? {
        let nonNil = elements.filter { !Self.isNilLiteral($0) }
        let includesNil = nonNil.count < elements.count
        // The element is checked first unless it needs context and some list element does not.
        var anchor: TypedExpr?
        if Self.contextDependence(of: element) == 2, let concrete = nonNil.first(where: { Self.contextDependence(of: $0) < 2 }) {
            guard let typed = check(concrete, expecting: nil) else { return nil }
            anchor = typed
        }
        guard let typedElement = check(element, expecting: anchor.flatMap { Self.expectation(from: $0.type) }) else {
            return nil
        }
        // Objects are in a list of object parameters (`budget in [$a, $b]`), never of values.
        if case .object = typedElement, nonNil.contains(where: { Self.contextDependence(of: $0) != 2 }) {
            return error(
                .relationshipComparison, "cannot test whether a relationship is in a list of values", at: element.span,
                notes: [DiagnosticNote("compare it with object parameters, as in 'budget in $budgets'")])
        }
        if typedElement.type.isOpaque { return unqueryable(typedElement.type, element.span) }
        var members: [TypedExpr] = []
        var failed = false
        for member in nonNil {
            guard let typed = check(member, expecting: Self.expectation(from: typedElement.type)) else {
                failed = true
                continue
            }
            guard Self.comparable(typedElement, typed) != nil else {
                failed = true
                record(
                    .error(
                        .typeMismatch,
                        "list element of type '\(typed.type)' cannot be compared with '\(typedElement.type)'",
                        at: member.span))
                continue
            }
            members.append(typed)
        }
        guard !failed else { return nil }
        // Ints and Doubles in the list compare exactly with the element, unconverted.
        let test = TypedExpr.inList(typedElement, members)
        return includesNil ? .or([.isNil(typedElement), test]) : test
    }

    private mutating func checkRangeMembership(
        _ element: Expr, _ lower: Expr, _ upper: Expr, _ kind: RangeKind, at span: SourceSpan
    ) -> TypedExpr? {
        // The element goes first when it needs its context no more than the bounds do,
        // so `date in '2024-01-01'...'2024-12-31'` reads the bounds as dates.
        let elementFirst =
            Self.contextDependence(of: element)
            <= min(Self.contextDependence(of: lower), Self.contextDependence(of: upper))
        var typedElement: TypedExpr?
        if elementFirst {
            guard let typed = check(element, expecting: nil) else { return nil }
            typedElement = typed
        }
        let hint = typedElement.flatMap { Self.expectation(from: $0.type) }
        guard let (typedLower, typedUpper) = checkOperands(lower, upper, hint: hint) else { return nil }
        guard let (bound1, bound2) = Self.comparable(typedLower, typedUpper) else {
            return error(
                .typeMismatch, "the bounds of a range must have one type, not '\(typedLower.type)' and '\(typedUpper.type)'",
                at: lower.span.merged(with: upper.span))
        }
        if typedElement == nil {
            typedElement = check(element, expecting: Self.expectation(from: bound1.type))
        }
        guard let typedElement else { return nil }
        guard let (subject, low) = Self.comparable(typedElement, bound1),
            let (_, high) = Self.comparable(typedElement, bound2)
        else {
            return error(
                .typeMismatch, "cannot test whether a value of type '\(typedElement.type)' is in a range of '\(bound1.type)'",
                at: span)
        }
        let type = subject.type
        if type.isOpaque { return unqueryable(type, element.span) }
        guard type.isOrdered else {
            return error(
                .notOrderable, "a range needs values with an order, and '\(type)' has none", at: span,
                notes: Self.orderHint(for: type))
        }
        return .inRange(subject, low, high, kind)
    }

    // MARK: - Arithmetic

    mutating func checkArithmetic(
        _ op: ArithmeticOperator, _ lhs: Expr, _ rhs: Expr, expecting expected: ValueType?, at span: SourceSpan
    ) -> TypedExpr? {
        let hint = expected.flatMap { $0.isNumeric || $0 == .date || $0 == .duration ? $0 : nil }
        // `$start + 1h` (Swift: `start.addingTimeInterval(3600)`) where a Date is expected: the
        // parameter is the Date and the other side the Duration, not two Durations.
        if hint == .date, op == .add || op == .subtract, case .parameter = lhs.kind {
            guard let left = check(lhs, expecting: .date), let right = check(rhs, expecting: .duration) else { return nil }
            guard left.type == .date, right.type == .duration else {
                return error(
                    .invalidArithmetic,
                    "binary operator '\(op.rawValue)' cannot be applied to operands of type '\(left.type)' and '\(right.type)'",
                    at: span)
            }
            return .arithmetic(op, left, right, .date)
        }
        guard let (left, right) = checkOperands(lhs, rhs, hint: hint) else { return nil }
        let mismatch = "binary operator '\(op.rawValue)' cannot be applied to operands of type '\(left.type)' and '\(right.type)'"
        if op.isBitwise, left.type != .int || right.type != .int {
            // `a & b` on Bools means `a && b`; on numbers, the bits of Ints.
            let logical = op == .bitwiseAnd ? "&&" : "||"
            let note =
                left.type == .bool && right.type == .bool && op != .bitwiseXor
                ? "for a logical \(op == .bitwiseAnd ? "AND" : "OR") of conditions use '\(logical)'"
                : "'\(op.rawValue)' works on the bits of Int values, as in '(flags & 4) == 0'"
            return error(.invalidArithmetic, mismatch, at: span, notes: [DiagnosticNote(note)])
        }
        switch (left.type, right.type) {
        case (.int, .int):
            return .arithmetic(op, left, right, .int)
        case (.int, .double), (.double, .int), (.double, .double):
            guard op != .remainder else {
                return error(
                    .invalidArithmetic, "'%' needs Int operands", at: span,
                    notes: [DiagnosticNote("the remainder is defined for integers only, as in Swift")])
            }
            guard let (l, r) = Self.unify(left, right) else { return nil }
            return .arithmetic(op, l, r, .double)
        case (.date, .duration) where op == .add || op == .subtract,
            (.duration, .date) where op == .add:
            return .arithmetic(op, left, right, .date)
        case (.duration, .duration) where op == .add || op == .subtract:
            return .arithmetic(op, left, right, .duration)
        default:
            if left.type.isOpaque || right.type.isOpaque {
                return unqueryable(left.type.isOpaque ? left.type : right.type, left.type.isOpaque ? lhs.span : rhs.span)
            }
            return error(.invalidArithmetic, mismatch, at: span)
        }
    }

    /// `a ?? b`: both sides one type (Int promoted to Double), a value rather than
    /// an object; the result is nil only when both sides are.
    mutating func checkCoalesce(
        _ lhs: Expr, _ rhs: Expr, expecting expected: ValueType?, at span: SourceSpan
    )
        -> TypedExpr?
    {
        guard let (left, right) = checkOperands(lhs, rhs, hint: expected) else { return nil }
        if left.type.isOpaque || right.type.isOpaque {
            return unqueryable(left.type.isOpaque ? left.type : right.type, left.type.isOpaque ? lhs.span : rhs.span)
        }
        if right.type == .null { return left }
        if left.type == .null { return right }
        guard let (l, r) = Self.unify(left, right) else {
            var notes: [DiagnosticNote] = []
            if case .object(let path) = left {
                let name = path.steps.last?.relationship.name ?? "SELF"
                notes.append(
                    DiagnosticNote(
                        "a related object takes '??' only with another object; use one of its attributes, as in '\(name)?.name ?? …'"
                    ))
            }
            return error(
                .typeMismatch,
                "binary operator '??' cannot be applied to operands of type '\(left.type)?' and '\(right.type)'", at: span,
                notes: notes)
        }
        return .coalesce(l, r, l.type)
    }

    mutating func checkNegation(_ operand: Expr, expecting expected: ValueType?, at span: SourceSpan) -> TypedExpr? {
        guard let typed = check(operand, expecting: expected) else { return nil }
        switch typed.type {
        case .int, .double, .duration:
            return .negate(typed, typed.type)
        default:
            return error(
                .invalidArithmetic, "unary operator '-' cannot be applied to an operand of type '\(typed.type)'",
                at: span)
        }
    }
}
