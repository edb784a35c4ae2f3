// Random well-typed queries over a schema, as text: the differential tests run
// each through the whole pipeline (parse, check, lower, SQLite or PostgreSQL) and
// through the evaluator, and compare the rows.
//
// Conditions are built from the schema: every attribute type with its operators
// and modifiers, literals drawn from the same pools as the data (so they match
// something), nil tests, paths through to-one relationships with `.` and `?.`,
// quantifiers, closures that refer back to the query's object, aggregates and
// filters over to-many relationships, arithmetic, parameters, sort keys, pages.

import Foundation
import PredicateQuery
import PredicateQueryTestSupport

/// Forms the differential tests must generate in every run: the blind spots an
/// independent reference found (issue 13), counted so a run that never produced
/// one fails instead of passing unseen.
public enum GeneratedForm: String, CaseIterable, Sendable {
    case constantClosureBody = "closure with a constant body ({ true }, TRUEPREDICATE)"
    case sameOperandTwice = "x == x"
    case enumCoalesce = "enum ?? case, compared with a case or raw value"
    case emptyRegex = "matches ''"
    case emptyString = "'' as an operand"
    case bigIntAgainstDouble = "Int beyond 2^53 against a Double"
    case hardString = "a hard string (decomposed, lone mark, ß, İ, ZWJ) as an operand"
    case stringModifier = "[c], [d] or [cd]"
    case collectionThroughToOne = "to-many reached through a to-one"
    case objectComparison = "an object compared by identity ($o, SELF, persistentModelID)"
    /// Issue 27: false there, as `@count == 0` is, though it once was true.
    case isEmptyThroughToOne = "isEmpty or filter { … }.isEmpty of a to-many reached through a to-one"
    /// Issue 27: lowered as one `IN` list (`TypedExpr.equalitiesAsMembership`).
    case equalityChain = "|| of equalities on one path (name == 'a' || 'b' == name || …)"
}

/// Random well-typed queries over a schema, as text, the same for the same seed.
public struct RandomQueryGenerator {
    /// The schema the queries check against.
    public let schema: Schema
    /// Where every choice comes from.
    public var random: SplitMix64
    /// Parameters the current query uses, with the values to bind.
    public private(set) var parameters: [String: ParameterValue] = [:]
    private var closureDepth = 0
    /// How many generated queries used each form, over all queries so far.
    public private(set) var forms: [GeneratedForm: Int] = [:]
    /// The forms the current query uses.
    private var formsInQuery: Set<GeneratedForm> = []

    private mutating func uses(_ form: GeneratedForm) { formsInQuery.insert(form) }

    /// Adds the current query's forms to the counts.
    private mutating func countForms() {
        for form in formsInQuery { forms[form, default: 0] += 1 }
        formsInQuery = []
    }

    /// Queries over `schema`, drawn from `seed`.
    public init(schema: Schema, seed: UInt64) {
        self.schema = schema
        random = SplitMix64(seed: seed)
    }

    private mutating func int(_ range: ClosedRange<Int>) -> Int { random.int(range) }
    private mutating func chance(_ percent: Int) -> Bool { random.chance(percent) }
    private mutating func pick<T>(_ items: [T]) -> T { random.pick(items) }

    /// A query over `entity`: a predicate, maybe sort keys, maybe a page.
    public mutating func query(for entity: Entity) -> String {
        parameters = [:]
        closureDepth = 0
        var text = entity.name + " where " + predicate(entity, prefix: "", depth: 0)
        let keys = (0..<int(0...2)).compactMap { _ in sortKey(entity) }
        if !keys.isEmpty { text += " sort by " + keys.joined(separator: ", ") }
        if chance(20) { text += " limit \(int(0...15))" }
        if chance(15) { text += " offset \(int(0...10))" }
        countForms()
        return text
    }

