// Rewriting a checked query's leaves: the binding step puts the values of a
// query's parameters in their place (still bound, never pasted into SQL) when the
// SQL's shape depends on them, and tests turn literals into parameters to hold
// that a parameter gets the plan its literal would.

extension TypedExpr {
    /// The expression with each leaf (constant, parameter, date, attribute, object)
    /// replaced by `transform`'s result.
    public func rewritingLeaves(_ transform: (TypedExpr) -> TypedExpr) -> TypedExpr {
        func rewrite(_ expr: TypedExpr) -> TypedExpr {
            switch expr {
            case .constant, .parameter, .currentDate, .attribute, .object: return transform(expr)
            case .isNil(let operand): return .isNil(rewrite(operand))
            case .not(let operand): return .not(rewrite(operand))
            case .and(let operands): return .and(operands.map(rewrite))
            case .or(let operands): return .or(operands.map(rewrite))
            case .compare(let op, let lhs, let rhs, let options): return .compare(op, rewrite(lhs), rewrite(rhs), options)
            case .stringTest(let op, let lhs, let rhs, let options):
                return .stringTest(op, rewrite(lhs), rewrite(rhs), options)
            case .inList(let element, let members): return .inList(rewrite(element), members.map(rewrite))
            case .inParameterList(let element, let name, let type, let options):
                return .inParameterList(rewrite(element), name, type, options)
            case .inRange(let element, let lower, let upper, let kind):
                return .inRange(rewrite(element), rewrite(lower), rewrite(upper), kind)
            case .arithmetic(let op, let lhs, let rhs, let type): return .arithmetic(op, rewrite(lhs), rewrite(rhs), type)
            case .negate(let operand, let type): return .negate(rewrite(operand), type)
            case .coalesce(let lhs, let rhs, let type): return .coalesce(rewrite(lhs), rewrite(rhs), type)
            case .toDouble(let operand): return .toDouble(rewrite(operand))
            case .quantified(let quantifier, let path, let body): return .quantified(quantifier, path, rewrite(body))
            case .aggregate(let function, let path, let filter, let value, let type):
                return .aggregate(function, path, filter: filter.map(rewrite), value: value.map(rewrite), type)
            }
        }
        return rewrite(self)
    }
}

// `||` chains of equalities as membership: `name == 'a' || name == 'b' || …` means
// exactly `name in ['a', 'b', …]` when every member is a value that is never nil,
// so lowering writes one `IN` list (which SQLite and PostgreSQL answer from an
// index whatever the query sorts by) instead of a disjunction per value.

extension TypedExpr {
    /// The operands of an `||`, with the equalities of each attribute path that two
    /// or more of them test gathered into one `inList` at the place of the first,
    /// the other operands kept as they are and in their order.
    ///
    /// An operand joins only when it means what membership means (`inList` is false
    /// for a nil subject and never matches a nil member; `==` holds for nil == nil):
    /// `==` without `[c]`/`[d]`, an attribute on one side, and on the other a constant
    /// that is not nil, or a parameter (which may be bound to nil) where the attribute
    /// can never be nil. Only types whose equality is the same in an `IN` list as in
    /// `=` on both databases: strings, integers, enums and UUIDs (not Doubles, whose
    /// stored NaN is nil on PostgreSQL, nor Dates, compared as seconds there).
    static func equalitiesAsMembership(_ operands: [TypedExpr]) -> [TypedExpr] {
        guard operands.count >= 2 else { return operands }
        // The paths tested, in order of first appearance, and the members for each.
        var paths: [(path: AttributePath, type: ValueType, first: Int, members: [TypedExpr])] = []
        var joined: [Int?] = []
        joined.reserveCapacity(operands.count)
        for (position, operand) in operands.enumerated() {
            guard let (path, type, member) = membershipTest(operand) else {
                joined.append(nil)
                continue
            }
            if let group = paths.firstIndex(where: { $0.type == type && $0.path == path }) {
                paths[group].members.append(member)
                joined.append(group)
            } else {
                paths.append((path, type, position, [member]))
                joined.append(paths.count - 1)
            }
        }
        guard paths.contains(where: { $0.members.count >= 2 }) else { return operands }
        var result: [TypedExpr] = []
        result.reserveCapacity(operands.count)
        for (position, operand) in operands.enumerated() {
            guard let group = joined[position], paths[group].members.count >= 2 else {
                result.append(operand)
                continue
            }
            // The first equality of a path stands for them all; the others are in it.
            if paths[group].first == position {
                result.append(.inList(.attribute(paths[group].path, paths[group].type), paths[group].members))
            }
        }
        return result
    }

    /// The attribute path, its type and the value an equality tests it against, when
    /// the equality can join a membership test (see `equalitiesAsMembership`).
    private static func membershipTest(_ expr: TypedExpr) -> (AttributePath, ValueType, TypedExpr)? {
        guard case .compare(.equal, let lhs, let rhs, let options) = expr, options.isEmpty else { return nil }
        let (path, type, member): (AttributePath, ValueType, TypedExpr)
        switch (lhs, rhs) {
        case (.attribute(let p, let t), .constant), (.attribute(let p, let t), .parameter):
            (path, type, member) = (p, t, rhs)
        case (.constant, .attribute(let p, let t)), (.parameter, .attribute(let p, let t)):
            (path, type, member) = (p, t, lhs)
        default:
            return nil
        }
        switch type {
        case .string, .int, .enumeration, .uuid: break
        default: return nil
        }
        switch member {
        case .constant(let value, let memberType) where memberType == type && !value.isNull:
            return (path, type, member)
        case .parameter(_, let memberType) where memberType == type && !path.isOptional && path.steps.isEmpty:
            return (path, type, member)
        default:
            return nil
        }
    }
}
