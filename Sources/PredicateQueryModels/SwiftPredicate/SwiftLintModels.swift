// The models one module of an app sees, for `pq lint`: its schema, the names
// its query sites may use for them (typealiases included), and the properties
// pq could not read.
//
// Swift resolves a type name in a file to its module's own declarations first,
// then to those of the modules the file imports (and those they re-export with
// `@_exported import`). pq orders the declarations the same way: the module's
// own files, then the modules the file imports, then every other module that is
// not a test. A name declared both in the module and elsewhere is the module's,
// one declared in two other modules is the imported one's, and a test target's
// mock of a model is seen only by that test target. The last group is a
// fallback, not a guess between candidates: the app compiles, so a name no
// imported module declares comes from a module pq did not see import it (an
// umbrella module, a project setting), and the tree's only declaration of it is
// the one; where two other modules declare it, a site that names it is
// skipped (`undecided`).

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

    /// The models a file of `module` sees when it imports the modules named `imported` (every module's,
    /// non-test ones first, when `module` is nil).
    init(
        _ declarations: [SwiftFileDeclarations], layout: SwiftModuleLayout, module: SwiftModuleLayout.Module?,
        imported: Set<String> = [], sql: Bool
    ) {
        var own: [SwiftFileDeclarations] = []
        var importedFiles: [SwiftFileDeclarations] = []
        var others: [SwiftFileDeclarations] = []
        var otherModules: [String] = []
        var tests: [SwiftFileDeclarations] = []
        for (position, file) in declarations.enumerated() {
            let fileModule = layout.modules[position]
            if let module, fileModule == module {
                own.append(file)
            } else if fileModule.isTest {
                if module == nil { tests.append(file) }
            } else if imported.contains(fileModule.name) {
                importedFiles.append(file)
            } else {
                others.append(file)
                otherModules.append(fileModule.name)
            }
        }
        let visible: [SwiftFileDeclarations] = own + importedFiles
        let ordered: [SwiftFileDeclarations] = visible + others + tests
        let ownFiles: Set<String>? = module == nil ? nil : Set(own.map(\.file))
        self.init(ordered: ordered, own: ownFiles, sql: sql, preferred: [])
        if module != nil {
            undecided = Self.undecided(seen: visible, others: Array(zip(others, otherModules)))
        }
        var names: Set<String> = []
        for file in module == nil ? declarations : visible {
            for type in file.types where type.kind != .extension && type.path.count == 1 { names.insert(type.name) }
            for alias in file.aliases where alias.path.count == 1 { names.insert(alias.name) }
        }
        topLevelNames = names
    }

    /// The types and typealiases declared at the top level of the files this module's file sees (its
    /// module's and those it imports): a name Swift finds before a module of that name.
    private(set) var topLevelNames: Set<String> = []

    /// The names the `seen` files do not declare but the files of two or more modules among `others` do,
    /// with those modules' names.
    private static func undecided(
        seen: [SwiftFileDeclarations], others: [(file: SwiftFileDeclarations, module: String)]
    ) -> [String: [String]] {
        func declared(_ file: SwiftFileDeclarations) -> Set<String> {
            Set(file.types.filter { $0.kind != .extension }.compactMap(\.path.first) + file.aliases.compactMap(\.path.first))
        }
        let near = seen.reduce(into: Set<String>()) { $0.formUnion(declared($1)) }
        var modules: [String: Set<String>] = [:]
        for (file, module) in others {
            for name in declared(file) where !near.contains(name) { modules[name, default: []].insert(module) }
        }
        return modules.filter { $0.value.count > 1 }.mapValues { $0.sorted() }
    }

    /// The names a file of this module cannot tell apart: declared by no module it sees (its own, those it
    /// imports) but by several it does not import; each with the modules that declare it.
    private(set) var undecided: [String: [String]] = [:]

    /// The modules that each declare the type a site writes (its first component), when the file sees
    /// none of them and more than one declares it; nil when the name is decided.
    func undecidedModules(written: String) -> [String]? {
        guard let first = written.split(separator: ".").first else { return nil }
        return undecided[String(first)]
    }

    /// The app's modules each file sees through its imports: the modules it imports by name and, through
    /// `@_exported import`, the modules those re-export, transitively; its own module and the modules the
    /// app does not declare (SwiftUI, SwiftData) left out.
    static func importedModules(_ declarations: [SwiftFileDeclarations], layout: SwiftModuleLayout) -> [Set<String>] {
        let known = Set(layout.modules.filter { !$0.isTest }.map(\.name))
        var reexported: [String: Set<String>] = [:]
        for (position, file) in declarations.enumerated() {
            for declaration in file.imports where declaration.isExported && known.contains(declaration.module) {
                reexported[layout.modules[position].name, default: []].insert(declaration.module)
            }
        }
        return declarations.enumerated().map { position, file in
            var seen: Set<String> = []
            var pending = file.imports.map(\.module).filter(known.contains)
            while let name = pending.popLast() {
                guard seen.insert(name).inserted else { continue }
                pending += reexported[name, default: []]
            }
            seen.remove(layout.modules[position].name)
            return seen
        }
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
