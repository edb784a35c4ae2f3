// Any query as the `Predicate<Model>` and `[SortDescriptor<Model>]` that
// SwiftData's `FetchDescriptor` (or an array's `filter` and `sorted(using:)`)
// takes: parsed from text, built with the typed builder, expanded from a
// format string, or converted from a `#Predicate`.
//
//     let query = try ModelQuery<Budget>(parsing: "limit > 100 && name contains 'Vac' sort by name")
//     let descriptor = FetchDescriptor(
//         predicate: try query.foundationPredicate(), sortBy: try query.foundationSortDescriptors())

import Foundation

/// Why a query could not be parsed, checked or converted: every diagnostic, with
/// the text they point into. Printed, it shows each with a caret under the fault.
public typealias ModelQueryError = DiagnosticsError

extension DiagnosticCode {
    /// The query means something Foundation's `Predicate` cannot say the same way.
    public static let foundationUnsupported: DiagnosticCode = "foundation.unsupported"
    /// The query names another entity than the model type it is parsed for.
    public static let otherEntity: DiagnosticCode = "check.otherEntity"
    /// `limit $n` or `offset $n` in a query for the builder, which holds numbers.
    public static let countParameter: DiagnosticCode = "check.countParameter"
}

extension ModelQuery {
    /// Parses `text` and checks it against the schema of `Model` and of the models
    /// its relationships reach, keeping its sort keys, limit and offset.
    ///
    /// The text may name the entity or leave it out: `Budget where limit > 100` and
    /// `limit > 100` are the same query for `ModelQuery<Budget>`. A query with
    /// `$name` parameters takes their values with `binding(_:)`.
    ///
    /// - Throws: `ModelQueryError` with every diagnostic, if the text does not parse
    ///   or check.
    public init(parsing text: String, limits: Limits = .standard) throws(ModelQueryError) {
        let parsed = Parser.parse(text, limits: limits)
        guard let query = parsed.query, !parsed.diagnostics.contains(where: { $0.severity == .error }) else {
            throw ModelQueryError(diagnostics: parsed.diagnostics, source: text)
        }
        let entityName = Model.entityName
        if let entity = query.entity, entity.text != entityName {
            let diagnostic = Diagnostic.error(
                .otherEntity, "the query is for '\(entity.text)', but it is parsed for '\(entityName)'", at: entity.span,
                notes: [DiagnosticNote("leave the entity out, or parse it as a ModelQuery<\(entity.text)>")])
            throw ModelQueryError(diagnostics: [diagnostic], source: text)
        }
        let schema = Model.querySchema
        let checked = TypeChecker.check(query, schema: schema, defaultEntity: entityName, limits: limits)
        guard checked.query != nil else { throw ModelQueryError(diagnostics: checked.diagnostics, source: text) }
        func count(_ count: QueryCount?) throws(ModelQueryError) -> Int? {
            switch count?.value {
            case nil: return nil
            case .literal(let value)?: return Int(clamping: value)
            case .parameter(let name)?:
                let diagnostic = Diagnostic.error(
                    .countParameter, "'$\(name)' as a limit or offset cannot be kept in a ModelQuery", at: count?.span ?? .point(0),
                    notes: [DiagnosticNote("write the number, or set the query's 'limit' and 'offset' in code")])
                throw ModelQueryError(diagnostics: [diagnostic], source: text)
            }
        }
        self.init(
            where: ModelPredicate(QueryCondition(QueryFragment(query.predicate ?? Expr(.literal(.bool(true)))))),
            sortedBy: query.sortKeys.map { ModelSort(key: $0) }, limit: try count(query.limit), offset: try count(query.offset))
        self.sourceText = text
        // The same check `checkedForFoundation()` makes of `syntax` (the same entity,
        // predicate and sort keys; this check's limits are the ones it uses).
        if limits == .standard { self.checkedFromText = checked.query }
    }

    /// The query with values for its `$name` parameters (added to those it has).
    public func binding(_ values: [String: ParameterValue]) -> ModelQuery {
        var query = self
        query.parameterValues.merge(values) { _, new in new }
        return query
    }