    /// A query whose predicate is a conjunction of two or three tests, most of
    /// them over the object's to-many relationships, sometimes with a limit: the
    /// shapes lowering may run as element passes (SQLLowering+ElementPasses).
    public mutating func conjunctionQuery(for entity: Entity) -> String {
        parameters = [:]
        closureDepth = 0
        let hasToMany = !relationships(of: entity, toMany: true).isEmpty
        let tests = (0..<int(2...3)).map { _ in
            hasToMany && chance(70) ? collectionTest(entity, prefix: "", depth: 1) : atom(entity, prefix: "", depth: 1)
        }
        var text = entity.name + " where " + tests.joined(separator: " && ")
        if chance(30), let key = sortKey(entity) { text += " sort by " + key }
        if chance(15) { text += " limit \(int(0...15))" }
        countForms()
        return text
    }

    /// A query that computes a date (`d + 1e-7s > d`, `now() - 7d < d`), for checking
    /// that a broken date rendering is caught; another query where the entity has no date.
    public mutating func dateQuery(for entity: Entity) -> String {
        parameters = [:]
        closureDepth = 0
        let dates = attributes(of: entity).filter { $0.type == .date }
        guard !dates.isEmpty else { return query(for: entity) }
        let path = pick(dates).name
        let op = pick(["==", "!=", "<", "<=", ">", ">="])
        switch int(0...2) {
        case 0: return "\(entity.name) where \(path) + \(durationLiteral()) \(op) \(path)"
        case 1: return "\(entity.name) where \(path) - \(durationLiteral()) \(op) \(dateLiteral())"
        default: return "\(entity.name) where now() - \(durationLiteral()) \(op) \(path) + \(durationLiteral())"
        }
    }

    /// A query that computes with numbers: arithmetic on two of the object's numbers
    /// or one and a literal (0 as a divisor often), or `@sum`/`@avg` over one of its
    /// collections; for checking that a broken numeric rendering is caught.
    public mutating func numericQuery(for entity: Entity) -> String {
        parameters = [:]
        closureDepth = 0
        let isNumber: (Attribute) -> Bool = { $0.type == .integer(bits: 64) || $0.type == .double }
        let collections = relationships(of: entity, toMany: true).compactMap { relationship -> (String, [Attribute])? in
            guard let element = schema.entity(named: relationship.destination) else { return nil }
            let numbers = attributes(of: element).filter(isNumber)
            return numbers.isEmpty ? nil : (relationship.name, numbers)
        }
        let numbers = attributes(of: entity).filter(isNumber)
        let op = pick(["==", "!=", "<", ">=", ">"])
        if let (collection, elementNumbers) = collections.isEmpty ? nil : pick(collections), numbers.isEmpty || chance(40) {
            let attribute = pick(elementNumbers)
            // Small elements only, half the time, so that Int sums stay in range.
            let elements =
                chance(50)
                ? "SUBQUERY(\(collection), $e, $e.\(attribute.name) > -1000 && $e.\(attribute.name) < 1000)" : collection
            return "\(entity.name) where \(elements).@\(pick(["sum", "avg"])).\(attribute.name) \(op) \(pick(["0", "1", "5", "-3", "100"]))"
        }
        guard !numbers.isEmpty else { return query(for: entity) }
        let a = pick(numbers)
        let b = pick(numbers)
        let isDouble = a.type == .double || b.type == .double
        let arithmetic = pick(isDouble ? ["+", "-", "*", "/"] : ["+", "-", "*", "/", "%"])
        let operand = chance(50) ? b.name : (chance(40) ? "0" : (isDouble ? doubleLiteral() : pick(["2", "3", "7", "-5"])))
        return "\(entity.name) where \(a.name) \(arithmetic) \(operand) \(op) \(isDouble ? doubleLiteral() : pick(["0", "1", "2", "5"]))"
    }

    // MARK: - Predicates

    /// A condition on `entity` (its key paths written after `prefix`), nested at most
    /// three deep from `depth`.
    public mutating func predicate(_ entity: Entity, prefix: String, depth: Int) -> String {
        if depth >= 3 || chance(35) { return atom(entity, prefix: prefix, depth: depth) }
        switch int(0...5) {
        case 0, 1:
            return "(" + predicate(entity, prefix: prefix, depth: depth + 1) + " && "
                + predicate(entity, prefix: prefix, depth: depth + 1) + ")"
        case 2, 3:
            return "(" + predicate(entity, prefix: prefix, depth: depth + 1) + " || "
                + predicate(entity, prefix: prefix, depth: depth + 1) + ")"
        default:
            return pick(["!", "NOT "]) + "(" + predicate(entity, prefix: prefix, depth: depth + 1) + ")"
        }
    }

