// Turns a compiled query's bindings into the values to bind, when it runs:
// parameters by name (type-checked against what the query needs), now() and
// today(), the upper bounds of prefix ranges, and list parameters, whose values
// each get a placeholder of their own.

import Foundation

/// A value given for a parameter: one value, or a list for `x in $list`.
public enum ParameterValue: Sendable, Hashable {
    /// One value, for a parameter compared or used as a value: `$name`.
    case single(Value)
    /// A list of values, for a parameter a value is looked for in: `x in $list`.
    case list([Value])
}

/// When a query runs: the moment `now()` stands for, and the time zone `today()` uses.
public struct QueryEnvironment: Sendable {
    /// The moment `now()` stands for; `today()` is the start of its day.
    public var now: Date
    /// The time zone whose midnight `today()` is: the one given, or else the system's
    /// current time zone, looked up only when it is read. Most queries have no
    /// `today()`, and finding the current time zone was a twentieth of the CPU of a
    /// whole `pq` process answering a one-row query.
    public var timeZone: TimeZone {
        get { givenTimeZone ?? .current }
        set { givenTimeZone = newValue }
    }
    private var givenTimeZone: TimeZone?

    /// An environment in which `now()` is `now` (by default, the moment it is made) and
    /// `today()` starts in the system's current time zone.
    public init(now: Date = Date()) {
        self.now = now
    }

    /// An environment in which `now()` is `now` (by default, the moment it is made) and `today()` starts in `timeZone`.
    public init(now: Date = Date(), timeZone: TimeZone) {
        self.now = now
        self.givenTimeZone = timeZone
    }

    /// The value of `now()` or `today()`.
    public func date(_ function: BuiltinFunction) -> Date {
        guard function == .today else { return now }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar.startOfDay(for: now)
    }
}

/// Why parameters could not be bound.
public struct BindingError: Error, Sendable, CustomStringConvertible {
    /// What is wrong with the parameters' values, in one sentence.
    public var message: String
    /// Whether the values exceed a limit (SQLite's bound values), rather than being wrong.
    public var isLimit: Bool
    public var description: String { message }

    /// An error saying `message`; `isLimit` when the values exceed a limit rather than being wrong.
    public init(message: String, isLimit: Bool = false) {
        self.message = message
        self.isLimit = isLimit
    }
}

/// A statement ready to run: its text (list parameters expanded) and every value to bind.
package struct ResolvedStatement: Sendable {
    /// The SQL to run, with a placeholder for each value.
    public var sql: String
    /// The values to bind, one per placeholder, in order.
    public var values: [Value]
    /// How many values each list parameter's binding (by its index in the query's
    /// bindings) put after the others (nil members are left out).
    public var listSizes: [Int: Int] = [:]
    /// The bindings the values are for, in order (before the list members): the
    /// compiled query's, or those of the query lowered again with the parameters'
    /// values in place, whose order may differ (a value joins an `IN` list). A store
    /// that types its parameters (PostgreSQL) reads their types here.
    public var bindings: [SQLBinding] = []
}