    /// The query's filter as a Foundation predicate, for SwiftData's
    /// `FetchDescriptor(predicate:)` or an array's `filter`.
    ///
    /// The predicate is made of the nodes a `#Predicate` would hold: one `KeyPath`
    /// node per step, `flatMap` through optional relationships, enums compared by
    /// raw value. It means what the query means on every object, with the
    /// differences README.md lists ("Filters in a SwiftData app"); a construct
    /// Foundation cannot say the same way is refused by name. `now()` and `today()`
    /// take their value from `environment`, when the predicate is made.
    ///
    /// - Throws: `ModelQueryError` naming the construct and why, or the parameters
    ///   that have no value.
    public func foundationPredicate(environment: QueryEnvironment = QueryEnvironment()) throws(ModelQueryError)
        -> Predicate<Model>
    {
        let (checked, source) = try checkedForFoundation()
        let exporter = PredicateExporter(
            model: Model.self, schema: checked.schema, parameters: allParameterValues, environment: environment)
        do {
            return try exporter.predicate(checked, Model.self)
        } catch {
            throw conversionError(error, checked: checked, source: source)
        }
    }

    /// The query's sort keys as Foundation sort descriptors, ordering as `sort by`
    /// does: strings by Swift's `<` (Unicode scalar order, for text in composed
    /// form), nil first ascending, enums by raw value.
    ///
    /// - Throws: `ModelQueryError` for a key Foundation cannot order the same way:
    ///   `[c]`/`[d]` keys, Bool, UUID, Data and URL values, paths through relationships.
    public func foundationSortDescriptors() throws(ModelQueryError) -> [SortDescriptor<Model>] {
        let (checked, source) = try checkedForFoundation()
        var descriptors: [SortDescriptor<Model>] = []
        for (index, key) in checked.sortKeys.enumerated() {
            func refuse(_ reason: String) -> ModelQueryError { sortKeyRefusal(key, at: index, source: source, reason) }
            guard key.options.isEmpty else { throw refuse(Self.foldedSortKeyReason) }
            guard key.path.steps.isEmpty else {
                throw refuse(
                    "a SortDescriptor through a relationship needs a key path with optional chaining, which Swift cannot make at run time; foundationSource() (pq --emit swift) writes it as source: \(Self.sortKeyPathSource(key))"
                )
            }
            let access = PredicateExporter.properties(reachableFrom: Model.self)[Model.entityName]?[key.path.attribute.name]
            guard let made = access?.sortDescriptor?(key.isAscending), let descriptor = made as? SortDescriptor<Model> else {
                throw refuse("Swift has no order for its type, '\(key.type)'")
            }
            descriptors.append(descriptor)
        }
        return descriptors
    }

    // MARK: - Support

    /// Why a `[c]`/`[d]` sort key cannot become a SortDescriptor.
    static var foldedSortKeyReason: String {
        "Foundation's case- and diacritic-insensitive comparators order differently from pq's [c] and [d]"
    }

    /// The error for a sort key (the `index`th) that cannot become a SortDescriptor, at its place in the text.
    func sortKeyRefusal(_ key: CheckedSortKey, at index: Int, source: String, _ reason: String) -> ModelQueryError {
        let span = syntax.sortKeys.indices.contains(index) ? syntax.sortKeys[index].span : .point(0)
        return ModelQueryError(
            diagnostics: [
                .error(
                    .foundationUnsupported, "the sort key '\(key.path.dottedName)' cannot become a SortDescriptor: \(reason)",
                    at: span)
            ], source: source)
    }

    /// The builder's own bound values and those given with `binding(_:)`.
    package var allParameterValues: [String: ParameterValue] {
        boundValues.merging(parameterValues) { _, given in given }
    }

    /// The query checked against `Model`'s schema, and the text its spans point into.
    func checkedForFoundation() throws(ModelQueryError) -> (CheckedQuery, String) {
        let source = sourceText ?? text
        // Asked without building the list: `problems` flattens every sort key's, generically.
        if !predicate.condition.fragment.problems.isEmpty || sortKeys.contains(where: { !$0.problems.isEmpty }) {
            throw ModelQueryError(
                diagnostics: problems.map { Diagnostic.error(.unsupportedConstruct, $0, at: .point(0)) }, source: source)
        }
        if let checked = checkedFromText { return (checked, source) }
        let schema = Model.querySchema
        let checked = TypeChecker.check(syntax, schema: schema, defaultEntity: Model.entityName)
        guard let query = checked.query else {
            // Checked again from the text, the diagnostics get spans in it.
            let parsed = Parser.parse(source)
            let fromText = parsed.query.map { TypeChecker.check($0, schema: schema, defaultEntity: Model.entityName).diagnostics }
            throw ModelQueryError(diagnostics: fromText ?? checked.diagnostics, source: source)
        }
        return (query, source)
    }

