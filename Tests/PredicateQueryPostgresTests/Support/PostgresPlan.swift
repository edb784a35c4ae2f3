// The plans a comparison on PostgreSQL makes the server choose, so that what it
// holds does not rest on the plan PostgreSQL picks by itself. That choice follows
// the tables' statistics, which autovacuum may gather part way through a run: with
// a hash join PostgreSQL scans a whole table and computes a condition on that table
// alone for every row of it, reached by the query or not; with a nested loop only
// for the rows the join reaches. A query that computes a value PostgreSQL cannot
// give (an @sum leaving Int's range part way) for a row no object of the query
// reaches may be stopped as out of range under one plan and answered under the
// other (`OutOfRangeWitness` says which rows it may compute).

/// A kind of plan PostgreSQL is made to choose by turning the others off (it still
/// takes one of those where no plan of this kind can answer the query).
enum PostgresPlan: CaseIterable {
    /// The plan PostgreSQL picks by itself.
    case ownChoice
    /// Hash joins: each side scanned whole.
    case hashJoins
    /// Nested loops: the inner side read for each row of the outer.
    case nestedLoops
    /// Merge joins: both sides sorted on the join's keys.
    case mergeJoins
    /// Every table read by a sequential scan, joined by hash or merge.
    case sequentialScans

    /// The server settings that make PostgreSQL choose this plan.
    var settings: [(String, String)] {
        switch self {
        case .ownChoice: []
        case .hashJoins: [("enable_nestloop", "off"), ("enable_mergejoin", "off")]
        case .nestedLoops: [("enable_hashjoin", "off"), ("enable_mergejoin", "off")]
        case .mergeJoins: [("enable_hashjoin", "off"), ("enable_nestloop", "off")]
        case .sequentialScans: [("enable_indexscan", "off"), ("enable_bitmapscan", "off"), ("enable_nestloop", "off")]
        }
    }
}
