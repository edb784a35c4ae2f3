// Re-exported so that code which imports PredicateQuerySQLite alone (as it did
// before the store layer was a module of its own) still sees `QueryStore`,
// `StoreError`, `Row`, `StoreLending`, `QueryBudget` and the rest.
@_exported import PredicateQueryStore
