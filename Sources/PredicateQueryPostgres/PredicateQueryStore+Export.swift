// Re-exported so that code which imports PredicateQueryPostgres alone still sees
// `QueryStore`, `StoreError`, `Row`, `StoreLending`, `QueryBudget` and the rest,
// as it did when they came from PredicateQuerySQLite.
@_exported import PredicateQueryStore
