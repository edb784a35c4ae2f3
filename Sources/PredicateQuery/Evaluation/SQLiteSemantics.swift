// The arithmetic and ordering pq defines, which is SQLite's, written out in Swift
// for the in-memory evaluator:
//
// - Int + - * Int is exact; on overflow the result is the Double of the exact
//   operands combined in floating point (9223372036854775807 + 1 is 9.223372036854776e18).
// - Int / Int truncates toward zero; Int % Int has the sign of the dividend;
//   division or remainder by zero is nil; Int.min / -1 is a Double, Int.min % -1 is 0.
// - Double arithmetic is IEEE 754, except that division by zero and NaN give nil.
// - Comparisons: nil is below every number, numbers below strings, strings below
//   data; Int and Double compare exactly by value; strings and data compare by
//   bytes (for strings, by Unicode scalar value).

import Foundation

enum SQLiteSemantics {
    // MARK: - Arithmetic

    static func arithmetic(_ op: ArithmeticOperator, _ lhs: Value, _ rhs: Value) -> Value {
        switch (lhs, rhs) {
        case (.null, _), (_, .null): return .null
        case (.int(let a), .int(let b)): return integerArithmetic(op, a, b)
        case (.date(let date), .double(let seconds)):
            let result = arithmetic(op, .double(date.timeIntervalSinceReferenceDate), .double(seconds))
            if case .double(let value) = result { return .date(Date(timeIntervalSinceReferenceDate: value)) }
            return .null
        case (.double(let seconds), .date(let date)):
            return arithmetic(op, .date(date), .double(seconds))
        default:
            guard let a = number(lhs), let b = number(rhs) else { return .null }
            return doubleArithmetic(op, a, b)
        }
    }

    private static func integerArithmetic(_ op: ArithmeticOperator, _ a: Int64, _ b: Int64) -> Value {
        switch op {
        case .add:
            let (result, overflow) = a.addingReportingOverflow(b)
            return overflow ? .double(Double(a) + Double(b)) : .int(result)
        case .subtract:
            let (result, overflow) = a.subtractingReportingOverflow(b)
            return overflow ? .double(Double(a) - Double(b)) : .int(result)
        case .multiply:
            let (result, overflow) = a.multipliedReportingOverflow(by: b)
            return overflow ? .double(Double(a) * Double(b)) : .int(result)
        case .divide:
            if b == 0 { return .null }
            if a == .min, b == -1 { return .double(Double(a) / Double(b)) }
            return .int(a / b)
        case .remainder:
            if b == 0 { return .null }
            if b == -1 { return .int(0) }
            return .int(a % b)
        case .bitwiseAnd: return .int(a & b)
        case .bitwiseOr: return .int(a | b)
        case .bitwiseXor: return .int(a ^ b)
        }
    }

    private static func doubleArithmetic(_ op: ArithmeticOperator, _ a: Double, _ b: Double) -> Value {
        let result: Double
        switch op {
        case .add: result = a + b
        case .subtract: result = a - b
        case .multiply: result = a * b
        case .divide:
            if b == 0 { return .null }
            result = a / b
        case .remainder:
            // The checker gives `%` Ints only, but an Int that overflowed is a Double
            // here: SQLite truncates both to integers and gives the remainder as a
            // Double. (Past Int's range SQLite's conversion is C's, which differs by
            // processor; pq takes 0 there.)
            let x = Int64(exactly: a.rounded(.towardZero)) ?? 0
            let y = Int64(exactly: b.rounded(.towardZero)) ?? 0
            guard case .int(let remainder) = integerArithmetic(.remainder, x, y) else { return .null }
            return .double(Double(remainder))
        case .bitwiseAnd, .bitwiseOr, .bitwiseXor:
            // Likewise for an Int that overflowed: SQLite's bitwise operators read a
            // Double as an integer, truncated toward zero and clamped to Int's range.
            let x = integer(a), y = integer(b)
            switch op {
            case .bitwiseAnd: return .int(x & y)
            case .bitwiseOr: return .int(x | y)
            default: return .int(x ^ y)
            }
        }
        return result.isNaN ? .null : .double(result)
    }

