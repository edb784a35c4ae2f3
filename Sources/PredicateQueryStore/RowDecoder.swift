// Reading a compiled query's result columns into `Row`s, the same way for every
// store: each store hands over its columns' stored values (SQLite's
// `SQLiteStatement.column`, PostgreSQL's decoded text), and the decoder turns them
// into keys and attribute values.

import PredicateQuery

extension StoreMapping {
    /// The entity each number names, for telling which entity a row of `entity`
    /// belongs to; nil when `entity`'s table holds no other entity, so every row
    /// is of `entity` itself and the number need not be read.
    package func entitiesByNumber(forRowsOf entity: String) -> [Int64: String]? {
        guard self.entity(entity)?.entityNumbers != nil else { return nil }
        var names: [Int64: String] = [:]
        for (name, number) in entityNumbers { names[Int64(number)] = name }
        return names
    }
}

/// How to read each result column of a compiled query into a `Row`, worked out once per query.
/// (Every store reads its columns into the same stored forms: SQLite's statement
/// columns, PostgreSQL's text results.)
package final class RowDecoder: Sendable {
    private enum Step: Sendable {
        case primaryKey
        case entityNumber
        case skip
        case attribute(slot: Int, type: AttributeType)
        case toOne(slot: Int)
        case label(slot: Int)
        case count(slot: Int)
    }

    private let steps: [Step]
    private let entity: String
    private let entitiesByNumber: [Int64: String]?
    private let dates: DateEncoding
    private let values, toOne, labels, counts: RowFieldNames

    package init(_ query: CompiledQuery, mapping: StoreMapping) {
        entity = query.query.entity.name
        entitiesByNumber = mapping.entitiesByNumber(forRowsOf: entity)
        var steps: [Step] = []
        var values: [String] = [], toOne: [String] = [], labels: [String] = [], counts: [String] = []
        for column in query.columns {
            switch column {
            case .primaryKey: steps.append(.primaryKey)
            case .entityNumber: steps.append(entitiesByNumber == nil ? .skip : .entityNumber)
            case .attribute(let attribute):
                steps.append(.attribute(slot: values.count, type: attribute.type))
                values.append(attribute.name)
            case .toOne(let relationship):
                steps.append(.toOne(slot: toOne.count))
                toOne.append(relationship.name)
            case .toOneLabel(let relationship):
                steps.append(.label(slot: labels.count))
                labels.append(relationship.name)
            case .toManyCount(let relationship):
                steps.append(.count(slot: counts.count))
                counts.append(relationship.name)
            case .displayPath(let path):
                steps.append(.attribute(slot: values.count, type: path.attribute.type))
                values.append(path.dottedName)
            }
        }
        self.steps = steps
        dates = mapping.dateEncoding
        self.values = RowFieldNames(values)
        self.toOne = RowFieldNames(toOne)
        self.labels = RowFieldNames(labels)
        self.counts = RowFieldNames(counts)
    }

    /// A row from its columns' stored values, read by index.
    package func decode(column: (Int32) -> Value) -> Row {
        var key: Int64 = 0
        var keyText: String?
        var entity = self.entity
        var values = [Value?](repeating: nil, count: self.values.count)
        var toOne = [Int64?](repeating: nil, count: self.toOne.count)
        var toOneText: [String?]?
        var labels = [Value?](repeating: nil, count: self.labels.count)
        var counts = [Int64?](repeating: nil, count: self.counts.count)
        for (index, step) in steps.enumerated() {
            if case .skip = step { continue }
            let stored = column(Int32(index))
            switch step {
            case .skip: break
            case .primaryKey:
                switch stored {
                case .int(let value): key = value
                case .string(let text): keyText = text
                default: break
                }
            case .entityNumber:
                if case .int(let number) = stored, let name = entitiesByNumber?[number] { entity = name }
            case .attribute(let slot, let type):
                let value = StoreValueEncoding.decode(stored, as: type, dates: dates)
                if !value.isNull { values[slot] = value }
            case .toOne(let slot):
                switch stored {
                case .int(let target): toOne[slot] = target
                case .string(let text):
                    if toOneText == nil { toOneText = [String?](repeating: nil, count: self.toOne.count) }
                    toOneText?[slot] = text
                default: break
                }
            case .label(let slot):
                if !stored.isNull { labels[slot] = stored }
            case .count(let slot):
                if case .int(let count) = stored { counts[slot] = count }
            }
        }
        return Row(
            id: ObjectID(entity, key), values: RowFields(names: self.values, slots: values),
            toOne: RowFields(names: self.toOne, slots: toOne), labels: RowFields(names: self.labels, slots: labels),
            counts: RowFields(names: self.counts, slots: counts), keyText: keyText,
            toOneKeyText: toOneText.map { RowFields(names: self.toOne, slots: $0) })
    }
}
