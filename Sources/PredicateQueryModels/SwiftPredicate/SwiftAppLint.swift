// `pq lint`: every predicate and sort of a SwiftData app, checked against the
// app's own `@Model` classes, without a store.
//
// The files are read once for their declarations (`SwiftModelReader`), then
// each module (`SwiftModuleLayout`: a SwiftPM target, an Xcode target or a folder) gets the
// schema it sees: its own models first, then those of the other modules that
// are not tests, so a test target's mocks never stand in for the app's models.
// The places queries are written — `#Predicate<T> { … }`,
// `@Query(filter:sort:order:)` and `Query(…)`, `FetchDescriptor<T>(predicate:sortBy:)`
// and `SortDescriptor(\T.x)` — are found per file (`SwiftQuerySiteFinder`), their
// model type taken from the code around them when it is not written, then
// resolved through typealiases (`SwiftSchemaBuilder+Names`). A site whose model
// cannot be told is skipped and counted, never guessed. The rest are read by
// the Swift predicate parser into a `Query`, checked by the core's checker, then
// by the SwiftData rules (`SwiftDataRules`) and for the places SwiftData answers
// differently (`SwiftDataDifferences`); what only pq cannot do is dropped
// (`SwiftLintOwnLimits`): an app runs on SwiftData, not on pq. With `sql`, each
// site is lowered for a Core Data layout store. Diagnostics keep byte offsets
// into their file, so they render with carets into the Swift source.

import PredicateQuery

/// Checks the queries of a SwiftData app's source files.
public enum SwiftAppLint {
    /// One query site: where it is, what it filters, what was found, its SQL.
    public struct Site: Sendable {
        /// The path of the file the site is in.
        public var file: String
        /// What the site is: `#Predicate`, `@Query`, `FetchDescriptor`, `SortDescriptor`.
        public var kind: String
        /// Where the site is in its file, in bytes.
        public var span: SourceSpan
        /// The model it is for, when known.
        public var entity: String?
        /// What was found at the site, in source order.
        public var diagnostics: [Diagnostic]
        /// The SQL pq would run for it, when asked and when it checked. The values it captures are
        /// placeholders: an equality with one shows as `=` (`IS` when the value is nil), a captured list as
        /// `?n[]` (one placeholder per element).
        public var sql: String?
        /// Why the site was not checked (pq could not tell which model it is for), or nil if it was.
        /// A skipped site may still have a finding that needs no model (`generic-model-key-path`).
        public var skipped: String?
    }

    /// Everything `lint` found.
    public struct Report: Sendable {
        /// The files linted.
        public var files: [SwiftModelSource.File]
        /// The models of every module that is not a test, then of the test modules.
        public var schema: Schema
        /// What the model reader skipped.
        public var modelWarnings: [SwiftModelSource.Warning]
        /// Every query site, in file order then source order.
        public var sites: [Site]
        /// The Xcode projects (`project.pbxproj`) pq could not read: their files' modules are their folders.
        public var projectWarnings: [SwiftModelSource.Warning] = []

        /// Every diagnostic with its file, in file order then source order.
        public var diagnostics: [(file: String, diagnostic: Diagnostic)] {
            sites.flatMap { site in site.diagnostics.map { (site.file, $0) } }
        }

        /// The sites not checked, each with the reason.
        public var skippedSites: [Site] { sites.filter { $0.skipped != nil } }
    }

