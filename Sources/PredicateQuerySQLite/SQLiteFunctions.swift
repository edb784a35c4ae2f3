// pq's string functions, registered on each connection: the SQL that lowering
// emits calls these, and they call the same `StringFunctions` the in-memory
// evaluator uses, so the store and the reference fold and match identically.
//
//     pq_fold(text, flags)              [c] = 1, [d] = 2
//     pq_contains(text, needle, flags)  and one such function for each string
//                                       operator, named in its row of `StringOperator`
//                                       (pq_hasprefix, pq_hassuffix, pq_like, pq_matches):
//                                       `StringFunctions.test` with that operator
//     pq_sum(value)                     an aggregate: `Aggregates.Sum`
//     pq_xor(a, b)                      a ^ b of the two as SQLite's `|` and `&` read
//                                       them (sqlite3_value_int64): what
//                                       (a | b) - (a & b) gives, each operand once
//
// Each returns NULL when an argument is NULL. Text is read with its byte length,
// so strings holding NUL characters are handled whole.

import CSQLite
import PredicateQuery

enum SQLiteFunctions {
    typealias Body = @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void

    static func register(on connection: SQLiteConnection) throws(StoreError) {
        try register(on: connection.handle)
    }

    /// Registers pq's functions on an open database handle.
    static func register(on handle: OpaquePointer) throws(StoreError) {
        let flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS
        func check(_ status: Int32, _ name: String) throws(StoreError) {
            guard status == SQLITE_OK else {
                throw StoreError("cannot register \(name): \(String(cString: sqlite3_errmsg(handle)))", sqliteCode: status)
            }
        }
        try check(sqlite3_create_function_v2(handle, "pq_fold", 2, flags, nil, fold, nil, nil, nil), "pq_fold")
        // One function per string operator; its user data is the operator's position in `allCases` plus one.
        for (position, op) in StringOperator.allCases.enumerated() {
            let name = op.definition.sqliteFunction
            let operatorTag = UnsafeMutableRawPointer(bitPattern: position + 1)
            try check(sqlite3_create_function_v2(handle, name, 3, flags, operatorTag, stringTest, nil, nil, nil), name)
        }
        try check(sqlite3_create_function_v2(handle, "pq_sum", 1, flags, nil, nil, sumStep, sumFinal, nil), "pq_sum")
        try check(sqlite3_create_function_v2(handle, "pq_xor", 2, flags, nil, xor, nil, nil, nil), "pq_xor")
    }

    /// `pq_xor(a, b)`: NULL if either is NULL, as SQLite's bitwise operators give;
    /// otherwise both read as integers the way those operators read them.
    private static let xor: Body = { context, _, arguments in
        guard let a = arguments?[0], let b = arguments?[1], sqlite3_value_type(a) != SQLITE_NULL,
            sqlite3_value_type(b) != SQLITE_NULL
        else { return sqlite3_result_null(context) }
        sqlite3_result_int64(context, sqlite3_value_int64(a) ^ sqlite3_value_int64(b))
    }

    /// The running sum lives in SQLite's aggregate context itself (zeroed memory,
    /// so `isStarted` is false until the first value): no allocation per group.
    private struct SumState {
        var isStarted: Bool
        var sum: Aggregates.Sum
    }

    private static let sumStep: Body = { context, _, arguments in
        guard let value = arguments?[0],
            let slot = sqlite3_aggregate_context(context, Int32(MemoryLayout<SumState>.stride))
        else { return }
        let state = slot.assumingMemoryBound(to: SumState.self)
        if !state.pointee.isStarted { state.pointee = SumState(isStarted: true, sum: Aggregates.Sum()) }
        switch sqlite3_value_type(value) {
        case SQLITE_INTEGER: state.pointee.sum.add(integer: sqlite3_value_int64(value))
        case SQLITE_NULL: break
        default: state.pointee.sum.add(double: sqlite3_value_double(value))
        }
    }

    private static let sumFinal: @convention(c) (OpaquePointer?) -> Void = { context in
        var result = Aggregates.Sum().result
        if let slot = sqlite3_aggregate_context(context, 0) {
            let state = slot.assumingMemoryBound(to: SumState.self).pointee
            if state.isStarted { result = state.sum.result }
        }
        switch result {
        case .int(let number): sqlite3_result_int64(context, number)
        case .double(let number): sqlite3_result_double(context, number)
        default: sqlite3_result_null(context)
        }
    }

    /// The text of an argument, or nil if it is NULL.
    private static func text(_ arguments: UnsafeMutablePointer<OpaquePointer?>?, _ index: Int) -> String? {
        guard let value = arguments?[index], sqlite3_value_type(value) != SQLITE_NULL else { return nil }
        let count = Int(sqlite3_value_bytes(value))
        guard let pointer = sqlite3_value_text(value) else { return "" }
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    private static func options(_ arguments: UnsafeMutablePointer<OpaquePointer?>?, _ index: Int) -> StringOptions {
        guard let value = arguments?[index] else { return [] }
        return StringOptions(rawValue: UInt8(truncatingIfNeeded: sqlite3_value_int64(value)))
    }

    private static func resultText(_ context: OpaquePointer?, _ text: String) {
        var bytes = Array(text.utf8)
        bytes.append(0)
        bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress?.assumingMemoryBound(to: CChar.self) else { return }
            sqlite3_result_text64(
                context, base, sqlite3_uint64(bytes.count - 1), unsafeBitCast(-1, to: sqlite3_destructor_type.self),
                UInt8(SQLITE_UTF8))
        }
    }

    private static func resultBool(_ context: OpaquePointer?, _ flag: Bool) {
        sqlite3_result_int64(context, flag ? 1 : 0)
    }

    private static let fold: Body = { context, _, arguments in
        guard let text = text(arguments, 0) else { return sqlite3_result_null(context) }
        resultText(context, StringFunctions.fold(text, options(arguments, 1)))
    }

    /// `pq_contains(text, other, flags)` and the other string operators' functions: the
    /// operator is told by the function's user data (see `register(on:)`).
    private static let stringTest: Body = { context, _, arguments in
        let position = Int(bitPattern: sqlite3_user_data(context)) - 1
        guard StringOperator.allCases.indices.contains(position) else {
            return sqlite3_result_error(context, "pq: unknown string operator", -1)
        }
        guard let text = text(arguments, 0), let other = SQLiteFunctions.text(arguments, 1) else {
            return sqlite3_result_null(context)
        }
        do throws(StringFunctions.RegexError) {
            resultBool(context, try StringFunctions.test(StringOperator.allCases[position], text, other, options(arguments, 2)))
        } catch {
            sqlite3_result_error(context, error.description, -1)
            if error.reason == .tooMuchBacktracking { sqlite3_result_error_code(context, patternTooCostly) }
        }
    }

    /// The result code of a `matches` test stopped for backtracking too much: SQLite's
    /// SQLITE_ERROR with an extended code of pq's own, so the step that fails can
    /// tell the caller's pattern from a fault of the store (see `StoreError.Kind`).
    static let patternTooCostly: Int32 = SQLITE_ERROR | (0x70 << 8)
}
