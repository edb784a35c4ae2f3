// `pq lint`: every predicate and sort of a SwiftData app, checked against the
// app's own `@Model` classes, without a store.
//
// The files are read twice over the same scanner: once by `SwiftModelSource`
// for the schema, once here for the places queries are written —
// `#Predicate<T> { … }`, `@Query(filter:sort:order:)` and `Query(…)`,
// `FetchDescriptor<T>(predicate:sortBy:)` and `SortDescriptor(\T.x)`. Each is
// read by the Swift predicate parser into a `Query`, checked by the core's
// checker, then by the SwiftData rules (`SwiftDataRules`) and for the places
// SwiftData answers differently (`SwiftDataDifferences`); with `sql`, lowered for
// a Core Data layout store. Diagnostics keep byte offsets into their file, so
// they render with carets into the Swift source.

import PredicateQuery

/// Checks the queries of a SwiftData app's source files.
public enum SwiftAppLint {
    /// One query site: where it is, what it filters, what was found, its SQL.
    public struct Site: Sendable {
        public var file: String
        /// What the site is: `#Predicate`, `@Query`, `FetchDescriptor`, `SortDescriptor`.
        public var kind: String
        public var span: SourceSpan
        public var entity: String?
        public var diagnostics: [Diagnostic]
        /// The SQL pq would run for it, when asked and when it checked.
        public var sql: String?
    }

    /// Everything `lint` found.
    public struct Report: Sendable {
        public var files: [SwiftModelSource.File]
        public var schema: Schema
        /// What the model reader skipped.
        public var modelWarnings: [SwiftModelSource.Warning]
        public var sites: [Site]

        /// Every diagnostic with its file, in file order then source order.
        public var diagnostics: [(file: String, diagnostic: Diagnostic)] {
            sites.flatMap { site in site.diagnostics.map { (site.file, $0) } }
        }
    }

    /// Reads the models of `files`, then checks every query site in them.
    public static func lint(_ files: [SwiftModelSource.File], sql: Bool = false) -> Report {
        let (schema, warnings) = SwiftModelSource.schema(from: files)
        let mapping = sql ? StoreMapping.make(for: schema, layout: .coreData) : nil
        var sites: [Site] = []
        for file in files {
            let bytes = Array(file.text.utf8)
            let (tokens, _) = SwiftSourceScanner.scan(bytes)
            var finder = SwiftQuerySiteFinder(tokens: tokens, sourceLength: bytes.count)
            for found in finder.sites() {
                sites.append(check(found, in: file.path, schema: schema, mapping: mapping))
            }
        }
        return Report(files: files, schema: schema, modelWarnings: warnings, sites: sites)
    }

    static func check(_ found: SwiftQuerySiteFinder.Found, in file: String, schema: Schema, mapping: StoreMapping?) -> Site {
        var site = Site(
            file: file, kind: found.kind, span: found.span, entity: found.query?.entity?.text, diagnostics: found.diagnostics)
        guard let written = found.query, !found.diagnostics.containsErrors else { return site }
        let query = SwiftPredicate.resolveMembers(written, schema: schema)
        guard query.entity != nil else {
            site.diagnostics.append(
                .warning(
                    .swiftSyntax, "pq cannot tell which model this \(found.kind) is for; write its type, as in #Predicate<Trip>",
                    at: found.span))
            return site
        }
        let checked = TypeChecker.check(query, schema: schema)
        let rules = SwiftDataRules.check(query, schema: schema)
        // A member after a to-many relationship: the Swift advice (contains(where:)) replaces the text language's (any).
        let toMany = rules.contains { $0.code == .swiftDataToMany }
        site.diagnostics += checked.diagnostics.filter { !(toMany && $0.code == .toManyWithoutQuantifier) }
        site.diagnostics += rules
        // Where the app's Swift is pq's, or SwiftData would answer differently (`SwiftDataDifferences`).
        site.diagnostics += SwiftDataDifferences.foreign(found.foreignSpellings)
        if let predicate = query.predicate { site.diagnostics += SwiftDataDifferences.decomposedLiterals(predicate) }
        if let result = checked.query {
            if let predicate = query.predicate {
                site.diagnostics += SwiftDataDifferences.nilInequalities(predicate, schema: schema, root: result.entity)
            }
            site.diagnostics += SwiftDataDifferences.sorts(
                query.sortKeys, checked: result.sortKeys, comparators: found.comparators)
        }
        site.diagnostics.sort { $0.span.start < $1.span.start }
        guard let result = checked.query, !rules.containsErrors else { return site }
        if let mapping, !site.diagnostics.containsErrors, let compiled = try? SQLLowering.lower(result, mapping: mapping) {
            site.sql = compiled.sql
        }
        return site
    }
}