    private func relationships(of entity: Entity, toMany: Bool) -> [Relationship] {
        schema.allProperties(of: entity).compactMap { property in
            guard case .relationship(let relationship) = property, relationship.isToMany == toMany else { return nil }
            return relationship
        }
    }

    private func attributes(of entity: Entity) -> [Attribute] {
        schema.allProperties(of: entity).compactMap { property in
            guard case .attribute(let attribute) = property, !attribute.isTransient else { return nil }
            return attribute
        }
    }

    /// Follows zero to two to-one relationships from `entity`; returns the path text and the entity reached.
    private mutating func toOnePath(from entity: Entity, prefix: String) -> (String, Entity) {
        var path = prefix
        var current = entity
        for _ in 0..<int(0...2) {
            let candidates = relationships(of: current, toMany: false)
            guard !candidates.isEmpty, chance(50) else { break }
            let relationship = pick(candidates)
            guard let next = schema.entity(named: relationship.destination) else { break }
            path += (path.isEmpty || path.hasSuffix(".") ? "" : (chance(40) ? "?." : ".")) + relationship.name
            current = next
        }
        return (path, current)
    }

    private static func join(_ path: String, _ name: String) -> String {
        path.isEmpty || path.hasSuffix(".") ? path + name : path + "." + name
    }

    private mutating func atom(_ entity: Entity, prefix: String, depth: Int) -> String {
        let toMany = relationships(of: entity, toMany: true)
        if !toMany.isEmpty, depth < 3, chance(35) {
            return collectionTest(entity, prefix: prefix, depth: depth)
        }
        let (path, reached) = toOnePath(from: entity, prefix: prefix)
        if path != prefix, chance(10) {
            return path + pick([" == nil", " != nil"])
        }
        if chance(6) { return objectTest(path) }
        let candidates = attributes(of: reached)
        guard !candidates.isEmpty else { return pick(["true", "false"]) }
        let numbers = candidates.filter { $0.type == .integer(bits: 64) || $0.type == .double }
        if !numbers.isEmpty, chance(8) {
            // Two attributes in one computation (`limit - spent > 100`), Int and Double mixed.
            let (a, b) = (pick(numbers), pick(numbers))
            let literal = a.type == .double || b.type == .double ? doubleLiteral() : String(pick(ValuePools.integers))
            let op = pick(a.type == .double || b.type == .double ? ["+", "-", "*", "/"] : ["+", "-", "*", "/", "%"])
            return
                "\(Self.join(path, a.name)) \(op) \(Self.join(path, b.name)) \(pick(["==", "<", ">=", "!="])) \(literal)"
        }
        let attribute = pick(candidates)
        if chance(7), let chain = equalityChain(Self.join(path, attribute.name), attribute, entity, prefix, depth) {
            return chain
        }
        return attributeTest(Self.join(path, attribute.name), attribute)
    }

