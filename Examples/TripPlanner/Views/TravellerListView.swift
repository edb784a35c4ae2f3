import SwiftData
import SwiftUI

struct TravellerListView: View {
    @Query(filter: #Predicate<Traveller> { !$0.trips.isEmpty }, sort: \Traveller.name) private var travellers: [Traveller]
    // Mistake: a sort key through a to-many relationship has no single value per object.
    @Query(sort: \Traveller.trips.count, order: .reverse) private var busiest: [Traveller]
    @Query(filter: #Predicate<Traveller> { traveller in traveller.email?.contains("@example.com") ?? false })
    private var testers: [Traveller]

    var body: some View {
        List(travellers) { traveller in
            Text(traveller.name)
        }
    }
}