    /// Reads the models of `files`, then checks every query site in them.
    ///
    /// `engineDifferences` adds the warnings where pq's own engine sorts differently from
    /// SwiftData (for someone running the app's queries with pq); they say nothing about the app.
    /// Among `files`, an Xcode project's `Name.xcodeproj/project.pbxproj` is read for its targets' files (a test
    /// target's types do not shadow the app's), not as Swift.
    public static func lint(_ files: [SwiftModelSource.File], sql: Bool = false, engineDifferences: Bool = false) -> Report {
        let projects = files.filter { SwiftModuleLayout.isXcodeProject($0.path) }
        let files = projects.isEmpty ? files : files.filter { !SwiftModuleLayout.isXcodeProject($0.path) }
        let declarations = files.map(SwiftModelReader.read)
        let layout = SwiftModuleLayout(paths: files.map(\.path), texts: files.map(\.text), projects: projects)
        // One build of the models per module and set of imported modules its files use.
        let imports = SwiftLintModels.importedModules(declarations, layout: layout)
        var byView: [ModuleView: SwiftLintModels] = [:]
        var warned: Set<SwiftModuleLayout.Module> = []
        var warnings: [SwiftModelSource.Warning] = []
        for (module, imported) in zip(layout.modules, imports) {
            let view = ModuleView(module: module, imported: imported)
            guard byView[view] == nil else { continue }
            let models = SwiftLintModels(declarations, layout: layout, module: module, imported: imported, sql: sql)
            // The model reader's warnings about a module's files, once per module.
            if warned.insert(module).inserted { warnings += models.warnings }
            byView[view] = models
        }
        let whole = SwiftLintModels(declarations, layout: layout, module: nil, sql: false)
        let scanned = files.map { file in
            let bytes = Array(file.text.utf8)
            return (bytes: bytes, tokens: SwiftSourceScanner.scan(bytes).tokens)
        }
        let methods = SwiftPredicateMethods(files: scanned.map(\.tokens))
        // `Beta.Item`: the models of module Beta, its own declarations first, made when a site names one.
        var qualifiedViews: [SwiftModuleLayout.Module: SwiftLintModels] = [:]
        var sites: [Site] = []
        for (position, file) in files.enumerated() {
            guard let models = byView[ModuleView(module: layout.modules[position], imported: imports[position])] else {
                continue
            }
            let (bytes, tokens) = scanned[position]
            var finder = SwiftQuerySiteFinder(tokens: tokens, sourceLength: bytes.count)
            finder.acceptsEvaluate = true
            finder.predicateMethods = methods
            for var found in finder.sites() {
                var siteModels = models
                if let name = found.query?.entity,
                    let (module, type) = qualifyingModule(
                        of: writtenType(of: found, name), from: layout.modules[position], seen: models, layout: layout)
                {
                    if module != layout.modules[position] {
                        let view =
                            qualifiedViews[module] ?? SwiftLintModels(declarations, layout: layout, module: module, sql: sql)
                        qualifiedViews[module] = view
                        siteModels = view
                    }
                    found.writtenType = type
                    found.query?.entity = Name(type.joined(separator: "."), span: name.span)
                }
                // Why a site is skipped names the generic code around it, looked up only for those sites.
                let name = found.query?.entity
                if name.map({ siteModels.entityName(written: writtenType(of: found, $0)) == nil }) ?? true {
                    found.genericScope = finder.genericDeclarations(around: found.token)
                }
                sites.append(
                    check(found, in: file.path, bytes: bytes, models: siteModels, engineDifferences: engineDifferences))
            }
        }
        return Report(
            files: files, schema: whole.schema,
            modelWarnings: SwiftModelSource.limited(warnings, fileOrder: files.map(\.path)), sites: sites,
            projectWarnings: layout.warnings)
    }

    /// The app's module a site's type is qualified with (`Beta.Item`), and the type in it: when the
    /// first component of the type as written names a module of the app (the site's own first) and no
    /// top-level type the file sees (such a type shadows the module, as in Swift).
    static func qualifyingModule(
        of written: String, from own: SwiftModuleLayout.Module, seen models: SwiftLintModels, layout: SwiftModuleLayout
    ) -> (SwiftModuleLayout.Module, [String])? {
        let components = written.split(separator: ".").map(String.init)
        guard components.count > 1, !models.topLevelNames.contains(components[0]) else { return nil }
        let module =
            own.name == components[0] ? own : layout.modules.first { $0.name == components[0] && !$0.isTest }
        return module.map { ($0, Array(components.dropFirst())) }
    }

    /// A module as one of its files sees the app: with the app's modules that file imports.
    private struct ModuleView: Hashable {
        var module: SwiftModuleLayout.Module
        var imported: Set<String>
    }

