import SwiftData
import SwiftUI

struct PackingListView: View {
    @Query(filter: #Predicate<Item> { !$0.isPacked }, sort: \Item.title) private var toPack: [Item]
    // Mistake: lowercased() cannot become SQL.
    @Query(filter: #Predicate<Item> { $0.title.lowercased() == "passport" }) private var passports: [Item]
    // Mistake: a misspelled property.
    @Query(filter: #Predicate<Item> { $0.cots > 100 }) private var expensive: [Item]
    // Fine in SwiftData; pq's own engine sorts a String by code point (--engine-differences).
    @Query(sort: [SortDescriptor(\Item.trip?.name), SortDescriptor(\Item.cost, order: .reverse)]) private var sorted: [Item]

    // Differs: for an item with no trip, the count is nil in Swift and pq but 0 in SwiftData's SQL.
    @Query(filter: #Predicate<Item> { $0.trip?.items.count == 0 }) private var orphans: [Item]

    var body: some View {
        List(toPack) { item in
            Text(item.title)
        }
    }
}
