// The models one module of an app sees, for `pq lint`: its schema, the names
// its query sites may use for them (typealiases included), and the properties
// pq could not read.
//
// Swift resolves a name in a module to the module's own declarations first,
// then to those of the modules it imports. pq does not read `import`s; it puts
// the module's own files first and then every module that is not a test, so a
// name declared both in the module and elsewhere is the module's, and a test
// target's mock of a model is seen only by that test target.

import PredicateQuery

/// The schema seen from one module.
struct SwiftLintModels {
    let schema: Schema
    /// The model reader's warnings about the module's own files (all files' when the module is nil).
    let warnings: [SwiftModelSource.Warning]
    /// The builder after building: its name tables resolve the types sites name.
    private let builder: SwiftSchemaBuilder
    /// For `--sql`: the Core Data layout of `schema`.
    let mapping: StoreMapping?

    /// The models `module` sees (every module's, non-test ones first, when `module` is nil).
    init(
        _ declarations: [SwiftFileDeclarations], layout: SwiftModuleLayout, module: SwiftModuleLayout.Module?, sql: Bool
    ) {
        var own: [SwiftFileDeclarations] = []
        var others: [SwiftFileDeclarations] = []
        var tests: [SwiftFileDeclarations] = []
        for (position, file) in declarations.enumerated() {
            let fileModule = layout.modules[position]
            if let module, fileModule == module {
                own.append(file)
            } else if !fileModule.isTest {
                others.append(file)
            } else if module == nil {
                tests.append(file)
            }
        }
        self.init(ordered: own + others + tests, own: module == nil ? nil : Set(own.map(\.file)), sql: sql, preferred: [])
    }

    /// The models of `ordered` files, the first declaration of a name winning unless `preferred` says
    /// otherwise; warnings about the `own` files only (all when nil).
    private init(ordered: [SwiftFileDeclarations], own: Set<String>?, sql: Bool, preferred: Set<Int>) {
        self.ordered = ordered
        self.own = own
        var builder = SwiftSchemaBuilder(files: ordered)
        builder.preferred = preferred
        schema = builder.build()
        // Each file's warnings come from its own module's build: another module's same-named model is
        // not a duplicate there.
        warnings = own.map { paths in builder.warnings.filter { paths.contains($0.file) } } ?? builder.warnings
        self.builder = builder
        mapping = sql ? StoreMapping.make(for: schema, layout: .coreData) : nil
    }

    /// The files, in the order their declarations were built, and the module's own.
    private let ordered: [SwiftFileDeclarations]
    private let own: Set<String>?

    /// The models seen when a site names another version of a model than the schema's
    /// (`FetchDescriptor<SchemaV1.Trip>` in a migration): that version and the models of its
    /// `VersionedSchema`; nil when the site's type is the schema's own or no model.
    func version(written: String) -> SwiftLintModels? {
        guard let declaration = builder.modelDeclaration(written: written.split(separator: ".").map(String.init)),
            !builder.isChosen(declaration)
        else { return nil }
        return SwiftLintModels(
            ordered: ordered, own: own, sql: mapping != nil, preferred: builder.siblingModels(of: declaration))
    }

    /// The entity a type written at a site names (`Trip`, `Schema.Trip`, an alias of either), or nil.
    func entityName(written: String) -> String? {
        builder.entityName(written: written.split(separator: ".").map(String.init))
    }

    /// The stored properties of each model pq could not read, by entity name.
    var skippedProperties: [String: Set<String>] { builder.skippedProperties }
}
