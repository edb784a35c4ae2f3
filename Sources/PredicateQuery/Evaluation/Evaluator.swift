// The in-memory evaluator: the reference meaning of a checked query.
//
// It runs a query over an `ObjectGraph` and must select, in order, exactly the
// objects the SQL does (the differential tests hold the two to that). Logic is
// two-valued as Documentation/Language.md ("Meaning") says: a condition is true or false for every object;
// `==` treats nil as equal to nil, while an ordering comparison, a string test or
// a membership test with a nil operand is false.

import Foundation

/// Why evaluation failed: the same failures the store reports for the same query.
public struct EvaluationError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, in one sentence.
    public var message: String
    public var description: String { message }
}

/// Runs checked queries over objects in memory.
public struct Evaluator {
    /// The objects queries run over.
    public let graph: ObjectGraph
    /// The values of the queries' `$name` parameters, by name.
    public let parameters: [String: ParameterValue]
    /// The moment and time zone `now()` and `today()` mean.
    public let environment: QueryEnvironment

    /// An evaluator over `graph`, with values for parameters and the moment the queries run.
    public init(
        graph: ObjectGraph, parameters: [String: ParameterValue] = [:], environment: QueryEnvironment = QueryEnvironment()
    ) {
        self.graph = graph
        self.parameters = parameters
        self.environment = environment
    }

    /// The objects the query selects, sorted and paged as it says.
    public func run(_ query: CheckedQuery) throws -> [ObjectID] {
        do {
            try BindingResolver.validate(query, parameters: parameters)
        } catch {
            throw EvaluationError(message: error.message)
        }
        var selected: [ObjectID] = []
        for id in graph.objects(of: query.entity.name) where try test(query.predicate, on: id) {
            selected.append(id)
        }
        selected = try sort(selected, by: query.sortKeys)
        let offset = try count(query.offset) ?? 0
        let page = selected.dropFirst(Int(clamping: offset))
        guard let limit = try count(query.limit) else { return Array(page) }
        return Array(page.prefix(Int(clamping: limit)))
    }

    private func test(_ predicate: TypedExpr?, on id: ObjectID) throws -> Bool {
        guard let predicate else { return true }
        return try condition(predicate, [id])
    }

    private func count(_ count: CheckedCount?) throws -> Int64? {
        switch count {
        case nil: return nil
        case .literal(let value): return value
        case .parameter(let name):
            guard case .int(let value) = try parameter(name, .int), value >= 0 else {
                throw EvaluationError(message: "parameter '$\(name)' must be a non-negative integer")
            }
            return value
        }
    }

    func parameter(_ name: String, _ type: ValueType) throws -> Value {
        switch parameters[name] {
        case .single(let value)?: return try BindingResolver.check(value, as: type, name: name)
        case .list?: throw EvaluationError(message: "parameter '$\(name)' takes one \(type) value, not a list")
        case nil: throw EvaluationError(message: "no value was given for parameter '$\(name)'")
        }
    }

    // MARK: - Conditions

