// The seeds and schemas the differential tests generate data and queries for,
// shared by SQLite's (`DifferentialTests`) and PostgreSQL's
// (`PostgresDifferentialTests`), so both compare the same cases.

import PredicateQuery
import PredicateQueryExamples
import PredicateQueryTestSupport

/// What the differential tests run over.
public enum DifferentialInputs {
    /// The fixed seeds, and `PQ_SEED`'s when one is set.
    public static var seeds: [UInt64] { TestSeeds.with([1, 2]) }

    /// Every example schema, by name.
    public static let schemas: [(String, Schema)] =
        ExampleSchemas.byName.filter { $0.name != "MoviesWorkaround" }.map { ($0.name, $0.schema) }
        + [("MoviesWorkaround", ExampleSchemas.moviesWorkaround)]
}
