// The NSExpression functions format strings use over a list: `min(%@)`,
// `max({1, 2})`, `sum(…)`, `count(…)`, `average(…)`. Over a list of constants
// they are a constant, worked out before the query runs; over a to-many key path
// they are pq's aggregates (`transactions.@sum.amount`).

import Foundation

/// A function of NSExpression over a list.
package enum FormatFunction: String, Sendable, Hashable, CaseIterable {
    case min, max, sum, count, average

    /// pq's aggregate over a to-many key path: `@min`, …, `@avg`, `@count`.
    var aggregateOperator: String { self == .average ? "@avg" : "@" + rawValue }

    /// The function of `values`: nil if they are not numbers (or, for min and max,
    /// dates); nil values are skipped, as NSExpression does. min, max and average
    /// of no values are nil, their sum 0, their count 0.
    public func apply(_ values: [Value]) -> Value? {
        if self == .count { return .int(Int64(values.count)) }
        let present = values.filter { $0 != .null }
        if self == .min || self == .max, case .date? = present.first {
            var dates: [Date] = []
            for value in present {
                guard case .date(let date) = value else { return nil }
                dates.append(date)
            }
            guard let chosen = self == .min ? dates.min() : dates.max() else { return .null }
            return .date(chosen)
        }
        var numbers: [Double] = []
        var allIntegers = true
        for value in present {
            switch value {
            case .int(let number): numbers.append(Double(number))
            case .double(let number):
                numbers.append(number)
                allIntegers = false
            default: return nil
            }
        }
        func typed(_ number: Double) -> Value {
            allIntegers ? (Int64(exactly: number).map { .int($0) } ?? .double(number)) : .double(number)
        }
        switch self {
        case .min: return numbers.min().map(typed) ?? .null
        case .max: return numbers.max().map(typed) ?? .null
        case .sum: return typed(numbers.reduce(0, +))
        case .average: return numbers.isEmpty ? .null : .double(numbers.reduce(0, +) / Double(numbers.count))
        case .count: return .int(Int64(values.count))
        }
    }
}