    /// Whether the condition holds; `scopes[level]` is the object bound at each level.
    func condition(_ expr: TypedExpr, _ scopes: [ObjectID]) throws -> Bool {
        switch expr {
        case .not(let operand): return try !condition(operand, scopes)
        case .and(let operands):
            for operand in operands where try !condition(operand, scopes) { return false }
            return true
        case .or(let operands):
            for operand in operands where try condition(operand, scopes) { return true }
            return false
        case .isNil(.object(let path)): return object(at: path.level, path.steps, scopes) == nil
        case .isNil(let operand): return try value(operand, scopes).isNull
        case .compare(let op, let lhs, let rhs, let options):
            let left = folded(try value(lhs, scopes), options)
            let right = folded(try value(rhs, scopes), options)
            switch op {
            case .equal: return SQLiteSemantics.isSame(left, right)
            case .notEqual: return !SQLiteSemantics.isSame(left, right)
            default:
                guard !left.isNull, !right.isNull else { return false }
                let order = SQLiteSemantics.compare(left, right)
                switch op {
                case .less: return order < 0
                case .lessOrEqual: return order <= 0
                case .greater: return order > 0
                default: return order >= 0
                }
            }
        case .stringTest(let op, let lhs, let rhs, let options):
            return try stringTest(op, try value(lhs, scopes), try value(rhs, scopes), options)
        case .inList(let element, let members):
            let subject = try value(element, scopes)
            guard !subject.isNull else { return false }
            for member in members where SQLiteSemantics.isSame(subject, try value(member, scopes)) { return true }
            return false
        case .inParameterList(let element, let name, let type, let options):
            let subject = folded(try value(element, scopes), options)
            guard !subject.isNull else { return false }
            guard case .list(let list)? = parameters[name] else {
                throw EvaluationError(message: "parameter '$\(name)' needs a list of \(type) values")
            }
            for member in list
            where SQLiteSemantics.isSame(subject, folded(try BindingResolver.check(member, as: type, name: name), options)) {
                return true
            }
            return false
        case .inRange(let element, let lower, let upper, let kind):
            let subject = try value(element, scopes)
            let low = try value(lower, scopes)
            let high = try value(upper, scopes)
            guard !subject.isNull, !low.isNull, !high.isNull else { return false }
            let aboveLow = SQLiteSemantics.compare(subject, low) >= 0
            let belowHigh = SQLiteSemantics.compare(subject, high)
            return aboveLow && (kind == .closed ? belowHigh <= 0 : belowHigh < 0)
        case .quantified(let quantifier, let path, let body):
            return try quantified(quantifier, path, body, scopes)
        default:
            let result = try value(expr, scopes)
            if case .bool(let flag) = result { return flag }
            return (SQLiteSemantics.number(SQLiteSemantics.stored(result)) ?? 0) != 0
        }
    }

    private func folded(_ value: Value, _ options: StringOptions) -> Value {
        guard !options.isEmpty, case .string(let text) = value else { return value }
        return .string(StringFunctions.fold(text, options))
    }

    private func stringTest(_ op: StringOperator, _ lhs: Value, _ rhs: Value, _ options: StringOptions) throws -> Bool {
        guard case .string(let text) = lhs, case .string(let other) = rhs else { return false }
        do {
            return try StringFunctions.test(op, text, other, options)
        } catch {
            throw EvaluationError(message: error.description)
        }
    }

    // MARK: - Values

    /// The object reached from the one at `level` through to-one `steps`, or nil.
    func object(at level: Int, _ steps: [RelationshipStep], _ scopes: [ObjectID]) -> ObjectID? {
        guard level < scopes.count else { return nil }
        var current: ObjectID? = scopes[level]
        for step in steps {
            guard let id = current else { return nil }
            current = graph[id]?.toOne[step.relationship.name]
        }
        return current
    }

    func value(_ expr: TypedExpr, _ scopes: [ObjectID]) throws -> Value {
        switch expr {
        case .constant(let value, _): return value
        case .parameter(let name, let type): return try parameter(name, type)
        case .currentDate(let function): return .date(environment.date(function))
        case .attribute(let path, _):
            guard let id = object(at: path.level, path.steps, scopes) else { return .null }
            return graph[id]?.value(path.attribute.name) ?? .null
        case .object(let path):
            // An object's identity is its store key (unique in its root entity's table).
            guard let id = object(at: path.level, path.steps, scopes) else { return .null }
            return .int(id.key)
        case .arithmetic(let op, let lhs, let rhs, _):
            return SQLiteSemantics.arithmetic(op, try value(lhs, scopes), try value(rhs, scopes))
        case .negate(let operand, _): return SQLiteSemantics.negate(try value(operand, scopes))
        case .coalesce(let lhs, let rhs, _):
            let first = try value(lhs, scopes)
            return first.isNull ? try value(rhs, scopes) : first
        case .toDouble(let operand): return SQLiteSemantics.toDouble(try value(operand, scopes))
        case .aggregate(let function, let path, let filter, let element, _):
            return try aggregate(function, path, filter: filter, value: element, scopes)
        case .quantified(_, let path, _):
            // Nil over a nil collection, as `$0.budget?.transactions.isEmpty` is in Swift.
            guard elements(of: path, scopes) != nil else { return .null }
            return .bool(try condition(expr, scopes))
        case .isNil, .not, .and, .or, .compare, .stringTest, .inList, .inParameterList, .inRange:
            return .bool(try condition(expr, scopes))
        }
    }
}
