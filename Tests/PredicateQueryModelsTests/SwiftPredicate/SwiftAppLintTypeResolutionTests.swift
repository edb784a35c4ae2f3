// `pq lint` resolves a site's model type as the compiler would: through
// typealiases (chains, aliases nested in a `VersionedSchema` enum), to the
// version of a model the app's alias names, per module (a test target's mock
// never stands in for the app's model), and through a key path's nested root
// type. Each test has a control that fails when the resolution is wrong: a
// property only the right declaration has, or one it lacks.

import PredicateQuery
import PredicateQueryModels
import Testing

struct SwiftAppLintTypeResolutionTests {
    /// The codes of the diagnostics of the sites in `file`, and the sites skipped there.
    static func lint(_ files: [(String, String)], in file: String) -> (codes: [String], skipped: [String]) {
        let report = SwiftAppLint.lint(files.map { SwiftModelSource.File(path: $0.0, text: $0.1) })
        let sites = report.sites.filter { $0.file == file }
        return (sites.flatMap(\.diagnostics).map(\.code.rawValue), sites.compactMap(\.skipped))
    }

    static let versioned = """
        import SwiftData
        enum SchemaV1: VersionedSchema {
            @Model final class Server { var name: String = ""; init() {} }
        }
        enum SchemaV2: VersionedSchema {
            @Model final class Server { var name: String = ""; var port: Int = 0; init() {} }
            typealias Current = Server
        }
        typealias ServerModel = SchemaV2.Server
        typealias Latest = ServerModel
        """

    @Test func aTypealiasChainNamesTheModel() {
        let use = "let p = #Predicate<Latest> { $0.port > 80 }"
        let result = Self.lint([("Models.swift", Self.versioned), ("Use.swift", use)], in: "Use.swift")
        #expect(result.codes.isEmpty, "\(result.codes)")
        #expect(result.skipped.isEmpty)
        // Checked, not skipped: a misspelled property is still an error.
        let wrong = Self.lint(
            [("Models.swift", Self.versioned), ("Use.swift", "let p = #Predicate<Latest> { $0.prot > 80 }")], in: "Use.swift")
        #expect(wrong.codes == ["check.unknownProperty"])
    }

    @Test func theVersionAnAliasNamesIsTheModel() {
        // `port` exists only in SchemaV2.Server, the version `ServerModel` names; SchemaV1's is declared first.
        let use = "let p = #Predicate<ServerModel> { $0.port > 80 }"
        let report = SwiftAppLint.lint([
            SwiftModelSource.File(path: "Models.swift", text: Self.versioned),
            SwiftModelSource.File(path: "Use.swift", text: use),
        ])
        #expect(report.diagnostics.isEmpty, "\(report.diagnostics.map(\.diagnostic.message))")
        // Versions of a model in VersionedSchema enums are expected to share a name: no warning about it.
        #expect(!report.modelWarnings.contains { $0.message.contains("declared more than once") })
    }

    @Test func anAliasNestedInTheSchemaEnumNamesTheModel() {
        let use = "let p = #Predicate<SchemaV2.Current> { $0.port > 80 }"
        let result = Self.lint([("Models.swift", Self.versioned), ("Use.swift", use)], in: "Use.swift")
        #expect(result.codes.isEmpty, "\(result.codes)")
        #expect(result.skipped.isEmpty)
        // Written without its enum, as code inside an extension of SchemaV2 would: the alias is still found.
        let inside = "extension SchemaV2 { static let p = #Predicate<Current> { $0.port > 80 } }"
        let unqualified = Self.lint([("Models.swift", Self.versioned), ("Use.swift", inside)], in: "Use.swift")
        #expect(unqualified.codes.isEmpty, "\(unqualified.codes)")
        #expect(unqualified.skipped.isEmpty, "\(unqualified.skipped)")
    }

    @Test func anAliasThatLoopsIsSkippedNotGuessed() {
        let models = "import SwiftData\ntypealias A = B\ntypealias B = A\n@Model final class Item { var n: Int = 0; init() {} }"
        let result = Self.lint([("Models.swift", models), ("Use.swift", "let p = #Predicate<A> { $0.n > 1 }")], in: "Use.swift")
        #expect(result.codes.isEmpty)
        #expect(result.skipped.count == 1)
    }