    /// `(x == a || b == x || x == $p || other test || …)`: equalities of one path in
    /// either order, with literals and parameters (nil some of the time), a nil test,
    /// and now and then another test among them; nil for types with no such chain.
    private mutating func equalityChain(
        _ path: String, _ attribute: Attribute, _ entity: Entity, _ prefix: String, _ depth: Int
    ) -> String? {
        let enumType: EnumType?
        switch attribute.type {
        case .string, .integer, .uuid: enumType = nil
        case .named(let name):
            guard let found = schema.enumType(named: name) else { return nil }
            enumType = found
        default: return nil
        }
        func literal(_ generator: inout RandomQueryGenerator) -> (text: String, value: Value) {
            if let enumType {
                let enumCase = generator.pick(enumType.cases)
                let (raw, value): (String, Value) =
                    switch enumCase.rawValue {
                    case .int(let raw): (String(raw), .int(raw))
                    case .string(let raw): (Printer.quoted(raw), .string(raw))
                    }
                return (generator.chance(70) ? ".\(enumCase.name)" : raw, value)
            }
            switch attribute.type {
            case .integer:
                let value = generator.pick(ValuePools.integers)
                return (String(value), .int(value))
            case .uuid:
                let uuid = generator.pick(ValuePools.uuids)
                return ("'\(uuid.uuidString)'", .uuid(uuid))
            default:
                let text = generator.chance(15) ? generator.pick(ValuePools.hardStrings) : generator.pick(ValuePools.strings)
                return (Printer.quoted(text), .string(text))
            }
        }
        uses(.equalityChain)
        let parts = (0..<int(2...7)).map { _ -> String in
            let (text, value) = literal(&self)
            switch int(0...11) {
            case 0, 1: return "\(text) == \(path)"
            case 2: return "\(path) == \(parameter("c", .single(chance(15) ? .null : value)))"
            case 3: return "\(parameter("c", .single(chance(15) ? .null : value))) == \(path)"
            case 4 where attribute.isOptional || path != prefix + attribute.name: return "\(path) == nil"
            case 5 where depth < 3: return atom(entity, prefix: prefix, depth: depth + 1)
            default: return "\(path) \(chance(10) ? "=" : "==") \(text)"
            }
        }
        return "(" + parts.joined(separator: pick([" || ", " OR ", " or "])) + ")"
    }

    // MARK: - Attribute tests

    private mutating func attributeTest(_ path: String, _ attribute: Attribute) -> String {
        if attribute.isOptional, chance(12) { return path + pick([" == nil", " != nil", " == NULL"]) }
        switch attribute.type {
        case .bool:
            switch int(0...4) {
            case 0: return path
            case 1: return "!" + path
            case 2: return path + " == true"
            case 3: return path + pick([" != NO", " == 1", " != 0"])
            default: return path + " == " + parameter("flag", .single(.bool(chance(50))))
            }
        case .integer:
            return numericTest(path, literal: { generator in String(generator.pick(ValuePools.integers)) }, isInteger: true)
        case .double, .float, .decimal:
            return numericTest(path, literal: { generator in generator.doubleLiteral() }, isInteger: false)
        case .string, .url:
            return stringTest(path)
        case .date:
            return dateTest(path)
        case .uuid:
            let uuid = pick(ValuePools.uuids).uuidString
            return pick([
                "\(path) == '\(uuid)'", "\(path) != uuid('\(uuid.lowercased())')",
                "\(path) in ['\(uuid)', '\(pick(ValuePools.uuids).uuidString)']",
                "\(path) == \(parameter("id", .single(.uuid(pick(ValuePools.uuids)))))",
            ])
        case .data:
            let bytes = parameter("bytes", .single(.data(pick(ValuePools.data))))
            return path + pick([" == nil", " != nil", " == \(bytes)", " != \(bytes)"])
        case .transformable:
            return path + pick([" == nil", " != nil"])
        case .named(let name):
            guard let enumType = schema.enumType(named: name) else { return path + pick([" == nil", " != nil"]) }
            return enumTest(path, enumType)
        }
    }

    private mutating func doubleLiteral() -> String {
        chance(30) ? String(pick(ValuePools.integers.filter { $0.magnitude < 1_000_000 })) : String(pick(ValuePools.doubles))
    }