    func conversionError(_ error: any Error, checked: CheckedQuery, source: String) -> ModelQueryError {
        let span = sourceText != nil ? (predicate.condition.fragment.expr.span) : (Parser.parse(source).query?.predicate?.span ?? .point(0))
        let message: String
        if let export = error as? PredicateExportError {
            message = "\(export.construct) cannot become a Foundation predicate: \(export.reason)"
        } else {
            message = "the query cannot become a Foundation predicate: \(error)"
        }
        return ModelQueryError(diagnostics: [.error(.foundationUnsupported, message, at: span)], source: source)
    }
}

extension ModelQuery {
    /// The query as Swift source to paste into an app: the captured values, the
    /// `#Predicate<Model>` and the `[SortDescriptor<Model>]` (what `pq --emit swift`
    /// prints). The `#Predicate` expands to the nodes `foundationPredicate()` builds.
    ///
    /// - Throws: `ModelQueryError`, as `foundationPredicate()` and
    ///   `foundationSortDescriptors()` do.
    public func foundationSource(environment: QueryEnvironment = QueryEnvironment()) throws(ModelQueryError)
        -> PredicateSource
    {
        let predicate = try foundationPredicate(environment: environment)
        let source = sourceText ?? text
        let (checked, _) = try checkedForFoundation()
        // Dates from now() and today() are written as the Swift that computes them.
        var dates: (sources: [Date: String], unwritten: Bool) = ([:], false)
        if let condition = checked.predicate {
            let evaluator = Evaluator(
                graph: ObjectGraph(schema: checked.schema), parameters: allParameterValues, environment: environment)
            dates = CurrentDateSource.sources(in: condition, evaluator: evaluator)
        }
        var predicateText: String
        do {
            predicateText = try PredicateSourcePrinter.print(predicate, model: Model.entityName, dateSources: dates.sources)
        } catch {
            throw conversionError(error, checked: checked, source: source)
        }
        if dates.unwritten {
            predicateText =
                "// A date computed from now() or today() below is the moment this was printed; compute it in the app.\n"
                + predicateText
        }
        guard !checked.sortKeys.isEmpty else { return PredicateSource(predicate: predicateText, sortDescriptors: nil) }
        var keys: [String] = []
        for (index, key) in checked.sortKeys.enumerated() {
            func refuse(_ reason: String) -> ModelQueryError { sortKeyRefusal(key, at: index, source: source, reason) }
            guard key.options.isEmpty else { throw refuse(Self.foldedSortKeyReason) }
            // Swift orders the attribute's type (the property's own model declares a sort descriptor for it).
            let access = PredicateExporter.properties(reachableFrom: Model.self)[key.path.entity]?[key.path.attribute.name]
            guard access?.sortDescriptor != nil else { throw refuse("Swift has no order for its type, '\(key.type)'") }
            // A String key path's default comparator is .localizedStandard; pq orders lexically.
            let comparator = key.type == .string ? ", comparator: .lexical" : ""
            keys.append("SortDescriptor(\(Self.sortKeyPathSource(key))\(comparator)\(key.isAscending ? "" : ", order: .reverse"))")
        }
        let sortText = "let sortDescriptors: [SortDescriptor<\(Model.entityName)>] = [\(keys.joined(separator: ", "))]"
        return PredicateSource(predicate: predicateText, sortDescriptors: sortText)
    }

    /// A sort key's key path as Swift source: `\Transaction.budget?.name`, with `?` after
    /// each optional relationship and `.rawValue` after an enum (SwiftData orders the
    /// stored raw value; a Foundation sort descriptor needs a Comparable value).
    static func sortKeyPathSource(_ key: CheckedSortKey) -> String {
        var path = "\\\(Model.entityName)"
        for step in key.path.steps {
            path += "." + step.relationship.name + (step.relationship.isOptional ? "?" : "")
        }
        path += "." + key.path.attribute.name
        if case .enumeration = key.type {
            path += key.path.attribute.isOptional ? "?.rawValue" : ".rawValue"
        }
        return path
    }
}
