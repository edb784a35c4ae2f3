// A filter screen's state, where every control may be left empty, composed into
// one query with the typed builder: each control that is set adds a condition,
// checked by the Swift compiler; an empty screen matches everything.
//
// With SwiftData's #Predicate this takes one macro per combination of controls, or
// a predicate full of `(search == nil || …)` terms that the store cannot index.

import Foundation
import PredicateQuery
import PredicateQueryExamples

/// The controls of a transaction list's filter bar. `nil` means "not set".
public struct TransactionFilter: Sendable, Hashable {
    /// Text the note must contain, ignoring case and accents.
    public var search: String?
    public var minimumAmount: Double?
    public var maximumAmount: Double?
    /// true: only with a receipt; false: only without; nil: either.
    public var hasReceipt: Bool?
    /// The name of the budget; transactions in no budget never match a name.
    public var budget: String?
    /// Only transactions on or after this moment.
    public var since: Date?
    public var order: Order

    /// How the list is sorted.
    public enum Order: String, Sendable, Hashable, CaseIterable {
        /// Latest first; on the same date, the larger amount first.
        case newestFirst
        /// Largest amount first; equal amounts by date, latest first.
        case largestFirst
        /// By note, ignoring case.
        case byNote
    }

    public init(
        search: String? = nil, minimumAmount: Double? = nil, maximumAmount: Double? = nil, hasReceipt: Bool? = nil,
        budget: String? = nil, since: Date? = nil, order: Order = .newestFirst
    ) {
        self.search = search
        self.minimumAmount = minimumAmount
        self.maximumAmount = maximumAmount
        self.hasReceipt = hasReceipt
        self.budget = budget
        self.since = since
        self.order = order
    }

    /// The conditions of the controls that are set, all of which must hold.
    public var predicate: ModelPredicate<Transaction> {
        var conditions: [ModelPredicate<Transaction>] = []
        if let search = search?.trimmingCharacters(in: .whitespaces), !search.isEmpty {
            conditions.append(ModelPredicate { $0.note.contains(search, options: [.caseInsensitive, .diacriticInsensitive]) })
        }
        if let minimumAmount { conditions.append(ModelPredicate { $0.amount >= minimumAmount }) }
        if let maximumAmount { conditions.append(ModelPredicate { $0.amount <= maximumAmount }) }
        if let hasReceipt { conditions.append(ModelPredicate { $0.hasReceipt == hasReceipt }) }
        if let budget { conditions.append(ModelPredicate { $0.budget?.name == budget }) }
        if let since { conditions.append(ModelPredicate { $0.date >= since }) }
        return .all(of: conditions)
    }

    /// The sort keys of `order`.
    public var sortKeys: [ModelSort<Transaction>] {
        switch order {
        case .newestFirst: [ModelSort(\.date, order: .reverse), ModelSort(\.amount, order: .reverse)]
        case .largestFirst: [ModelSort(\.amount, order: .reverse), ModelSort(\.date, order: .reverse)]
        case .byNote: [ModelSort(\.note, options: .caseInsensitive)]
        }
    }

    /// The query for one page of the list.
    public func query(pageSize: Int = 50, page: Int = 0) -> ModelQuery<Transaction> {
        ModelQuery(where: predicate, sortedBy: sortKeys, limit: pageSize, offset: page > 0 ? page * pageSize : nil)
    }
}