    static func check(
        _ found: SwiftQuerySiteFinder.Found, in file: String, bytes: [UInt8], models moduleModels: SwiftLintModels,
        engineDifferences: Bool
    ) -> Site {
        // `SchemaV1.Trip` where the schema's `Trip` is another version: that version's models.
        let models = found.query?.entity.flatMap { moduleModels.version(written: writtenType(of: found, $0)) } ?? moduleModels
        let schema = models.schema
        var site = Site(
            file: file, kind: found.kind, span: found.span, entity: found.query?.entity?.text,
            diagnostics: found.diagnostics.filter { !SwiftLintOwnLimits.isOwnLimit($0) })
        // The app compiles, so Swift pq's reader stops at is pq's limit (but for methods #Predicate rejects).
        if let reason = SwiftLintOwnLimits.unreadable(found.diagnostics) {
            site.diagnostics.removeAll { $0.severity == .error }
            site.skipped = reason
            return site
        }
        guard var written = found.query, !found.diagnostics.containsErrors else { return site }
        guard let name = written.entity else {
            // Generic code whose closure reads nothing of its model is checked whatever the model is.
            if let generic = found.genericScope.first,
                let checked = modelFree(found, written, placeholder: generic.parameters.first ?? "Model", site: site,
                    bytes: bytes, engineDifferences: engineDifferences)
            {
                return checked
            }
            site.skipped = unwrittenReason(found)
            return site
        }
        if let modules = moduleModels.undecidedModules(written: writtenType(of: found, name)) {
            let named = modules.map { "'\($0)'" }.joined(separator: " and ")
            site.skipped = "'\(name.text)' is declared in modules \(named), and this file imports none of them: "
                + "pq does not guess which one it is"
            return site
        }
        guard let entity = models.entityName(written: writtenType(of: found, name)) else {
            if let generic = found.genericScope.first(where: { $0.parameters.contains(name.text) }) {
                if let checked = modelFree(
                    found, written, placeholder: name.text, site: site, bytes: bytes, engineDifferences: engineDifferences)
                {
                    return checked
                }
                // It reads its model: unchecked, but SwiftData is seen to trap on such a key path.
                if let predicate = written.predicate,
                    let warning = GenericModelKeyPathRule.check(
                        predicate, parameter: name.text, declaration: generic.description)
                {
                    site.diagnostics.append(warning)
                }
            }
            if name.text == SwiftDataHistory.transaction {
                return history(found, written, site: site, bytes: bytes, engineDifferences: engineDifferences)
            }
            site.skipped = unknownReason(name.text, found)
            return site
        }
        written.entity = Name(entity, span: name.span)
        return check(
            found, written, schema: schema, skippedProperties: models.skippedProperties, mapping: models.mapping,
            site: site, bytes: bytes, engineDifferences: engineDifferences)
    }

    /// A site in generic code (`Query<T>`), checked against a model with no properties: when that
    /// passes, the site reads nothing of its model (it only evaluates predicates passed in, or sorts by
    /// a key path it was given), so it holds for every model; otherwise nil, and the site is skipped.
    static func modelFree(
        _ found: SwiftQuerySiteFinder.Found, _ written: Query, placeholder: String, site: Site, bytes: [UInt8],
        engineDifferences: Bool
    ) -> Site? {
        var written = written
        written.entity = Name(placeholder, span: written.entity?.span ?? found.span)
        let schema = Schema(entities: [Entity(placeholder)])
        let checked = check(
            found, written, schema: schema, skippedProperties: [:], mapping: nil, site: site, bytes: bytes,
            engineDifferences: engineDifferences)
        return checked.diagnostics.containsErrors ? nil : checked
    }

    /// A predicate over SwiftData's history (`HistoryDescriptor<DefaultHistoryTransaction>`), checked
    /// against what Apple documents of a transaction (`SwiftDataHistory`); skipped when it reads what
    /// pq does not know of one (its `changes`), since the app compiles.
    static func history(
        _ found: SwiftQuerySiteFinder.Found, _ written: Query, site: Site, bytes: [UInt8], engineDifferences: Bool
    ) -> Site {
        var site = site
        let checked = check(
            found, written, schema: SwiftDataHistory.schema, skippedProperties: [:], mapping: nil, site: site,
            bytes: bytes, engineDifferences: engineDifferences)
        guard checked.diagnostics.containsErrors else { return checked }
        site.skipped = "it reads what pq does not know of SwiftData's history: pq knows a transaction's "
            + SwiftDataHistory.knownProperties + ", not its changes"
        return site
    }