    @Test func anEnumsRawValueTypeIsItsRawType() {
        let models = """
            import SwiftData
            enum Kind: Int { case a, b }
            @Model final class Task { var _kind: Kind.RawValue = 0; init() {} }
            """
        let result = Self.lint(
            [("Models.swift", models), ("Use.swift", "let p = #Predicate<Task> { $0._kind == 1 }")], in: "Use.swift")
        #expect(result.codes.isEmpty, "\(result.codes)")
        // Compared with a String, it is an Int: an error, so the type was read.
        let wrong = Self.lint(
            [("Models.swift", models), ("Use.swift", "let p = #Predicate<Task> { $0._kind == \"a\" }")], in: "Use.swift")
        #expect(!wrong.codes.isEmpty)
    }

    static let package = """
        // swift-tools-version: 5.9
        import PackageDescription
        let package = Package(name: "App", targets: [
            .target(name: "AppCore"),
            .testTarget(name: "AppCoreTests", dependencies: ["AppCore"]),
        ])
        """

    @Test func aTestTargetsMockDoesNotShadowTheModel() {
        let model = "import SwiftData\n@Model final class User { var name: String = \"\"; init() {} }"
        let mock = "import SwiftData\n@Model final class User { var mockOnly: Int = 0; init() {} }"
        let files = [
            ("Pkg/Package.swift", Self.package), ("Pkg/Tests/AppCoreTests/Mocks.swift", mock),
            ("Pkg/Sources/AppCore/User.swift", model),
            ("Pkg/Sources/AppCore/Use.swift", "let p = #Predicate<User> { $0.name == \"a\" }"),
            ("Pkg/Tests/AppCoreTests/UseMock.swift", "let p = #Predicate<User> { $0.mockOnly == 1 }"),
            ("Pkg/Sources/AppCore/Wrong.swift", "let p = #Predicate<User> { $0.mockOnly == 1 }"),
        ]
        #expect(Self.lint(files, in: "Pkg/Sources/AppCore/Use.swift").codes.isEmpty)
        #expect(Self.lint(files, in: "Pkg/Tests/AppCoreTests/UseMock.swift").codes.isEmpty)
        #expect(Self.lint(files, in: "Pkg/Sources/AppCore/Wrong.swift").codes == ["check.unknownProperty"])
    }

    static let twoModules = """
        // swift-tools-version: 5.9
        import PackageDescription
        let package = Package(name: "App", targets: [
            .target(name: "Alpha"), .target(name: "Beta"), .target(name: "Kit", dependencies: ["Beta"]),
            .target(name: "App", dependencies: ["Alpha", "Beta", "Kit"]),
        ])
        """

    /// Two modules that both declare `Item`, each with a property the other lacks, and a third that re-exports one.
    static func twoItems(_ uses: [(String, String)]) -> [(String, String)] {
        [
            ("Pkg/Package.swift", Self.twoModules),
            ("Pkg/Sources/Alpha/Item.swift", "import SwiftData\n@Model final class Item { var onlyA: Int = 0; init() {} }"),
            ("Pkg/Sources/Beta/Item.swift", "import SwiftData\n@Model final class Item { var onlyB: Int = 0; init() {} }"),
            ("Pkg/Sources/Kit/Exports.swift", "@_exported import Beta\nimport Foundation"),
        ] + uses.map { ("Pkg/Sources/App/" + $0.0, $0.1) }
    }

    @Test func aNameDeclaredInTwoModulesIsTheImportedOnes() {
        // Alpha's files come first; a file that imports only Beta sees Beta's Item.
        let files = Self.twoItems([
            ("UseB.swift", "import SwiftData\nimport Beta\nlet p = #Predicate<Item> { $0.onlyB == 1 }"),
            ("UseA.swift", "import Alpha\nimport SwiftData\nlet p = #Predicate<Item> { $0.onlyA == 1 }"),
            ("WrongA.swift", "import Alpha\nlet p = #Predicate<Item> { $0.onlyB == 1 }"),
        ])
        #expect(Self.lint(files, in: "Pkg/Sources/App/UseB.swift").codes.isEmpty)
        #expect(Self.lint(files, in: "Pkg/Sources/App/UseA.swift").codes.isEmpty)
        #expect(Self.lint(files, in: "Pkg/Sources/App/WrongA.swift").codes == ["check.unknownProperty"])
    }

