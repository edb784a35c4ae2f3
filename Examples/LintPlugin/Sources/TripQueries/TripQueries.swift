#if canImport(SwiftData)
    import Foundation
    import SwiftData
    import TripModels

    public enum TripQueries {
        public static let longTrips = #Predicate<Trip> { $0.stops > 3 }
        public static let active = #Predicate<Trip> { $0.status == TripStatus.active }
    }
#endif

/// What this module holds on every platform (SwiftData only where it exists).
public enum TripQueriesInfo {
    public static let name = "TripQueries"
}
