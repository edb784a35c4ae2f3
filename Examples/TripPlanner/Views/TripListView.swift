import SwiftData
import SwiftUI

struct TripListView: View {
    @Query(sort: \Trip.startDate, order: .reverse) private var trips: [Trip]
    // Mistake: isLong is a computed property.
    @Query(filter: #Predicate<Trip> { $0.isLong }) private var longTrips: [Trip]
    // Mistake: draftNote is @Transient.
    @Query(sort: \Trip.draftNote) private var byNote: [Trip]
    @Query private var searched: [Trip]

    init(search: String) {
        _searched = Query(
            filter: #Predicate<Trip> { trip in
                // Differs: SwiftData's store was reported to miss text that Swift's localizedStandardContains finds.
                search.isEmpty || trip.name.localizedStandardContains(search)
            }, sort: \.name)
    }

    var body: some View {
        List(trips) { trip in
            Text(trip.name)
        }
    }
}
