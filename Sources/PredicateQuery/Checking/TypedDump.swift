// A stable text form of checked queries, for golden tests and `--check` output.
//
//     entity Budget
//     where (and (> (attr limit Double) (double 100.0)) (contains (attr name String) (string "Vac")))
//     sort (attr name String) asc
//
// Paths show the level they start from when it is not the query's object (`@1`),
// the to-one relationships they follow, and the stored name when it differs.

import Foundation

extension CheckedQuery {
    /// One line per part of the query.
    public var typedDump: String {
        var lines = ["entity \(entity.name)"]
        if let predicate { lines.append("where " + predicate.typedDump) }
        for key in sortKeys {
            lines.append(
                "sort \(TypedExpr.attribute(key.path, key.type).typedDump)\(key.options.modifier) \(key.isAscending ? "asc" : "desc")"
            )
        }
        if let limit { lines.append("limit \(limit.typedDump)") }
        if let offset { lines.append("offset \(offset.typedDump)") }
        for parameter in parameters { lines.append("param $\(parameter.name) \(parameter.type)") }
        return lines.joined(separator: "\n")
    }
}

extension CheckedCount {
    var typedDump: String {
        switch self {
        case .literal(let value): String(value)
        case .parameter(let name): "$" + name
        }
    }
}

extension TypedExpr {
    /// The S-expression form of the typed expression.
    public var typedDump: String {
        switch self {
        case .constant(let value, let type): return Self.dumpConstant(value, type)
        case .parameter(let name, let type): return "(param $\(name) \(type))"
        case .currentDate(let function): return "(\(function.rawValue))"
        case .attribute(let path, let type):
            let stored = path.attribute.originalName.map { " stored:\($0)" } ?? ""
            return "(attr \(Self.prefix(path.level, path.steps))\(path.attribute.name) \(type)\(stored))"
        case .object(let path):
            let steps = path.steps.map(\.relationship.name).joined(separator: ".")
            return "(object \(path.level > 0 ? "@\(path.level)" : "self")\(steps.isEmpty ? "" : " " + steps) \(path.entity))"
        case .isNil(let operand): return "(isNil \(operand.typedDump))"
        case .not(let operand): return "(not \(operand.typedDump))"
        case .and(let operands): return "(and " + operands.map(\.typedDump).joined(separator: " ") + ")"
        case .or(let operands): return "(or " + operands.map(\.typedDump).joined(separator: " ") + ")"
        case .compare(let op, let lhs, let rhs, let options):
            return "(\(op.rawValue)\(options.modifier) \(lhs.typedDump) \(rhs.typedDump))"
        case .stringTest(let op, let lhs, let rhs, let options):
            return "(\(op.rawValue)\(options.modifier) \(lhs.typedDump) \(rhs.typedDump))"
        case .inList(let element, let members):
            return "(in \(element.typedDump) (" + members.map(\.typedDump).joined(separator: " ") + "))"
        case .inParameterList(let element, let name, _, let options):
            return "(in\(options.modifier) \(element.typedDump) $\(name))"
        case .inRange(let element, let lower, let upper, let kind):
            return "(in \(element.typedDump) \(lower.typedDump)\(kind == .closed ? "..." : "..<")\(upper.typedDump))"
        case .arithmetic(let op, let lhs, let rhs, let type):
            return "(\(op.rawValue) \(lhs.typedDump) \(rhs.typedDump) : \(type))"
        case .negate(let operand, _): return "(neg \(operand.typedDump))"
        case .coalesce(let lhs, let rhs, let type): return "(?? \(lhs.typedDump) \(rhs.typedDump) \(type))"
        case .toDouble(let operand): return "(toDouble \(operand.typedDump))"
        case .quantified(let quantifier, let path, let condition):
            return "(\(quantifier.rawValue) \(Self.dumpCollection(path)) \(condition.typedDump))"
        case .aggregate(let function, let path, let filter, let value, let type):
            var text = "(@\(function.rawValue) \(Self.dumpCollection(path))"
            if let filter { text += " where \(filter.typedDump)" }
            if let value { text += " \(value.typedDump)" }
            return text + " : \(type))"
        }
    }

    private static func prefix(_ level: Int, _ steps: [RelationshipStep]) -> String {
        (level > 0 ? "@\(level)." : "") + steps.map { $0.relationship.name + "." }.joined()
    }

    private static func dumpCollection(_ path: CollectionPath) -> String {
        "@\(path.elementLevel) in \(prefix(path.level, path.steps))\(path.relationship.relationship.name) : \(path.elementEntity)"
    }

    private static func dumpConstant(_ value: Value, _ type: ValueType) -> String {
        if case .enumeration(let enumType) = type {
            let rawValue: EnumType.RawValue? =
                switch value {
                case .int(let number): .int(number)
                case .string(let text): .string(text)
                default: nil
                }
            let name = rawValue.flatMap { enumType.enumCase(rawValue: $0)?.name } ?? "?"
            return "(enum \(enumType.name).\(name) \(value))"
        }
        switch value {
        case .null: return "(nil)"
        case .string(let text): return "(\(type == .url ? "url" : "string") \(text.debugDescription))"
        case .double(let number) where type == .duration: return "(duration \(number))"
        default: return "(\(type == .duration ? "duration" : type.description.lowercased()) \(value))"
        }
    }
}
