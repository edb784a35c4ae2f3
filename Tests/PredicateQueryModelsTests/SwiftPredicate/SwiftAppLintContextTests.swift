// `pq lint` takes a site's model type from the code around it when the
// `#Predicate` does not write it, as the compiler infers it. Every form is
// written with a misspelled property: the error proves the site was checked
// against the right model, where a skipped site would report nothing. A site
// whose type cannot be told is skipped and counted, never guessed.

import PredicateQuery
import PredicateQueryModels
import Testing

struct SwiftAppLintContextTests {
    static let models = SwiftModelSource.File(
        path: "Models.swift",
        text: """
            import SwiftData
            @Model final class Item { var title: String = ""; init() {} }
            @Model final class Other { var titel: String = ""; init() {} }
            """)

    /// The codes of the diagnostics in `source`, and how many of its sites were skipped.
    static func lint(_ source: String) -> (codes: [String], skipped: Int) {
        let report = SwiftAppLint.lint([models, SwiftModelSource.File(path: "Use.swift", text: source)])
        let sites = report.sites.filter { $0.file == "Use.swift" }
        return (sites.flatMap(\.diagnostics).map(\.code.rawValue), sites.filter { $0.skipped != nil }.count)
    }

    static let forms: [String] = [
        "let p: Predicate<Item> = #Predicate { $0.titel == \"a\" }",
        "var p: Predicate<Item>? = #Predicate { $0.titel == \"a\" }",
        "struct S { static let p: Foundation.Predicate<Item> = #Predicate { $0.titel == \"a\" } }",
        "func f(p: Predicate<Item> = #Predicate { $0.titel == \"a\" }) {}",
        "func f() -> Predicate<Item> { #Predicate { $0.titel == \"a\" } }",
        "func f(x: Int) -> Predicate<Item> {\n let y = x\n return #Predicate { $0.titel == \"a\" }\n}",
        "var p: Predicate<Item> { #Predicate { $0.titel == \"a\" } }",
        "let d = FetchDescriptor<Item>(predicate: #Predicate { $0.titel == \"a\" })",
        "var d = FetchDescriptor<Item>()\nd.predicate = #Predicate { $0.titel == \"a\" }",
        "func f(d: FetchDescriptor<Other>) {\n var d: FetchDescriptor<Item> = .init()\n d.predicate = #Predicate { $0.titel == \"a\" }\n}",
        "let d: FetchDescriptor<Item> = FetchDescriptor(predicate: #Predicate { $0.titel == \"a\" })",
        "func f() -> FetchDescriptor<Item> { return FetchDescriptor(predicate: #Predicate { $0.titel == \"a\" }) }",
        "struct V { @Query(filter: #Predicate { $0.titel == \"a\" }) private(set) var items: [Item] }",
        "struct V {\n @Query var items: [Item]\n init() { _items = Query(filter: #Predicate { $0.titel == \"a\" }) }\n}",
        "let s = SortDescriptor(\\Item.titel)",
        "let p = #Predicate<Item> { $0.title == \"a\" }\nlet d = FetchDescriptor(predicate: p, sortBy: [SortDescriptor(\\.titel)])",
        // A variable declared with its type, given its value later (as in an initializer's `if`/`else`).
        "init(filter: String) {\n var predicate: Predicate<Item>\n if filter.isEmpty { predicate = #Predicate { $0.titel == \"a\" } }\n}",
        "func f() -> Predicate<Item> {\n let p: Predicate<Item>\n p = #Predicate { $0.titel == \"a\" }\n return p\n}",
        "struct V {\n var predicate: Predicate<Item>?\n mutating func f() { self.predicate = #Predicate { $0.titel == \"a\" } }\n}",
        "var p = #Predicate<Item> { $0.title == \"a\" }\nfunc f() { p = #Predicate { $0.titel == \"a\" } }",
        "func f() {\n var d: FetchDescriptor<Item>\n d = FetchDescriptor(predicate: #Predicate { $0.titel == \"a\" })\n}",
    ]

    @Test(arguments: forms) func theModelComesFromTheContext(_ source: String) {
        let result = Self.lint(source)
        #expect(result.skipped == 0, "\(source)")
        #expect(result.codes == ["check.unknownProperty"], "\(source)")
    }