    @Test func importsOfEveryFormAreRead() {
        let files = Self.twoItems([
            ("Testable.swift", "@testable import Beta\nlet p = #Predicate<Item> { $0.onlyB == 1 }"),
            ("Kind.swift", "import struct Beta.Item\nlet p = #Predicate<Item> { $0.onlyB == 1 }"),
            ("Access.swift", "public import Beta\nlet p = #Predicate<Item> { $0.onlyB == 1 }"),
            ("Reexported.swift", "import Kit\nlet p = #Predicate<Item> { $0.onlyB == 1 }"),
            // An import inside a type is not read as one (Swift refuses it): the file imports neither module.
            ("Nested.swift", "struct S { import Beta }\nlet p = #Predicate<Item> { $0.onlyB == 1 }"),
        ])
        for file in ["Testable", "Kind", "Access", "Reexported"] {
            let result = Self.lint(files, in: "Pkg/Sources/App/\(file).swift")
            #expect(result.codes.isEmpty, "\(file): \(result.codes)")
            #expect(result.skipped.isEmpty, "\(file): \(result.skipped)")
        }
        #expect(Self.lint(files, in: "Pkg/Sources/App/Nested.swift").skipped.count == 1)
    }

    @Test func aNameOnlyModulesTheFileDoesNotImportDeclareIsSkippedWhenTwoDo() {
        let tag = ("Pkg/Sources/Alpha/Tag.swift", "import SwiftData\n@Model final class Tag { var label: String = \"\"; init() {} }")
        let files = Self.twoItems([
            ("Plain.swift", "import SwiftData\nlet p = #Predicate<Item> { $0.onlyA == 1 }"),
            ("Tagged.swift", "import SwiftData\nlet p = #Predicate<Tag> { $0.label == \"a\" }"),
            ("WrongTag.swift", "import SwiftData\nlet p = #Predicate<Tag> { $0.name == \"a\" }"),
        ]) + [tag]
        // Two modules the file does not import declare Item: skipped, both named, not guessed.
        let plain = Self.lint(files, in: "Pkg/Sources/App/Plain.swift")
        #expect(plain.codes.isEmpty)
        #expect(plain.skipped.count == 1)
        #expect(plain.skipped.first?.contains("'Alpha' and 'Beta'") == true, "\(plain.skipped)")
        // One module declares Tag: the app compiles, so it is that Tag (pq saw no import of it), and it is checked.
        let tagged = Self.lint(files, in: "Pkg/Sources/App/Tagged.swift")
        #expect(tagged.codes.isEmpty && tagged.skipped.isEmpty, "\(tagged)")
        #expect(Self.lint(files, in: "Pkg/Sources/App/WrongTag.swift").codes == ["check.unknownProperty"])
    }