    private mutating func numericTest(_ path: String, literal: (inout RandomQueryGenerator) -> String, isInteger: Bool) -> String
    {
        let op = pick(["==", "!=", "<", "<=", ">", ">=", "=", "<>"])
        switch int(0...9) {
        case 0: return "\(path) in [\(literal(&self)), \(literal(&self)), \(literal(&self))]"
        case 1: return "\(path) in \(literal(&self))...\(literal(&self))"
        case 2: return "\(path) between \(literal(&self)) and \(literal(&self))"
        case 3: return "\(path) in \(literal(&self))..<\(literal(&self))"
        case 4:
            let arithmetic = pick(isInteger ? ["+", "-", "*", "/", "%", "&", "|", "^"] : ["+", "-", "*", "/"])
            if isInteger, chance(15) { return "~\(path) \(op) \(literal(&self))" }
            if isInteger, chance(20), arithmetic != "%", !"&|^".contains(arithmetic) {
                // An Int in Double arithmetic.
                return "\(path) \(arithmetic) \(String(pick(ValuePools.doubles))) \(op) \(doubleLiteral())"
            }
            return "\(path) \(arithmetic) \(literal(&self)) \(op) \(literal(&self))"
        case 5:
            if chance(50) { return "-\(path) \(op) \(literal(&self))" }
            // `??` mixing an Int and a Double.
            if isInteger, chance(30) { return "\(path) ?? \(String(pick(ValuePools.doubles))) \(op) \(doubleLiteral())" }
            return "\(path) ?? \(literal(&self)) \(op) \(literal(&self))"
        case 6:
            let value: Value = isInteger ? .int(pick(ValuePools.integers)) : .double(pick(ValuePools.doubles))
            return "\(path) \(op) \(parameter("n", .single(value)))"
        case 7 where chance(50):
            // Around 2^53 an Int and a Double compare exactly: no widening.
            uses(.bigIntAgainstDouble)
            let big = pick(ValuePools.integersNear2To53)
            return isInteger
                ? "\(path) \(op) \(pick(ValuePools.doublesNear2To53))"
                : "\(path) \(op) \(big)"
        default: return "\(path) \(op) \(literal(&self))"
        }
    }

    private mutating func stringLiteral() -> String {
        let base = chance(15) ? pick(ValuePools.hardStrings) : pick(ValuePools.strings)
        if base.isEmpty { uses(.emptyString) }
        if ValuePools.hardStrings.contains(where: { $0.unicodeScalars.elementsEqual(base.unicodeScalars) }) {
            uses(.hardString)
        }
        // Substrings of pool strings make contains/beginswith/endswith match sometimes.
        if chance(30), base.unicodeScalars.count > 1 {
            let scalars = Array(base.unicodeScalars)
            let start = int(0...(scalars.count - 1))
            let end = int(start...(scalars.count - 1))
            var view = String.UnicodeScalarView()
            view.append(contentsOf: scalars[start...end])
            return Printer.quoted(String(view))
        }
        return Printer.quoted(base)
    }

