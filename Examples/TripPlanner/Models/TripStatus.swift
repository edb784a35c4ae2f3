import Foundation

enum TripStatus: String, Codable, CaseIterable {
    case planned
    case active
    case finished
}