    @Test func aModuleQualifiedNameIsThatModulesModel() {
        // The file imports Alpha, whose Item comes first; `Beta.Item` is Beta's all the same.
        let files = Self.twoItems([
            ("UseB.swift", "import Alpha\nimport Beta\nlet p = #Predicate<Beta.Item> { $0.onlyB == 1 }"),
            ("UseA.swift", "import Alpha\nimport Beta\nlet p = #Predicate<Alpha.Item> { $0.onlyA == 1 }"),
            ("WrongB.swift", "import Alpha\nimport Beta\nlet p = #Predicate<Beta.Item> { $0.onlyA == 1 }"),
            ("SortB.swift", "import Alpha\nimport Beta\n@Query(sort: \\Beta.Item.onlyB) var items: [Beta.Item]"),
            ("DescriptorB.swift", "import Alpha\nimport Beta\nlet s = [SortDescriptor<Beta.Item>(\\.onlyB)]"),
            // The type from the code around the site.
            ("ContextB.swift", "import Alpha\nimport Beta\nlet p: Predicate<Beta.Item> = #Predicate { $0.onlyB == 1 }"),
            (
                "QueryB.swift",
                "import Alpha\nimport Beta\nstruct V { @Query(filter: #Predicate { $0.onlyB == 1 }) var items: [Beta.Item] }"
            ),
        ])
        for file in ["UseB", "UseA", "SortB", "DescriptorB", "ContextB", "QueryB"] {
            let result = Self.lint(files, in: "Pkg/Sources/App/\(file).swift")
            #expect(result.codes.isEmpty, "\(file): \(result.codes)")
            #expect(result.skipped.isEmpty, "\(file): \(result.skipped)")
        }
        // Checked against Beta's Item, not skipped: Alpha's property is not there.
        #expect(Self.lint(files, in: "Pkg/Sources/App/WrongB.swift").codes == ["check.unknownProperty"])
    }

    @Test func aTypeNamedAsAModuleShadowsTheModule() {
        // As in Swift, a type called `Beta` the file sees wins over the module: `Beta.Item` is its nested model.
        let shadow = "import SwiftData\nenum Beta {}\nextension Beta { @Model final class Item { var onlyNested: Int = 0; init() {} } }"
        let files = Self.twoItems([
            ("Shadow.swift", shadow),
            ("Use.swift", "import Beta\nlet p = #Predicate<Beta.Item> { $0.onlyNested == 1 }"),
            ("Wrong.swift", "import Beta\nlet p = #Predicate<Beta.Item> { $0.onlyB == 1 }"),
        ])
        let use = Self.lint(files, in: "Pkg/Sources/App/Use.swift")
        #expect(use.codes.isEmpty && use.skipped.isEmpty, "\(use)")
        #expect(Self.lint(files, in: "Pkg/Sources/App/Wrong.swift").codes == ["check.unknownProperty"])
    }

    @Test func aNestedTypeOrAnUnimportedModulesTypeDoesNotShadowTheModule() {
        // Neither is found by the bare name `Beta` in this file, so `Beta.Item` is module Beta's.
        let nested = ("Theme.swift", "enum Theme { enum Beta {} }")
        let elsewhere = ("Pkg/Sources/Alpha/Names.swift", "enum Beta {}")
        let files =
            Self.twoItems([
                nested, ("Use.swift", "import Beta\nlet p = #Predicate<Beta.Item> { $0.onlyB == 1 }"),
            ]) + [elsewhere]
        let use = Self.lint(files, in: "Pkg/Sources/App/Use.swift")
        #expect(use.codes.isEmpty && use.skipped.isEmpty, "\(use)")
    }

    @Test func aModelInANamespaceBesideASameNamedView() {
        let models = """
            import SwiftData
            enum DBModel {}
            extension DBModel { @Model final class Country { var name: String = ""; init() {} } }
            """
        let view = "struct Country: View { var body: some View { Text(\"\") } }"
        let files = [
            ("App/View.swift", view), ("App/Models.swift", models),
            (
                "App/Use.swift",
                "let p = #Predicate<DBModel.Country> { $0.name == \"a\" }\n@Query(sort: \\DBModel.Country.name) var all: [DBModel.Country]"
            ),
        ]
        let result = Self.lint(files, in: "App/Use.swift")
        #expect(result.codes.isEmpty, "\(result.codes)")
        #expect(result.skipped.isEmpty, "\(result.skipped)")
        // A sort descriptor that writes the nested type is read with its path, not as 'DBModel'.
        let sort = [("App/Models.swift", models), ("App/Sort.swift", "let s = [SortDescriptor<DBModel.Country>(\\.name)]")]
        let sorted = Self.lint(sort, in: "App/Sort.swift")
        #expect(sorted.codes.isEmpty && sorted.skipped.isEmpty, "\(sorted)")
        let wrong = [("App/Models.swift", models), ("App/Sort.swift", "let s = [SortDescriptor<DBModel.Country>(\\.nmae)]")]
        #expect(Self.lint(wrong, in: "App/Sort.swift").codes == ["check.unknownProperty"])
    }

