// `pq lint` reports what SwiftData gets wrong, not what pq cannot do: a
// captured predicate's `evaluate(…)` (SwiftData since iOS 17.4), a String's
// `count`, a sort by `persistentModelID` and a property whose type pq cannot
// read are not errors. Each has a control: the rest of the site is still
// checked, so a real mistake beside them is still reported.

import PredicateQuery
import PredicateQueryModels
import Testing

struct SwiftAppLintOwnLimitsTests {
    static let models = SwiftModelSource.File(
        path: "Models.swift",
        text: """
            import SwiftData
            import SomePackage
            enum Status: String, Codable { case open, done }
            @Model final class Item {
                var title: String = ""
                var code: String = ""
                var note: String? = nil
                var status: Status = Status.open
                var log: LogFromAPackage = LogFromAPackage()
                init() {}
            }
            """)

    static func lint(_ source: String) -> [Diagnostic] {
        let report = SwiftAppLint.lint([models, SwiftModelSource.File(path: "Use.swift", text: source)])
        return report.sites.filter { $0.file == "Use.swift" }.flatMap(\.diagnostics)
    }

    @Test func evaluateOfACapturedPredicateIsAccepted() {
        let source = """
            let inner = #Predicate<Item> { $0.title == "a" }
            let outer = #Predicate<Item> { inner.evaluate($0) && $0.code == "b" }
            let negated = #Predicate<Item> { item in !inner.evaluate(item) }
            """
        #expect(Self.lint(source).isEmpty, "\(Self.lint(source).map(\.message))")
        // The rest of the closure is checked: an enum compared as itself is still SwiftData's error.
        let wrong = Self.lint("let outer = #Predicate<Item> { inner.evaluate($0) && $0.status == .open }")
        #expect(wrong.map(\.code) == [.swiftDataBehaviour])
    }

    @Test func evaluateIsStillAnErrorForPqsOwnQueries() {
        let result = SwiftPredicate.parse("#Predicate<Item> { other.evaluate($0) }")
        #expect(result.diagnostics.map(\.code) == [.swiftUnsupported])
    }

    @Test func aStringsCountIsNotAnAppError() {
        #expect(Self.lint("let p = #Predicate<Item> { $0.code.count > 0 }").isEmpty)
    }

    @Test func theEmptinessOfAStringWorkedOutIsNotAnAppError() {
        // `isEmpty` of a String that is not a stored property (Foundation's predicate takes any Collection's).
        for body in ["($0.note ?? \"\").isEmpty", "!($0.note ?? \"x\").isEmpty", "$0.title.isEmpty"] {
            let found = Self.lint("let p = #Predicate<Item> { \(body) }")
            #expect(found.isEmpty, "\(body): \(found.map(\.message))")
        }
        // The operand's own mistake is the one reported, not a missing to-many relationship.
        #expect(Self.lint("let p = #Predicate<Item> { ($0.nmae ?? \"\").isEmpty }").map(\.code) == [.unknownProperty])
    }

    @Test func aSortByPersistentModelIDIsNotAnAppError() {
        #expect(Self.lint("let d = FetchDescriptor<Item>(sortBy: [SortDescriptor(\\.persistentModelID)])").isEmpty)
        // A sort by a relationship-free misspelling is still reported.
        #expect(Self.lint("let d = FetchDescriptor<Item>(sortBy: [SortDescriptor(\\.titel)])").map(\.code) == [.unknownProperty])
    }

    @Test func aPropertyPqCouldNotReadIsNotMissing() {
        #expect(Self.lint("let p = #Predicate<Item> { $0.log.accountId == id }").isEmpty)
        #expect(Self.lint("let p = #Predicate<Item> { $0.lgo.accountId == id }").map(\.code) == [.unknownProperty])
    }

    @Test func pqsEngineSortWarningsOnlyWhenAsked() {
        let source = SwiftModelSource.File(
            path: "Use.swift", text: "let d = FetchDescriptor<Item>(sortBy: [SortDescriptor(\\.title)])")
        #expect(SwiftAppLint.lint([Self.models, source]).diagnostics.isEmpty)
        let asked = SwiftAppLint.lint([Self.models, source], engineDifferences: true).diagnostics
        #expect(asked.map(\.diagnostic.code) == [.swiftSortDefaultComparator])
    }
}

