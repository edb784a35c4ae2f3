import Foundation
import SwiftData

@Model
final class Traveller {
    var name: String
    var email: String?
    @Relationship(inverse: \Trip.traveller) var trips: [Trip] = []

    init(name: String) {
        self.name = name
    }
}
