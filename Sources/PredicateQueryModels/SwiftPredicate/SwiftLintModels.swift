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
        var builder = SwiftSchemaBuilder(files: own + others + tests)
        schema = builder.build()
        // Each file's warnings come from its own module's build: another module's same-named model is
        // not a duplicate there.
        let ownPaths = Set(own.map(\.file))
        warnings = module == nil ? builder.warnings : builder.warnings.filter { ownPaths.contains($0.file) }
        self.builder = builder
        mapping = sql ? StoreMapping.make(for: schema, layout: .coreData) : nil
    }

    /// The entity a type written at a site names (`Trip`, `Schema.Trip`, an alias of either), or nil.
    func entityName(written: String) -> String? {
        builder.entityName(written: written.split(separator: ".").map(String.init))
    }

    /// The stored properties of each model pq could not read, by entity name.
    var skippedProperties: [String: Set<String>] { builder.skippedProperties }
}
