import PredicateQuery

extension LintRule {
    static let xcodeProjectUnread = LintRule(
        id: "xcode-project-unread", severity: .note,
        summary: "an Xcode project.pbxproj pq could not parse; its files' modules are their folders",
        explanation: """
            pq reads each `Name.xcodeproj/project.pbxproj` for the files its targets compile, so that a test \
            target's mock types never stand in for the app's `@Model` classes. A project file pq cannot parse \
            (it is an old-style property list) is not used: its Swift files belong to the folder they are in, \
            as without a project, and this note says where pq stopped. It says nothing about the app.
            """,
        evidence: "pq's own limit, not SwiftData's: a note, never an error.",
        codes: [.lintProjectUnread],
        examples: [
            .triggering([
                ("App/Trip.swift", "import SwiftData\n@Model final class Trip {\n    var name: String = \"\"\n    init() {}\n}"),
                (
                    "App.xcodeproj/project.pbxproj",
                    "// !$*UTF8*$!\n{\n\tobjects = {\n\t\tA1 = {isa = PBXNativeTarget; name = App\n\t};\n}"
                ),
            ]),
            .nonTriggering([
                (
                    "App/Trip.swift",
                    "import SwiftData\n@Model final class Trip {\n    var name: String = \"\"\n    init() {}\n}\nlet p = #Predicate<Trip> { $0.name == \"x\" }"
                ),
                (
                    "App.xcodeproj/project.pbxproj",
                    "// !$*UTF8*$!\n{\n\tobjects = {\n\t\tA1 = {isa = PBXNativeTarget; name = App; buildPhases = (); };\n\t};\n}"
                ),
            ]),
        ])
}