    private mutating func stringTest(_ path: String) -> String {
        let modifier = pick(["", "", "", "[c]", "[d]", "[cd]", "[n]", "[cdn]"])
        if !modifier.isEmpty { uses(.stringModifier) }
        switch int(0...15) {
        case 0, 1: return "\(path) \(pick(["==", "!=", "<", ">=", "<=", ">"]))\(modifier) \(stringLiteral())"
        case 2:
            return chance(70)
                ? "\(path) contains\(modifier) \(stringLiteral())"
                : "\(path) ?? \(stringLiteral()) ==\(modifier) \(stringLiteral())"
        case 3: return "\(path) beginswith\(modifier) \(stringLiteral())"
        case 4: return "\(path) endswith\(modifier) \(stringLiteral())"
        case 5: return "\(path).\(pick(["hasPrefix", "hasSuffix", "contains", "localizedStandardContains"]))(\(stringLiteral()))"
        case 6:
            let pattern = pick([
                "*", "?", "a*", "*a*", "V*", "*n", "?a*", "*é*", "*\\**", "*%*", "_*", "??", "*ß*", "S?", "a\\?b",
                "*ss*", "*SS", "?\u{301}*", "e\u{301}*", "*İ*", "*σ", "*ς", "*한*", "\u{1112}*", "ﬁ*", "*\\\\*",
                "%", "_", "*ǰ", "?", "*\u{308}*", "ΐ*",
            ])
            return "\(path) like\(modifier) \(Printer.quoted(pattern))"
        case 7:
            let regex = pick([
                ".*", "a.*", "[A-Z].*", "(?i)vac.*", ".", ".*é.*", "\\w+", "[a-z]+", "ß|SS", ".*\\d.*", "", "strasse",
                "nai.*", "e\u{301}", "[^a]*", "a|b.*", "(ab)+.*", "x{2,3}", ".*ς", "[é-ï].*", "日本.*", "\\Q*\\E.*",
                "(?:Vac|Ren).*?", ".*[%_].*", "[a-z]*[0-9]+", ".{1,4}", "\\.*", "(?=a).*", "\\bV.*", "\\p{L}+",
            ])
            if regex.isEmpty { uses(.emptyRegex) }
            return "\(path) matches\(pick(["", "[c]", "[d]", "[cd]"])) \(Printer.quoted(regex))"
        case 8: return "\(path) in [\(stringLiteral()), \(stringLiteral())]"
        case 9: return pick(["\(path).isEmpty", "!\(path).isEmpty"])
        case 10:
            let names = parameter("names", .list((0..<int(0...3)).map { _ in .string(pick(ValuePools.strings)) }))
            return chance(50) ? "\(path) in \(names)" : "\(names).contains(\(path))"
        case 11: return "\(path) beginswith \(parameter("prefix", .single(.string(pick(ValuePools.strings)))))"
        case 12: return "\(path) between \(stringLiteral()) and \(stringLiteral())"
        case 13 where closureDepth == 0 && chance(30):
            // (Inside a quantifier the same path twice would be ambiguous.)
            uses(.sameOperandTwice)
            return "\(path) \(pick(["==", "!=", "<=", "contains", "beginswith", "like"]))\(modifier) \(path)"
        case 14:
            // A needle given as a parameter, as a search box gives it.
            let op = pick(["contains", "beginswith", "endswith", "==", "!="])
            let value: Value = chance(5) ? .null : .string(pick(chance(30) ? ValuePools.hardStrings : ValuePools.strings))
            return "\(path) \(op)\(modifier) \(parameter("q", .single(value)))"
        case 15:
            let pattern = pick(["*a*", "V*", "?", "*ß*", "*é", "*\\?*", "%", "*\\"])
            return chance(70)
                ? "\(path) like\(modifier) \(parameter("p", .single(.string(pattern))))"
                : "\(path) matches \(parameter("r", .single(.string(pick([".*a.*", "V.*", "[a-z]+", "\\w+", "(?i)v.*"])))))"
        default: return "\(path) ==\(modifier) \(parameter("s", .single(chance(10) ? .null : .string(pick(ValuePools.strings)))))"
        }
    }