    @Test func twoAppsLintedTogetherKeepTheirOwnModels() {
        let first = "import SwiftData\n@Model final class Tag { var label: String = \"\"; init() {} }"
        let second = """
            import SwiftData
            enum V1: VersionedSchema { @Model final class Tag { var name: String = ""; init() {} } }
            typealias Tag = V1.Tag
            """
        let files = [
            ("apps/One/Models.swift", first), ("apps/Two/Models.swift", second),
            ("apps/One/Use.swift", "let d = FetchDescriptor<Tag>(sortBy: [SortDescriptor(\\Tag.label)])"),
            ("apps/Two/Use.swift", "let p = #Predicate<Tag> { $0.name == \"a\" }"),
        ]
        let report = SwiftAppLint.lint(files.map { SwiftModelSource.File(path: $0.0, text: $0.1) })
        #expect(report.diagnostics.isEmpty, "\(report.diagnostics.map(\.diagnostic.message))")
        #expect(report.modelWarnings.isEmpty, "\(report.modelWarnings.map(\.message))")
    }

    @Test func aSortByTheIdentityIsNotAnError() {
        let models = "import SwiftData\n@Model final class Tag { var label: String = \"\"; init() {} }"
        let use = "let d = FetchDescriptor<Tag>(sortBy: [SortDescriptor(\\Tag.id), SortDescriptor(\\.persistentModelID)])"
        let result = Self.lint([("Models.swift", models), ("Use.swift", use)], in: "Use.swift")
        #expect(result.codes.isEmpty, "\(result.codes)")
    }

    @Test func theModelOutsideTheVersionedSchemasIsTheCurrentOne() {
        // The old version's file comes first; the current model is declared at the top level.
        let old = "import SwiftData\nenum SchemaV1: VersionedSchema { @Model final class Item { var a: Int = 0; init() {} } }"
        let current = "import SwiftData\n@Model final class Item { var a: Int = 0; var b: Int = 0; init() {} }"
        let files = [("A.swift", old), ("B.swift", current), ("Use.swift", "let p = #Predicate<Item> { $0.b > 1 }")]
        let result = Self.lint(files, in: "Use.swift")
        #expect(result.codes.isEmpty, "\(result.codes)")
        let report = SwiftAppLint.lint(files.map { SwiftModelSource.File(path: $0.0, text: $0.1) })
        #expect(report.modelWarnings.isEmpty, "\(report.modelWarnings.map(\.message))")
    }

    @Test func aSiteThatNamesAVersionIsCheckedAgainstThatVersion() {
        let models = """
            import SwiftData
            enum SchemaV1: VersionedSchema {
                @Model final class Item { var a: Int = 0; var tag: Tag?; init() {} }
                @Model final class Tag { var old: String = ""; init() {} }
            }
            enum SchemaV2: VersionedSchema {
                @Model final class Item { var a: Int = 0; var b: Int = 0; var tag: Tag?; init() {} }
                @Model final class Tag { var new: String = ""; init() {} }
            }
            """
        func codes(_ use: String) -> [String] {
            Self.lint([("Models.swift", models), ("Use.swift", use)], in: "Use.swift").codes
        }
        #expect(codes("let p = #Predicate<SchemaV2.Item> { $0.b > 1 && $0.tag?.new == \"x\" }").isEmpty)
        #expect(codes("let p = #Predicate<SchemaV1.Item> { $0.a > 1 && $0.tag?.old == \"x\" }").isEmpty)
        #expect(codes("let d = FetchDescriptor<SchemaV1.Item>(predicate: #Predicate { $0.a > 1 })").isEmpty)
        // Each version has only its own properties.
        #expect(codes("let p = #Predicate<SchemaV1.Item> { $0.b > 1 }") == ["check.unknownProperty"])
        #expect(codes("let p = #Predicate<SchemaV2.Item> { $0.tag?.old == \"x\" }") == ["check.unknownProperty"])
    }
}
