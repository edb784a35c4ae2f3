import Foundation
import SwiftData

struct TripService {
    let context: ModelContext

    func upcoming(after date: Date) throws -> [Trip] {
        let descriptor = FetchDescriptor<Trip>(
            predicate: #Predicate { $0.startDate > date && $0.endDate != nil },
            sortBy: [SortDescriptor(\.startDate)])
        return try context.fetch(descriptor)
    }

    func active() throws -> [Trip] {
        // Mistake: SwiftData cannot compare an enum property; compare rawValue.
        try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.status == .active }))
    }

    func activeByRawValue() throws -> [Trip] {
        let active = TripStatus.active.rawValue
        return try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.status.rawValue == active }))
    }

    func tagged(_ name: String) throws -> [Trip] {
        // Mistake: tags is to-many; SwiftData has no implicit ANY.
        try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.tags.name == name }))
    }

    func taggedCorrectly(_ name: String) throws -> [Trip] {
        try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.tags.contains { $0.name == name } }))
    }

    func overBudget(minimum: Double) throws -> [Trip] {
        let predicate = #Predicate<Trip> { trip in
            if let traveller = trip.traveller {
                traveller.email != nil && trip.budget > minimum
            } else {
                false
            }
        }
        return try context.fetch(FetchDescriptor(predicate: predicate))
    }

    func unpacked(in trip: Trip) throws -> [Item] {
        let id = trip.persistentModelID
        return try context.fetch(FetchDescriptor<Item>(predicate: #Predicate { $0.trip?.persistentModelID == id && !$0.isPacked }))
    }

    func matching(_ other: Predicate<Trip>) throws -> [Trip] {
        // Fine: SwiftData evaluates a captured predicate inside another (iOS 17.4+); the rest is still checked.
        try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { other.evaluate($0) && $0.budget > 100 }))
    }

    func expensiveItems() throws -> [Item] {
        try context.fetch(FetchDescriptor<Item>(predicate: #Predicate { item in item.trip.flatMap { $0.budget < item.cost * 10 } ?? false }))
    }

    func busyTravellers() throws -> [Traveller] {
        try context.fetch(FetchDescriptor<Traveller>(predicate: #Predicate { $0.trips.filter { $0.items.count > 3 }.count >= 2 }))
    }

    func byName() throws -> [Trip] {
        // Fine in SwiftData; pq's own engine reads .localizedStandard as a [cd] sort (--engine-differences).
        try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name, comparator: .localizedStandard)]))
    }

    func byDestination() throws -> [Trip] {
        try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.destination, comparator: .lexical)]))
    }

    func inMontreal() throws -> [Trip] {
        // Differs: a decomposed literal is == to "Montréal" in Swift, but not in the store.
        try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.destination == "Montre\u{301}al" }))
    }

    func summerTrips() throws -> [Trip] {
        // Mistake: like(_:) is pq's spelling of LIKE; #Predicate does not accept it.
        try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name.like("Summer*") }))
    }

    func notTravelledBy(_ name: String) throws -> [Trip] {
        // Differs: a trip with no traveller is != name in Swift and in pq, but SwiftData's SQL leaves it out.
        try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.traveller?.name != name }))
    }
}
