#if canImport(SwiftData)
    import Foundation
    import SwiftData

    public enum TripStatus: String, Codable {
        case planned, active, done
    }

    @Model public final class Trip {
        public var name: String
        public var status: TripStatus
        public var stops: Int

        public init(name: String, status: TripStatus, stops: Int) {
            self.name = name
            self.status = status
            self.stops = stops
        }
    }
#endif

/// What this module holds on every platform (SwiftData only where it exists).
public enum TripModelsInfo {
    public static let name = "TripModels"
}
