// `@sum`, defined once: the evaluator calls it and the SQLite store registers it
// as the aggregate `pq_sum`. SQLite's own SUM raises an error when Ints overflow,
// and whether that error happens depends on the order SQLite evaluates a WHERE
// clause in; pq's sum never fails instead:
//
// - Ints add exactly; if the exact sum would overflow, the result is the Double
//   sum of all the values (as pq's arithmetic does on overflow);
// - if any value is a Double, the result is the Double sum, added in order;
// - no values sum to 0; a NaN result is nil.

package enum Aggregates {
    /// Adds values one at a time, as `pq_sum`'s step function does.
    public struct Sum: Sendable {
        private var integer: Int64 = 0
        private var double = 0.0
        private var isExact = true
        private var count = 0

        public init() {}

        public mutating func add(_ value: Value) {
            switch value {
            case .null: return
            case .int(let number): add(integer: number)
            case .double(let number): add(double: number)
            default: add(double: SQLiteSemantics.number(SQLiteSemantics.stored(value)) ?? 0)
            }
        }

        /// Adds an integer: the sum stays exact until it would overflow.
        public mutating func add(integer number: Int64) {
            double += Double(number)
            if isExact {
                let (result, overflow) = integer.addingReportingOverflow(number)
                if overflow { isExact = false } else { integer = result }
            }
            count += 1
        }

        /// Adds a floating-point number: the sum is a Double from then on.
        public mutating func add(double number: Double) {
            double += number
            isExact = false
            count += 1
        }

        public var result: Value {
            if count == 0 { return .int(0) }
            if isExact { return .int(integer) }
            return double.isNaN ? .null : .double(double)
        }
    }

    public static func sum(_ values: [Value]) -> Value {
        var sum = Sum()
        for value in values { sum.add(value) }
        return sum.result
    }
}