extension SwiftAppLintOwnLimitsTests {
    /// A @Transient property of a type pq cannot read is still known to be transient: a query on it
    /// is SwiftData's error (never stored), not dropped as pq's limit, and the model reader does not
    /// call its type one SwiftData cannot store.
    @Test func aTransientPropertyOfAnUnreadableTypeIsStillTransient() {
        let models = SwiftModelSource.File(
            path: "Models.swift",
            text: """
                import SwiftData
                @Model final class Account {
                    var name: String = ""
                    @Transient var api: (any APIClient)? = nil
                    @Transient var cached: [Account] = []
                    init() {}
                }
                """)
        let use = SwiftModelSource.File(path: "Use.swift", text: "let p = #Predicate<Account> { $0.api == nil }")
        let report = SwiftAppLint.lint([models, use])
        #expect(report.diagnostics.map(\.diagnostic.code) == [.transientProperty])
        // A @Transient array of models is no relationship, and transient too.
        let cached = SwiftModelSource.File(path: "Use.swift", text: "let p = #Predicate<Account> { $0.cached.isEmpty }")
        #expect(SwiftAppLint.lint([models, cached]).diagnostics.map(\.diagnostic.code) == [.transientProperty])
        #expect(report.modelWarnings.isEmpty, "\(report.modelWarnings.map(\.message))")
    }
}

extension SwiftAppLintOwnLimitsTests {
    /// The sites of `source` against the models: what pq reports and why a site was skipped.
    static func sites(_ source: String) -> [SwiftAppLint.Site] {
        SwiftAppLint.lint([models, SwiftModelSource.File(path: "Use.swift", text: source)]).sites.filter {
            $0.file == "Use.swift"
        }
    }

    /// The app compiles, so Swift pq's reader stops at is valid: the site is skipped and counted.
    @Test(arguments: [
        "let p = #Predicate<Item> { $0.title.localizedCompare(\"b\") == .orderedAscending }",
        "let p = #Predicate<Item> { $0.tags[0] == \"x\" }",
    ])
    func swiftPqCannotReadIsSkippedNotAnError(_ source: String) {
        let sites = Self.sites(source)
        #expect(sites.count == 1)
        #expect(sites.flatMap(\.diagnostics).isEmpty, "\(sites.flatMap(\.diagnostics).map(\.message))")
        #expect(sites.first?.skipped != nil)
    }

    /// A method Foundation's #Predicate macro rejects is the app's error (it would not compile).
    @Test func aMethodTheMacroRejectsIsStillAnError() {
        let sites = Self.sites("let p = #Predicate<Item> { $0.title.lowercased() == \"x\" }")
        #expect(sites.flatMap(\.diagnostics).map(\.code) == [.swiftUnsupported])
        #expect(sites.first?.skipped == nil)
    }
}

extension SwiftAppLintOwnLimitsTests {
    /// A Codable struct's field of a type pq cannot read exists all the same; a misspelled field is still an error.
    @Test func aStructFieldPqCouldNotReadIsNotMissing() {
        let models = SwiftModelSource.File(
            path: "Models.swift",
            text: """
                import SwiftData
                struct Address: Codable { var city: String; var geo: GeoPointFromAPackage }
                @Model final class Shop { var address: Address; init(address: Address) { self.address = address } }
                """)
        func codes(_ source: String) -> [DiagnosticCode] {
            SwiftAppLint.lint([models, SwiftModelSource.File(path: "Use.swift", text: source)]).diagnostics.map(
                \.diagnostic.code)
        }
        #expect(codes("let p = #Predicate<Shop> { $0.address.geo == other }").isEmpty)
        #expect(codes("let p = #Predicate<Shop> { $0.address.city == \"x\" }").isEmpty)
        #expect(codes("let p = #Predicate<Shop> { $0.address.cty == \"x\" }") == [.invalidMemberAccess])
    }
}
