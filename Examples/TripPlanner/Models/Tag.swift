import Foundation
import SwiftData

@Model
final class Tag {
    @Attribute(.unique) var name: String
    @Relationship(inverse: \Trip.tags) var trips: [Trip] = []

    init(name: String) {
        self.name = name
    }
}
