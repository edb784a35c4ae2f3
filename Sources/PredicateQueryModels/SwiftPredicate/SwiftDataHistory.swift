// SwiftData's history, as `pq lint` checks its predicates: a
// `HistoryDescriptor<DefaultHistoryTransaction>` filters transactions, not an app's
// models, so its `#Predicate` is checked against the transaction's properties as
// Apple documents them (SwiftData, iOS 18 / macOS 15: the `HistoryTransaction`
// protocol and `DefaultHistoryTransaction`):
//
// | property | type |
// |---|---|
// | `author` | `String?` |
// | `bundleIdentifier`, `processIdentifier`, `storeIdentifier` | `String` |
// | `timestamp` | `Date` |
// | `transactionIdentifier`, `id` | `Int64` |
// | `token` | `DefaultHistoryToken`: `Comparable` and opaque; read here as the store's transaction number |
//
// `changes` (`[HistoryChange]`, an enum of inserts, updates and deletes) is not
// described: a predicate that reads it is skipped, never guessed at. What the
// rules say of a model's predicate holds here too: `$0.author != name` leaves the
// transactions with no author out, as SQL's `<>` does with a NULL.

import PredicateQuery

/// What `pq lint` knows of SwiftData's history transactions.
enum SwiftDataHistory {
    /// The type a history descriptor's predicate is over.
    static let transaction = "DefaultHistoryTransaction"

    /// One entity, the transaction, with the properties Apple documents, `changes` left out.
    static let schema = Schema(entities: [
        Entity(
            transaction,
            attributes: [
                Attribute("author", .string, optional: true),
                Attribute("bundleIdentifier", .string),
                Attribute("processIdentifier", .string),
                Attribute("storeIdentifier", .string),
                Attribute("timestamp", .date),
                Attribute("transactionIdentifier", .integer(bits: 64)),
                Attribute("id", .integer(bits: 64)),
                Attribute("token", .integer(bits: 64)),
            ])
    ])

    /// The properties pq checks, for the reason a site that reads others is skipped.
    static var knownProperties: String {
        (schema.entities.first?.attributes.map(\.name) ?? []).joined(separator: ", ")
    }
}
