import PredicateQuery

extension LintRule {
    static let optionalToManyNilTest = LintRule(
        id: "optional-to-many-nil-test", severity: .warning,
        summary: "an optional to-many relationship compared with nil, reported to fail SwiftData's fetch",
        explanation: """
            `var photos: [Photo]?` (the form CloudKit sync asks for) compiles with \
            `#Predicate<Album> { $0.photos == nil }`, but the store keeps a to-many relationship \
            as the rows that point back, never as NULL: the fetch was reported to fail with \
            "to-many key not allowed here". To find objects with no related ones, fetch and filter \
            in Swift, or make the relationship non-optional and test `isEmpty`. pq's own language \
            has no meaning for the test either; in Swift sites this warning replaces pq's error. \
            A warning: the evidence is one author's report, not Apple's word.
            """,
        evidence:
            "fatbobman, \"How to Handle Optional Values in SwiftData Predicates\" (Xcode 15): a nil test of an optional to-many relationship fails with \"SQLCore dispatchRequest: exception handling request: … to-many key not allowed here\".",
        codes: [.swiftOptionalToManyNilTest],
        examples: [
            .triggering(albums("let empty = #Predicate<Album> { $0.photos == nil }")),
            .nonTriggering(albums("let named = #Predicate<Album> { $0.name == \"Trips\" }")),
        ])

    /// An album with an optional to-many relationship, as CloudKit sync has it, and `text` in `Query.swift`.
    private static func albums(_ text: String) -> [(String, String)] {
        [
            (
                "Album.swift",
                "import SwiftData\n\n@Model final class Album {\n    var name: String = \"\"\n    @Relationship(inverse: \\Photo.album) var photos: [Photo]?\n    init() {}\n}\n\n@Model final class Photo {\n    var album: Album?\n    init() {}\n}"
            ),
            ("Query.swift", "import SwiftData\n\n" + text),
        ]
    }
}