    /// A Double read as an integer as SQLite's bitwise operators and
    /// `sqlite3_value_int64` read it: toward zero, clamped to Int's range.
    static func integer(_ value: Double) -> Int64 {
        if value.isNaN { return 0 }
        if value <= -9.223372036854775808e18 { return .min }
        if value >= 9.223372036854775807e18 { return .max }
        return Int64(value.rounded(.towardZero))
    }

    static func negate(_ value: Value) -> Value {
        switch value {
        case .int(let a): return a == .min ? .double(-Double(a)) : .int(-a)
        case .double(let a): return .double(-a)
        default: return .null
        }
    }

    static func toDouble(_ value: Value) -> Value {
        switch value {
        case .int(let a): return .double(Double(a))
        default: return value
        }
    }

    static func number(_ value: Value) -> Double? {
        switch value {
        case .int(let a): Double(a)
        case .double(let a): a
        case .bool(let flag): flag ? 1 : 0
        case .date(let date): date.timeIntervalSinceReferenceDate
        default: nil
        }
    }

    // MARK: - Ordering

    /// The value as the store holds it: Bool as Int, dates as seconds, UUIDs as bytes.
    static func stored(_ value: Value) -> Value {
        StoreValueEncoding.encode(value, as: .null, dates: .secondsSinceReferenceDate)
    }

    private static func storageRank(_ value: Value) -> Int {
        switch value {
        case .null: 0
        case .int, .double, .bool, .date: 1
        case .string: 2
        case .data, .uuid: 3
        }
    }

    /// SQLite's order of two values: negative, zero or positive. Nil sorts first.
    static func compare(_ lhs: Value, _ rhs: Value) -> Int {
        let a = stored(lhs)
        let b = stored(rhs)
        let rankA = storageRank(a)
        let rankB = storageRank(b)
        if rankA != rankB { return rankA < rankB ? -1 : 1 }
        switch (a, b) {
        case (.null, .null): return 0
        case (.int(let x), .int(let y)): return x < y ? -1 : (x > y ? 1 : 0)
        case (.double(let x), .double(let y)): return x < y ? -1 : (x > y ? 1 : 0)
        case (.int(let x), .double(let y)): return compareExactly(x, y)
        case (.double(let x), .int(let y)): return -compareExactly(y, x)
        case (.string(let x), .string(let y)): return compareBytes(Array(x.utf8), Array(y.utf8))
        case (.data(let x), .data(let y)): return compareBytes(Array(x), Array(y))
        default: return 0
        }
    }

    /// An Int against a Double, exactly (no rounding of the Int).
    private static func compareExactly(_ integer: Int64, _ double: Double) -> Int {
        if double.isNaN { return 1 }
        if double < -9_223_372_036_854_775_808.0 { return 1 }
        if double >= 9_223_372_036_854_775_808.0 { return -1 }
        let truncated = Int64(double.rounded(.towardZero))
        if integer != truncated { return integer < truncated ? -1 : 1 }
        let fraction = double - double.rounded(.towardZero)
        return fraction > 0 ? -1 : (fraction < 0 ? 1 : 0)
    }

    private static func compareBytes(_ x: [UInt8], _ y: [UInt8]) -> Int {
        for (a, b) in zip(x, y) where a != b { return a < b ? -1 : 1 }
        return x.count == y.count ? 0 : (x.count < y.count ? -1 : 1)
    }

    /// `a IS b`: equal, with nil equal to nil.
    static func isSame(_ lhs: Value, _ rhs: Value) -> Bool {
        if lhs.isNull || rhs.isNull { return lhs.isNull && rhs.isNull }
        return compare(lhs, rhs) == 0
    }
}
