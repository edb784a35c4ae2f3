// What `--check` prints: the query in pq's own syntax (as pq reads it, with the
// entity it runs against named) and the type of every name it uses. `--dump`
// prints the checked tree instead.

import PredicateQuery

extension Session {
    /// The checked query as pq's syntax and its names' types, one per line.
    func checkedText(_ query: Query, _ checked: CheckedQuery) -> String {
        var named = query
        if named.entity == nil { named.entity = Name(checked.entity.name, span: .point(0)) }
        return ([Printer.print(named)] + checked.typeSummary.map { "  " + $0 }).joined(separator: "\n")
    }
}
