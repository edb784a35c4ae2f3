import Foundation
import SwiftData

@Model
final class Item {
    var title: String
    var cost: Double
    var isPacked: Bool
    var trip: Trip?

    init(title: String, cost: Double = 0, isPacked: Bool = false) {
        self.title = title
        self.cost = cost
        self.isPacked = isPacked
    }
}