package enum BindingResolver {
    /// Checks, before anything runs, that every parameter the query declares has a
    /// value of its type and that pattern parameters are valid regular expressions,
    /// so a bad value fails the query whatever order it would be evaluated in.
    public static func validate(_ query: CheckedQuery, parameters: [String: ParameterValue]) throws(BindingError) {
        for declaration in query.parameters {
            switch (declaration.type, parameters[declaration.name]) {
            case (.list(let element), .list(let values)?):
                for value in values { _ = try check(value, as: element, name: declaration.name) }
            case (.list(let element), _):
                throw BindingError(message: "parameter '$\(declaration.name)' needs a list of \(element) values")
            case (let type, _):
                let value = try parameter(declaration.name, type, in: parameters)
                if query.patternParameters.contains(declaration.name), case .string(let pattern) = value,
                    !StringFunctions.isValidRegex(pattern)
                {
                    throw BindingError(
                        message: "parameter '$\(declaration.name)': '\(pattern)' is not a valid regular expression")
                }
            }
        }
    }

    /// The statement and the value for each placeholder of `query`, in the store's encoding.
    public static func resolve(
        _ query: CompiledQuery, parameters: [String: ParameterValue], environment: QueryEnvironment
    ) throws(BindingError) -> ResolvedStatement {
        try validate(query.query, parameters: parameters)
        if query.shapeDependsOnValues, let relowered = try relowered(query, parameters: parameters),
            !relowered.shapeDependsOnValues
        {
            return try resolve(relowered, parameters: parameters, environment: environment)
        }
        let dates = query.mapping.dateEncoding
        var values: [Value] = []
        var lists: [Int: [Value]] = [:]
        for (index, binding) in query.bindings.enumerated() {
            switch binding {
            case .constant(let value, let type):
                values.append(StoreValueEncoding.encode(value, as: type, dates: dates))
            case .parameter(let name, let type):
                let value = try parameter(name, type, in: parameters)
                values.append(StoreValueEncoding.encode(value, as: type, dates: dates))
            case .count(let name):
                let value = try parameter(name, .int, in: parameters)
                guard case .int(let count) = value, count >= 0 else {
                    throw BindingError(message: "parameter '$\(name)' must be a non-negative integer")
                }
                values.append(value)
            case .parameterList(let name, let type, let folding):
                guard case .list(let list)? = parameters[name] else {
                    throw BindingError(message: "parameter '$\(name)' needs a list of \(type) values")
                }
                // A nil member matches nothing (pq's `in` is two-valued), so it is left out:
                // bound, it would make `x IN (…, NULL)` NULL where x is in no other member,
                // and `!(x in $list)` false instead of true.
                var members: [Value] = []
                for value in list {
                    let checked = try check(value, as: type, name: name)
                    // `x in[c] $list`: folded here as SQLite's `pq_fold` folds the column.
                    let member =
                        if !folding.isEmpty, case .string(let text) = checked {
                            Value.string(StringFunctions.fold(text, folding))
                        } else {
                            StoreValueEncoding.encode(checked, as: type, dates: dates)
                        }
                    if !member.isNull { members.append(member) }
                }
                // A dialect with no empty `IN ()` (PostgreSQL) gets one NULL, which the
                // lowering's exact form makes false (`SQLDialect.acceptsEmptyInList`).
                if members.isEmpty, !query.dialect.acceptsEmptyInList { members = [.null] }
                lists[index] = members
                values.append(.null)
            case .currentDate(let function):
                values.append(.double(StoreValueEncoding.seconds(of: environment.date(function), dates)))
            case .prefixUpperBound(let index):
                guard index < values.count, case .string(let prefix) = values[index] else {
                    values.append(.null)
                    continue
                }
                values.append(StringFunctions.prefixSuccessor(prefix).map(Value.string) ?? .data(Data()))
            case .pattern(let pattern, let index):
                guard index < values.count, case .string(let needle) = values[index] else {
                    values.append(.null)
                    continue
                }
                do throws(PostgreSQLPatternError) {
                    values.append(.string(try pattern.make(needle)))
                } catch {
                    let named = index < query.bindings.count ? query.bindings[index] : nil
                    guard case .parameter(let name, _)? = named else { throw BindingError(message: error.message) }
                    throw BindingError(message: "parameter '$\(name)': \(error.message)")
                }
            }
        }
        let total = values.count + lists.values.reduce(0) { $0 + $1.count }
        guard total <= maxPlaceholders else {
            var lists = query.bindings.compactMap { binding -> (String, Int)? in
                guard case .parameterList(let name, _, _) = binding, case .list(let list)? = parameters[name] else { return nil }
                return (name, list.count)
            }
            lists.sort { $0.1 > $1.1 }
            let largest = lists.first.map { " (the list '$\($0.0)' has \($0.1))" } ?? ""
            throw BindingError(message: tooManyValuesMessage(total, largest: largest), isLimit: true)
        }
        var nilBindings: Set<Int> = []
        for (index, binding) in query.bindings.enumerated() {
            if case .parameter = binding, index < values.count, values[index] == .null { nilBindings.insert(index) }
        }
        for index in lists.keys.sorted() { values += lists[index] ?? [] }
        let sizes = lists.mapValues(\.count)
        return ResolvedStatement(
            sql: query.statement(listSizes: sizes, nilBindings: nilBindings), values: values, listSizes: sizes,
            bindings: query.bindings)
    }

    /// The query lowered again with each one-value parameter's value in its place, as
    /// a constant (still a bound value), so the SQL takes the shape a literal gets.
    private static func relowered(
        _ query: CompiledQuery, parameters: [String: ParameterValue]
    ) throws(BindingError) -> CompiledQuery? {
        var values: [String: (Value, ValueType)] = [:]
        for declaration in query.query.parameters {
            guard case .single(let value)? = parameters[declaration.name] else { continue }
            values[declaration.name] = (try check(value, as: declaration.type, name: declaration.name), declaration.type)
        }
        var checked = query.query
        checked.predicate = checked.predicate?.rewritingLeaves { leaf in
            guard case .parameter(let name, _) = leaf, let (value, type) = values[name] else { return leaf }
            return .constant(value, type)
        }
        return try? SQLLowering.lower(
            checked, mapping: query.mapping, count: query.isCount, summaries: query.hasSummaries)
    }

    /// SQLite's default limit on placeholders in one statement (SQLITE_MAX_VARIABLE_NUMBER).
    public static let maxPlaceholders = 32_766

    /// Why a query needing `total` bound values cannot run; `largest` names its largest list parameter.
    static func tooManyValuesMessage(_ total: Int, largest: String = "") -> String {
        "the query needs \(total) bound values\(largest); SQLite allows at most \(maxPlaceholders) in one query"
    }

    private static func parameter(
        _ name: String, _ type: ValueType, in parameters: [String: ParameterValue]
    )
        throws(BindingError) -> Value
    {
        switch parameters[name] {
        case .single(let value)?: return try check(value, as: type, name: name)
        case .list?: throw BindingError(message: "parameter '$\(name)' takes one \(type) value, not a list")
        case nil: throw BindingError(message: "no value was given for parameter '$\(name)'")
        }
    }

    /// The value if it fits the type the query gives the parameter (Int widens to
    /// Double); a Double that is not a number is nil, as SQLite stores it.
    static func check(_ value: Value, as type: ValueType, name: String) throws(BindingError) -> Value {
        switch (value, type) {
        case (.double(let number), .double) where number.isNaN, (.double(let number), .duration) where number.isNaN:
            return .null
        case (.null, _), (.bool, .bool), (.int, .int), (.double, .double), (.string, .string), (.string, .url),
            (.date, .date), (.uuid, .uuid), (.data, .data), (.double, .duration):
            return value
        case (.int(let number), .double), (.int(let number), .duration):
            return .double(Double(number))
        case (.string(let text), .uuid):
            if let uuid = UUID(uuidString: text) { return .uuid(uuid) }
        case (.int(let raw), .enumeration(let enumType)) where enumType.enumCase(rawValue: .int(raw)) != nil:
            return value
        case (.string(let raw), .enumeration(let enumType)) where enumType.enumCase(rawValue: .string(raw)) != nil:
            return value
        // An object is bound by its store key.
        case (.int, .object):
            return value
        default:
            break
        }
        throw BindingError(message: "parameter '$\(name)' needs a value of type '\(type)', not \(value)")
    }
}
