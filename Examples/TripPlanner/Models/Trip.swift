import Foundation
import SwiftData

@Model
final class Trip {
    var name: String
    var destination: String
    var startDate: Date
    var endDate: Date?
    var budget: Double
    var status: TripStatus
    @Relationship(deleteRule: .cascade, inverse: \Item.trip) var items: [Item] = []
    var tags: [Tag] = []
    var traveller: Traveller?
    @Transient var draftNote: String = ""

    /// Computed: not stored, so no predicate or sort can use it.
    var isLong: Bool {
        guard let endDate else { return false }
        return endDate.timeIntervalSince(startDate) > 14 * 86_400
    }

    init(name: String, destination: String, startDate: Date, budget: Double, status: TripStatus = .planned) {
        self.name = name
        self.destination = destination
        self.startDate = startDate
        self.budget = budget
        self.status = status
    }
}