    static let unknowable: [String] = [
        "let p = #Predicate { $0.titel == \"a\" }",
        "func f<T: PersistentModel>() -> SortDescriptor<T> { SortDescriptor<T>(\\.titel) }",
        "let q = Query<Item>().include(#Predicate { $0.titel == \"a\" })",
        "let p = #Predicate<Unknown> { $0.titel == \"a\" }",
        "let h = HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.titel == \"a\" })",
        "var h = HistoryDescriptor<DefaultHistoryTransaction>()\nh.predicate = #Predicate { $0.titel == \"a\" }",
        // Another function's `predicate` is not this one's.
        "func a() { var predicate: Predicate<Item>? = nil }\nfunc b() { predicate = #Predicate { $0.titel == \"a\" } }",
        // A member of another object: not the variable of that name.
        "var p: Predicate<Item>? = nil\nfunc f(o: Holder) { o.p = #Predicate { $0.titel == \"a\" } }",
        // Another function's `descriptor` is not this one's (here a parameter pq does not read).
        "func a() { var descriptor = FetchDescriptor<Other>() }\nfunc b(descriptor: inout FetchDescriptor<Item>) {\n"
            + " descriptor.predicate = #Predicate { $0.titel == \"a\" }\n}",
    ]

    @Test func aHistoryDescriptorsPredicateIsCheckedAgainstWhatAppleDocumentsOfATransaction() {
        let source = """
            let inbound = "sync"
            let a = HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.author != inbound })
            var b = HistoryDescriptor<DefaultHistoryTransaction>()
            b.predicate = #Predicate { $0.token > token && ($0.author == nil || $0.author != inbound) }
            let c = HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.timestamp > start && $0.bundleIdentifier == id })
            let d = HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.changes.isEmpty })
            """
        let report = SwiftAppLint.lint([Self.models, SwiftModelSource.File(path: "Use.swift", text: source)])
        let sites = report.sites.filter { $0.file == "Use.swift" }
        #expect(sites.count == 4)
        // Without an author, `author != inbound` is NULL in SwiftData's SQL: the transaction is left out.
        #expect(sites.map { $0.diagnostics.map(\.code.rawValue) } == [["swift.nilInequality"], [], [], []])
        #expect(sites.prefix(3).allSatisfy { $0.skipped == nil && $0.entity == "DefaultHistoryTransaction" })
        // `changes` is not described: the site is skipped, never guessed at.
        #expect(
            sites.last?.skipped
                == "it reads what pq does not know of SwiftData's history: pq knows a transaction's author, "
                + "bundleIdentifier, processIdentifier, storeIdentifier, timestamp, transactionIdentifier, id, token, "
                + "not its changes")
    }

    @Test func aSiteInGenericCodeThatReadsNothingOfItsModelIsChecked() {
        let source = """
            public struct Sorter<Compared> {
                var make: (SortOrder) -> SortDescriptor<Compared>
                init(_ keyPath: KeyPath<Compared, String>) { make = { SortDescriptor<Compared>(keyPath, order: $0) } }
            }
            struct Filter<T: PersistentModel> {
                func exclude(_ predicate: Predicate<T>) -> Predicate<T> {
                    let excluded = #Predicate { item in !predicate.evaluate(item) }
                    return excluded
                }
            }
            """
        let report = SwiftAppLint.lint([Self.models, SwiftModelSource.File(path: "Use.swift", text: source)])
        let sites = report.sites.filter { $0.file == "Use.swift" }
        #expect(sites.count == 2)
        #expect(sites.allSatisfy { $0.skipped == nil && $0.diagnostics.isEmpty })
    }

    @Test func aSiteInGenericCodeThatReadsItsModelIsSkippedNamingTheGenericDeclaration() {
        let source = """
            public struct Sorter<Compared> {
                static var byName: SortDescriptor<Compared> { SortDescriptor<Compared>(\\.name) }
            }
            struct Filter<T: PersistentModel> {
                func adults() -> Predicate<T> {
                    let adults = #Predicate { item in item.age >= 18 }
                    return adults
                }
            }
            """
        let report = SwiftAppLint.lint([Self.models, SwiftModelSource.File(path: "Use.swift", text: source)])
        #expect(
            report.skippedSites.map(\.skipped) == [
                "'Compared' is a generic parameter (of Sorter<Compared>): its model is known only where that code is used",
                "its model type is not written, and the code around it is generic (in Filter<T>): "
                    + "it is known only where that code is used",
            ])
        #expect(report.diagnostics.isEmpty)
    }

    @Test func aPredicateReadingAPropertyThroughAGenericParameterIsWarnedAbout() {
        let source = """
            protocol CacheRow: PersistentModel { var fingerprint: String { get } }
            struct RecordCache<Row: CacheRow> {
                func rows(_ f: String) -> FetchDescriptor<Row> { FetchDescriptor(predicate: #Predicate<Row> { $0.fingerprint == f }) }
                func one(_ id: PersistentIdentifier) -> Predicate<Row> { #Predicate<Row> { $0.persistentModelID == id } }
                func inferred() -> Predicate<Row> { #Predicate { $0.fingerprint == "" } }
                func both(_ id: PersistentIdentifier) -> Predicate<Row> {
                    #Predicate<Row> { $0.persistentModelID == id && ($0.title == "" || $0.fingerprint == "") }
                }
            }
            """
        let report = SwiftAppLint.lint([Self.models, SwiftModelSource.File(path: "Use.swift", text: source)])
        let sites = report.sites.filter { $0.file == "Use.swift" }
        let bytes = Array(source.utf8)
        let warned = sites.map { site in
            site.diagnostics.map { String(decoding: bytes[$0.span.start..<$0.span.end], as: UTF8.self) }
        }
        // The first property read is named; the identity is no property of the protocol's.
        #expect(warned == [["fingerprint"], [], ["fingerprint"], ["title"]])
        #expect(sites.flatMap(\.diagnostics).allSatisfy { $0.code == .swiftGenericModelKeyPath && $0.severity == .warning })
        // Still unchecked against any model: counted as skipped, but for the identity test, which holds for every model.
        #expect(sites.map { $0.skipped != nil } == [true, false, true, true])
    }

    @Test(arguments: unknowable) func whatCannotBeToldIsSkippedAndCounted(_ source: String) {
        let result = Self.lint(source)
        #expect(result.skipped == 1, "\(source)")
        #expect(result.codes.isEmpty, "\(source)")
    }

    /// A library of the app (here, swift-query's shape) whose methods take `Predicate<T>` of a generic `T`.
    static let library = SwiftModelSource.File(
        path: "Library.swift",
        text: """
            import SwiftData
            public struct Query<T: PersistentModel> {
                public var predicate: Predicate<T>?
                public func include(_ newPredicate: Predicate<T>) -> Self { self }
                public func sortBy<Value>(_ keyPath: KeyPath<T, Value>) -> Query<T> { self }
                public func results() -> [T] { [] }
            }
            public extension PersistentModel {
                static func include(_ predicate: Predicate<Self>) -> Query<Self> { Query() }
                static func query() -> Query<Self> { Query() }
            }
            """)

    static let methodForms: [String] = [
        "let q = Query<Item>().include(#Predicate { $0.titel == \"a\" })",
        "let q = Item.include(#Predicate { $0.titel == \"a\" })",
        "let q = Item.include(#Predicate { $0.title == \"a\" })\n    .include(#Predicate { $0.titel == \"a\" })",
        "let q = Query<Item>()\n    .sortBy(\\.title)\n    .include(#Predicate { $0.titel == \"a\" })",
        "let q = Item.query().include(#Predicate { $0.titel == \"a\" })",
    ]

    @Test(arguments: methodForms) func theModelComesFromTheAppsGenericMethod(_ source: String) {
        let report = SwiftAppLint.lint([Self.models, Self.library, SwiftModelSource.File(path: "Use.swift", text: source)])
        let sites = report.sites.filter { $0.file == "Use.swift" }
        #expect(sites.allSatisfy { $0.skipped == nil }, "\(source)")
        #expect(sites.flatMap(\.diagnostics).map(\.code.rawValue) == ["check.unknownProperty"], "\(source)")
    }

    static let methodUnknowable: [String] = [
        // A variable's type is not followed; nor a method the library does not declare; nor `results()`.
        "let q = query.include(#Predicate { $0.titel == \"a\" })",
        "let q = Query<Item>().filtered(#Predicate { $0.titel == \"a\" })",
        "let q = Query<Item>().results().include(#Predicate { $0.titel == \"a\" })",
    ]

    /// A generic type of the app whose initializers take a `Predicate` of its parameter (SwiftSync's shape).
    static let publisher = SwiftModelSource.File(
        path: "Publisher.swift",
        text: """
            import SwiftData
            public final class Publisher<Model: PersistentModel> {
                private init(container: Int, predicate: Predicate<Model>?) {}
                public convenience init(_ _: Model.Type, in container: Int, sortBy: [SortDescriptor<Model>] = []) {
                    self.init(container: container, predicate: nil)
                }
                public convenience init(
                    _ _: Model.Type, predicate: Predicate<Model>, in container: Int, sortBy: [SortDescriptor<Model>] = [],
                ) {
                    self.init(container: container, predicate: predicate)
                }
                public convenience init<Related: PersistentModel>(
                    _ _: Model.Type, relationship: ReferenceWritableKeyPath<Model, Related?>, to related: Related,
                    in container: Int, filter: Predicate<Model>? = nil
                ) {
                    self.init(container: container, predicate: filter)
                }
            }
            """)

    static let initializerForms: [String] = [
        "let p = Publisher(Item.self, predicate: #Predicate { $0.titel == \"a\" }, in: 1)",
        "let p = State(initialValue: Publisher(\n Item.self,\n predicate: #Predicate { $0.titel == \"a\" },\n in: c,\n sortBy: []))",
        "let p = Publisher(Item.self, relationship: \\.owner, to: o, in: 1, filter: #Predicate { $0.titel == \"a\" })",
        "let p = Publisher<Item>(Item.self, predicate: #Predicate { $0.titel == \"a\" }, in: 1)",
    ]

    @Test(arguments: initializerForms) func theModelComesFromTheAppsGenericInitializer(_ source: String) {
        let report = SwiftAppLint.lint([Self.models, Self.publisher, SwiftModelSource.File(path: "Use.swift", text: source)])
        let sites = report.sites.filter { $0.file == "Use.swift" }
        #expect(sites.allSatisfy { $0.skipped == nil }, "\(source)")
        #expect(sites.map(\.entity) == ["Item"], "\(source)")
        #expect(sites.flatMap(\.diagnostics).map(\.code.rawValue) == ["check.unknownProperty"], "\(source)")
    }

    @Test func anInitializerOrAMethodInAnExtensionOfTheGenericTypeIsRead() {
        let library = SwiftModelSource.File(
            path: "Library.swift",
            text: """
                import SwiftData
                public final class Feed<Model: PersistentModel> {}
                extension Feed {
                    convenience init(_ _: Model.Type, filter: Predicate<Model>) { self.init() }
                    func narrowed(_ predicate: Predicate<Model>) -> Self { self }
                }
                """)
        let source = """
            let f = Feed(Item.self, filter: #Predicate { $0.titel == "a" })
            let g = Feed<Item>().narrowed(#Predicate { $0.titel == "a" })
            """
        let report = SwiftAppLint.lint([Self.models, library, SwiftModelSource.File(path: "Use.swift", text: source)])
        let sites = report.sites.filter { $0.file == "Use.swift" }
        #expect(sites.map(\.entity) == ["Item", "Item"])
        #expect(sites.flatMap(\.diagnostics).map(\.code.rawValue) == ["check.unknownProperty", "check.unknownProperty"])
    }

    static let initializerUnknowable: [String] = [
        // The metatype is a variable's; no initializer has these labels; another type's initializer.
        "let p = Publisher(type, predicate: #Predicate { $0.titel == \"a\" }, in: 1)",
        "let p = Publisher(Item.self, where: #Predicate { $0.titel == \"a\" }, in: 1)",
        "let p = Publisher(Item.self, predicate: #Predicate { $0.titel == \"a\" })",
        "let p = Other(Item.self, predicate: #Predicate { $0.titel == \"a\" }, in: 1)",
        "let p = Publisher<Item, Other>(Item.self, predicate: #Predicate { $0.titel == \"a\" }, in: 1)",
    ]

    @Test(arguments: initializerUnknowable) func anInitializerCallPqCannotMatchIsSkipped(_ source: String) {
        let report = SwiftAppLint.lint([Self.models, Self.publisher, SwiftModelSource.File(path: "Use.swift", text: source)])
        let sites = report.sites.filter { $0.file == "Use.swift" }
        #expect(sites.count == 1 && sites.allSatisfy { $0.skipped != nil }, "\(source)")
        #expect(sites.flatMap(\.diagnostics).isEmpty, "\(source)")
    }

    @Test(arguments: methodUnknowable) func aMethodChainPqCannotFollowIsSkipped(_ source: String) {
        let report = SwiftAppLint.lint([Self.models, Self.library, SwiftModelSource.File(path: "Use.swift", text: source)])
        let sites = report.sites.filter { $0.file == "Use.swift" }
        #expect(sites.count == 1 && sites.allSatisfy { $0.skipped != nil }, "\(source)")
        #expect(sites.flatMap(\.diagnostics).isEmpty, "\(source)")
    }
}
