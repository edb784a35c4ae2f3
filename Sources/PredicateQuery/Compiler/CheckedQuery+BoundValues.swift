// How many values a checked query's SQL binds, counted before lowering.
//
// Every literal and parameter of a checked query becomes a bound value when it is
// lowered (`SQLLowering.value`); SQLite refuses a statement with more than
// `BindingResolver.maxPlaceholders` of them. Counting them on the checked tree is
// linear and takes microseconds, so a query over the limit is refused before
// lowering spends time on SQL that could never run.

extension CheckedQuery {
    /// The values the query's SQL binds at least, list parameters counting one each
    /// (their values are known only when the query runs, and `BindingResolver`
    /// checks them then). Lowering may bind a few more (the upper bound of a prefix
    /// test, PostgreSQL's patterns, `now()`); a Boolean literal is not counted,
    /// since a condition that is constantly true may be left out.
    public var boundValueCount: Int {
        var count = (limit == nil ? 0 : 1) + (offset == nil ? 0 : 1)
        guard let predicate else { return count }
        // The checker's limits bound the depth of a checked tree, so this recursion is safe.
        func add(_ expr: TypedExpr) {
            switch expr {
            case .constant(.bool, _): break
            case .constant, .parameter, .inParameterList: count += 1
            default: break
            }
            expr.forEachChild(add)
        }
        add(predicate)
        return count
    }
}
