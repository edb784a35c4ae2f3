// The models the rules' examples query: a trip planner, small enough to read
// in `pq lint --explain`, declared in a file of its own as apps do.

extension LintExample {
    /// `Models.swift`: `Trip`, `Traveller`, `Tag` and the enum `TripStatus`.
    static let models = (
        "Models.swift",
        """
        import SwiftData

        enum TripStatus: String, Codable { case planned, active, finished }

        @Model final class Trip {
            var name: String
            var destination: String
            var days: Int
            var note: String?
            var status: TripStatus
            var tags: [Tag] = []
            var traveller: Traveller?
            @Transient var draftNote: String = ""
            var isLong: Bool { days > 14 }
            init(name: String) { self.name = name; destination = ""; days = 0; status = .planned }
        }

        @Model final class Traveller {
            var name: String
            @Relationship(inverse: \\Trip.traveller) var trips: [Trip] = []
            init(name: String) { self.name = name }
        }

        @Model final class Tag {
            var name: String
            @Relationship(inverse: \\Trip.tags) var trips: [Trip] = []
            init(name: String) { self.name = name }
        }
        """
    )

    /// The models, and `text` in `Query.swift`.
    static func withModels(_ text: String, triggers: Bool) -> LintExample {
        let files = [models, ("Query.swift", "import SwiftData\n\n" + text)]
        return triggers ? .triggering(files) : .nonTriggering(files)
    }
}