    private mutating func dateLiteral() -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return "date('\(formatter.string(from: pick(ValuePools.dates)))')"
    }

    /// A duration at a rounding edge of pq's Double seconds (a microsecond, less than one) or an ordinary one.
    private mutating func durationLiteral() -> String {
        pick(["0.000001s", "0.0000005s", "1e-7s", "0.1s", "1s", "1h", "7d", "-1s", "1e300s"])
    }

    private mutating func dateTest(_ path: String) -> String {
        let op = pick(["==", "!=", "<", "<=", ">", ">="])
        switch int(0...9) {
        case 6: return "\(path) + \(durationLiteral()) \(op) \(dateLiteral())"
        case 7: return "\(path) \(pick(["+", "-"])) \(durationLiteral()) \(op) \(dateLiteral())"
        case 8:
            return "\(path) + \(durationLiteral()) - \(durationLiteral()) \(op) \(parameter("since", .single(.date(pick(ValuePools.dates)))))"
        case 9: return "now() - \(durationLiteral()) \(op) \(path) + \(durationLiteral())"
        case 0: return "\(path) \(op) now() - \(int(0...400))d"
        case 1: return "\(path) \(op) today()"
        case 2: return "\(path) in \(dateLiteral())...\(dateLiteral())"
        case 3: return "\(path) + \(int(1...100))d \(op) \(dateLiteral())"
        case 4: return "\(path) \(op) \(parameter("since", .single(.date(pick(ValuePools.dates)))))"
        default: return "\(path) \(op) \(dateLiteral())"
        }
    }

    private mutating func enumTest(_ path: String, _ enumType: EnumType) -> String {
        let first = pick(enumType.cases)
        let second = pick(enumType.cases)
        let raw: (EnumType.Case) -> String = { enumCase in
            switch enumCase.rawValue {
            case .int(let value): String(value)
            case .string(let value): Printer.quoted(value)
            }
        }
        let rawValue: Value =
            switch first.rawValue {
            case .int(let value): .int(value)
            case .string(let value): .string(value)
            }
        if chance(20) {
            uses(.enumCoalesce)
            return pick([
                "\(path) ?? .\(second.name) == \(raw(first))", "\(path) ?? .\(second.name) == .\(first.name)",
                "\(raw(first)) != \(path) ?? .\(second.name)", "\(path) ?? .\(second.name) in [\(raw(first)), .\(second.name)]",
            ])
        }
        return pick([
            "\(path) == .\(first.name)", "\(path) != .\(first.name)", "\(path) in [.\(first.name), .\(second.name)]",
            "\(path) == \(raw(first))", "\(path) IN {\(raw(first)), \(raw(second))}",
            "\(path) == \(enumType.name).\(first.name)", "\(path) == \(parameter("e", .single(rawValue)))",
            "\(path).rawValue \(pick(["==", "!=", ">", "<="])) \(raw(first))",
        ])
    }

    /// An object compared by identity with parameters bound to store keys (some of
    /// them keys no object has).
    private mutating func objectTest(_ path: String) -> String {
        uses(.objectComparison)
        let key = { (generator: inout RandomQueryGenerator) in Value.int(Int64(generator.int(1...14))) }
        let single = parameter("o", .single(key(&self)))
        let list = parameter("os", .list((0..<int(0...3)).map { _ in key(&self) }))
        // The query's object, a closure's element (`v1.`, or SUBQUERY's `$v1.`), or a to-one path.
        let base = path.hasSuffix(".") ? String(path.dropLast()) : path
        let identity =
            base.isEmpty
            ? pick(["SELF", "persistentModelID"])
            : base.hasPrefix("$") || chance(50) ? base + ".persistentModelID" : base
        return pick([
            "\(identity) == \(single)", "\(identity) != \(single)", "\(identity) in \(list)",
            "\(list).contains(\(identity))", "\(single) == \(identity)",
        ])
    }

    /// A fresh parameter name bound to `value`.
    private mutating func parameter(_ stem: String, _ value: ParameterValue) -> String {
        let name = "\(stem)\(parameters.count)"
        parameters[name] = value
        return "$" + name
    }

    // MARK: - To-many relationships

    private mutating func collectionTest(_ entity: Entity, prefix: String, depth: Int) -> String {
        let (ownerPath, owner) = toOnePath(from: entity, prefix: prefix)
        let candidates = relationships(of: owner, toMany: true)
        guard !candidates.isEmpty else { return atom(entity, prefix: prefix, depth: depth + 1) }
        let relationship = pick(candidates)
        guard let element = schema.entity(named: relationship.destination) else { return "true" }
        let collection = Self.join(ownerPath, relationship.name)
        closureDepth += 1
        defer { closureDepth -= 1 }
        let variable = "v\(closureDepth)"
        let elementAttributes = attributes(of: element)
        if ownerPath != prefix { uses(.collectionThroughToOne) }
        if chance(6) {
            uses(.objectComparison)
            let element = parameter("t", .single(.int(Int64(int(1...14)))))
            return pick(["any \(collection) == \(element)", "\(element) in \(collection)", "none \(collection) == \(element)"])
        }
        if chance(12) {
            // A body that does not depend on the element: `all` of it over no elements,
            // and through a nil to-one, is where SQL and the reference once parted.
            uses(.constantClosureBody)
            let body = pick(["true", "false", "TRUEPREDICATE", "FALSEPREDICATE", "1 == 1", "!true"])
            return pick([
                "\(collection).allSatisfy { \(variable) in \(body) }", "\(collection).contains { \(variable) in \(body) }",
                "!\(collection).allSatisfy { \(variable) in \(body) }",
                "\(collection).filter { \(variable) in \(body) }.count \(pick([">", "==", "<"])) \(int(0...3))",
                "SUBQUERY(\(collection), $\(variable), \(body)).@count > 0",
            ])
        }
        // Through a to-one, `isEmpty` (the independent reference's last disagreement,
        // issue 27) is chosen more often than its one case in ten would give.
        switch ownerPath != prefix && chance(25) ? 4 : int(0...9) {
        case 0:
            let attribute = pick(elementAttributes)
            let path = Self.join(collection, attribute.name)
            let test = attributeTest(path, attribute)
            // A quantifier takes a comparison that starts with its path, or a parenthesised condition.
            if chance(10), case .string = attribute.type {
                // NSPredicate's implicit ANY: a value in the values a to-many path reaches.
                return "\(stringLiteral()) in \(path)"
            }
            return pick(["any ", "ANY ", "all ", "none ", "some "]) + (test.hasPrefix(path) ? test : "(" + test + ")")
        case 1: return "\(collection).contains { \(variable) in \(predicate(element, prefix: variable + ".", depth: depth + 1)) }"
        case 2:
            return "\(collection).allSatisfy { \(variable) in \(predicate(element, prefix: variable + ".", depth: depth + 1)) }"
        case 3: return "\(collection)\(pick([".count", ".@count"])) \(pick(["==", "!=", "<", ">", ">="])) \(int(0...5))"
        case 4:
            if ownerPath != prefix { uses(.isEmptyThroughToOne) }
            let tested =
                chance(60)
                ? collection
                : "\(collection).filter { \(variable) in \(predicate(element, prefix: variable + ".", depth: depth + 1)) }"
            return pick(["\(tested).isEmpty", "!\(tested).isEmpty"])
        case 5:
            return
                "\(collection).filter { \(variable) in \(predicate(element, prefix: variable + ".", depth: depth + 1)) }.count \(pick([">", "==", "<"])) \(int(0...3))"
        case 6:
            return
                "SUBQUERY(\(collection), $\(variable), \(predicate(element, prefix: "$" + variable + ".", depth: depth + 1))).@count > 0"
        default:
            return aggregateTest(collection, element)
        }
    }

    private mutating func aggregateTest(_ collection: String, _ element: Entity) -> String {
        let numeric = attributes(of: element).filter {
            switch $0.type {
            case .integer, .double, .float: true
            default: false
            }
        }
        let ordered = attributes(of: element).filter {
            switch $0.type {
            case .integer, .double, .float, .date, .string: true
            default: false
            }
        }
        let op = pick(["<", "<=", ">", ">=", "==", "!="])
        if !numeric.isEmpty, chance(60) {
            let attribute = pick(numeric)
            let literal =
                attribute.type == .integer(bits: 64)
                ? String(pick(ValuePools.integers.filter { $0.magnitude < 1_000_000 })) : doubleLiteral()
            return "\(collection).@\(pick(["sum", "avg", "min", "max"])).\(attribute.name) \(op) \(literal)"
        }
        guard !ordered.isEmpty else { return "\(collection).count > 0" }
        let attribute = pick(ordered)
        let literal: String
        switch attribute.type {
        case .date: literal = dateLiteral()
        case .string: literal = stringLiteral()
        case .integer: literal = String(pick(ValuePools.integers))
        default: literal = doubleLiteral()
        }
        return "\(collection).@\(pick(["min", "max"])).\(attribute.name) \(op) \(literal)"
    }

    // MARK: - Sorting

    private mutating func sortKey(_ entity: Entity) -> String? {
        let (path, reached) = toOnePath(from: entity, prefix: "")
        let sortable = attributes(of: reached).filter {
            switch $0.type {
            case .data, .transformable: false
            case .named(let name): schema.enumType(named: name) != nil
            default: true
            }
        }
        guard !sortable.isEmpty else { return nil }
        let attribute = pick(sortable)
        let modifier = attribute.type == .string && chance(30) ? pick(["[c]", "[d]", "[cd]"]) : ""
        return Self.join(path, attribute.name) + modifier + pick(["", " asc", " desc", " DESC"])
    }
}