    /// The checks of a site whose model is `written.entity` in `schema`.
    static func check(
        _ found: SwiftQuerySiteFinder.Found, _ query: Query, schema: Schema, skippedProperties: [String: Set<String>],
        mapping: StoreMapping?, site: Site, bytes: [UInt8], engineDifferences: Bool
    ) -> Site {
        var site = site
        site.entity = query.entity?.text
        let query = SwiftPredicate.resolveMembers(query, schema: schema)
        let checked = TypeChecker.check(query, schema: schema)
        let rules = SwiftDataRules.check(query, schema: schema)
        // A member after a to-many relationship: the Swift advice (contains(where:)) replaces the text language's (any).
        let toMany = rules.contains { $0.code == .swiftDataToMany }
        let limits = SwiftLintOwnLimits(schema: schema, skippedProperties: skippedProperties, bytes: bytes)
        // Emptiness tests of to-many relationships SwiftData was reported to fail on; a nil test of an
        // optional one is also pq's own limit, which this warning replaces.
        var emptiness: (diagnostics: [Diagnostic], explainedKeyPaths: Set<SourceSpan>) = ([], [])
        if let predicate = query.predicate, let name = query.entity?.text, let root = schema.entity(named: name) {
            emptiness = ToManyEmptinessRule.check(predicate, schema: schema, root: root)
            // A chain the compiler cannot type-check: the app does not build.
            site.diagnostics += TypeCheckBudgetRule.check(
                predicate, schema: schema, root: root, site: found.extent ?? found.span)
        }
        site.diagnostics += checked.diagnostics.filter {
            guard $0.code == .toManyWithoutQuantifier else { return !limits.isOwnLimit($0) }
            return !toMany && !emptiness.explainedKeyPaths.contains($0.span) && !limits.isOwnLimit($0)
        }.map(StoredValueMemberRule.restate)
        site.diagnostics += rules + emptiness.diagnostics
        // Where the app's Swift is pq's, or SwiftData would answer differently (`SwiftDataDifferences`).
        site.diagnostics += SwiftDataDifferences.foreign(found.foreignSpellings)
        if let predicate = query.predicate {
            site.diagnostics += SwiftDataDifferences.decomposedLiterals(predicate)
            site.diagnostics += LocalizedStandardContainsRule.check(predicate, bytes: bytes)
        }
        if let result = checked.query {
            if let predicate = query.predicate {
                site.diagnostics += SwiftDataDifferences.nilInequalities(predicate, schema: schema, root: result.entity)
                site.diagnostics += StoredIdentityRule.check(predicate, schema: schema, root: result.entity)
                site.diagnostics += RelationshipNilTestRule.check(predicate, schema: schema, root: result.entity)
            }
            if engineDifferences {
                site.diagnostics += SwiftDataDifferences.sorts(
                    query.sortKeys, checked: result.sortKeys, comparators: found.comparators)
            }
        }
        site.diagnostics.sort { $0.span.start < $1.span.start }
        // A site that evaluates a captured predicate has no SQL of its own: pq cannot see that predicate here.
        guard let result = checked.query, !rules.containsErrors, found.evaluated.isEmpty else { return site }
        if let mapping, !site.diagnostics.containsErrors, let compiled = try? SQLLowering.lower(result, mapping: mapping) {
            // The values the predicate captures are not known here: an equality with one is shown as `=`
            // (it is `IS` when the value is nil), a captured list as its marker `?n[]`.
            site.sql = compiled.statement(listSizes: [:])
        }
        return site
    }

    /// Why a site whose model type is not written, nor clear from the code around it, is skipped.
    static func unwrittenReason(_ found: SwiftQuerySiteFinder.Found) -> String {
        guard let generic = found.genericScope.first else {
            return "its model type is neither written nor clear from the code around it"
        }
        return "its model type is not written, and the code around it is generic (in \(generic.description)): "
            + "it is known only where that code is used"
    }

    /// Why a site whose model type is named, but is no `@Model` class pq found, is skipped.
    static func unknownReason(_ name: String, _ found: SwiftQuerySiteFinder.Found) -> String {
        if let generic = found.genericScope.first(where: { $0.parameters.contains(name) }) {
            return "'\(name)' is a generic parameter (of \(generic.description)): "
                + "its model is known only where that code is used"
        }
        return "'\(name)' is not a @Model class pq found (a type declared outside the files, or a generic parameter)"
    }

    /// The site's model type as written, with its path when the site wrote one (`DBModel.Country`).
    static func writtenType(of found: SwiftQuerySiteFinder.Found, _ name: Name) -> String {
        found.writtenType.last == name.text ? found.writtenType.joined(separator: ".") : name.text
    }
}
