// How a converted predicate reads each declared property of a `QueryModel`.
//
// A `QueryProperty` is declared with a typed key path (`.attribute(\.name)`);
// the declaration keeps, beside the schema's attribute, closures made while the
// property's Swift type is still known. They build the property's `KeyPath`
// node, one step at a time as `#Predicate` does, so that no value type has to be
// recovered at run time.

import Foundation

/// A key path to a stored property, as Foundation's nodes and sort descriptors take it.
///
/// Key paths to stored properties are immutable values, safe to share; the
/// standard library does not declare `KeyPath` `Sendable`, so this says it for them.
func sendableKeyPath<Root, Member>(_ keyPath: KeyPath<Root, Member>) -> any KeyPath<Root, Member> & Sendable {
    unsafeBitCast(keyPath, to: (any KeyPath<Root, Member> & Sendable).self)
}

/// How Foundation's predicate nodes read one property of a model type.
struct PredicatePropertyAccess: @unchecked Sendable {
    /// The property read from a term whose value is the model object (not optional).
    /// Enum attributes read their raw value, as pq compares them.
    let read: (PredicateTerm) throws -> PredicateTerm
    /// For a to-many relationship: operations on its elements.
    let elements: PredicateElementAccess?
    /// For an attribute: a `SortDescriptor` of the model type (as `Any`), ascending or
    /// not; nil when Swift has no order for the property's type.
    let sortDescriptor: ((_ ascending: Bool) -> Any?)?
    /// The model type at the other end of a relationship.
    let destination: (any QueryModel.Type)?
    /// The property read from a term whose value is an optional model object
    /// (`owner.flatMap { $0.member }`, flattened for an optional member), built in one
    /// go; nil where `read` must go through `PredicateNodes.flatMap` (an enum, read by
    /// raw value).
    var readFromOptional: ((PredicateTerm) throws -> PredicateTerm)? = nil

    /// A stored attribute of type `Member` (optional or not; an enum reads its raw value).
    static func attribute<Model, Member>(_ keyPath: KeyPath<Model, Member>) -> PredicatePropertyAccess {
        let sendable = sendableKeyPath(keyPath)
        // Whether the member is an enum is known now, and its `rawValue` key path made once.
        let rawValue = PredicateEnumAccess.rawValueReader(of: Member.self)
        return PredicatePropertyAccess(
            read: { object in
                let member = try PredicateNodes.keyPath(object, sendable)
                guard let rawValue else { return member }
                return try rawValue(member)
            },
            elements: nil,
            sortDescriptor: { ascending in PredicateSortAccess.descriptor(keyPath, ascending: ascending) },
            destination: nil,
            readFromOptional: rawValue == nil ? PredicateNodes.memberOfOptional(sendable) : nil)
    }

    /// A to-one relationship to `Destination` (optional or not).
    static func toOne<Model, Member>(_ keyPath: KeyPath<Model, Member>, to destination: any QueryModel.Type)
        -> PredicatePropertyAccess
    {
        let sendable = sendableKeyPath(keyPath)
        return PredicatePropertyAccess(
            read: { object in try PredicateNodes.keyPath(object, sendable) }, elements: nil, sortDescriptor: nil,
            destination: destination, readFromOptional: PredicateNodes.memberOfOptional(sendable))
    }

    /// A to-many relationship to `Element`s (an optional array or not).
    static func toMany<Model, Member, Element: QueryModel>(_ keyPath: KeyPath<Model, Member>, elements _: Element.Type)
        -> PredicatePropertyAccess
    {
        let sendable = sendableKeyPath(keyPath)
        return PredicatePropertyAccess(
            read: { object in try PredicateNodes.keyPath(object, sendable) },
            elements: PredicateElementAccess(Element.self), sortDescriptor: nil, destination: Element.self)
    }
}

/// What a converted predicate does with the elements of a to-many relationship.
struct PredicateElementAccess: @unchecked Sendable {
    let containsWhere: (PredicateTerm, (PredicateTerm) throws -> PredicateTerm) throws -> PredicateTerm
    let allSatisfy: (PredicateTerm, (PredicateTerm) throws -> PredicateTerm) throws -> PredicateTerm
    let filter: (PredicateTerm, (PredicateTerm) throws -> PredicateTerm) throws -> PredicateTerm
    /// `array.count`.
    let count: (PredicateTerm) throws -> PredicateTerm
    /// `array.isEmpty`.
    let isEmpty: (PredicateTerm) throws -> PredicateTerm

    init<Element>(_: Element.Type) {
        containsWhere = { sequence, body in try PredicateNodes.sequenceClosure(.containsWhere, sequence, Element.self, body: body) }
        allSatisfy = { sequence, body in try PredicateNodes.sequenceClosure(.allSatisfy, sequence, Element.self, body: body) }
        filter = { sequence, body in try PredicateNodes.sequenceClosure(.filter, sequence, Element.self, body: body) }
        let countPath = sendableKeyPath(\[Element].count)
        count = { array in try PredicateNodes.keyPath(array, countPath) }
        let isEmptyPath = sendableKeyPath(\[Element].isEmpty)
        isEmpty = { array in try PredicateNodes.keyPath(array, isEmptyPath) }
    }
}

/// Enums stored by raw value: a predicate compares `genre.rawValue`, as pq does.
enum PredicateEnumAccess {}

extension PredicateEnumAccess {
    /// How a member of type `member` is read: `member.rawValue` when it is an enum
    /// (`member?.rawValue` when an optional one), made once; nil when it is neither
    /// (the member itself is read).
    static func rawValueReader(of member: Any.Type) -> ((PredicateTerm) throws -> PredicateTerm)? {
        if let enumType = member as? any QueryEnum.Type {
            return enumType.rawValueReader()
        }
        if let optional = member as? any PredicateOptional.Type, let enumType = optional.wrappedType as? any QueryEnum.Type {
            return enumType.rawValueOfOptionalReader()
        }
        return nil
    }
}

extension QueryEnum {
    /// `member.rawValue`, with its key path made once (a key path into a generic
    /// type is made at run time, each time its literal is evaluated).
    static func rawValueReader() -> (PredicateTerm) throws -> PredicateTerm {
        let rawValue = sendableKeyPath(\Self.rawValue)
        return { member in try PredicateNodes.keyPath(member, rawValue) }
    }

    /// `member?.rawValue` for a member of type `Self?`: the node `flatMap` builds,
    /// built in one go, since the body's node type (a key path to the raw value, never
    /// optional) is known here and needs no dry run.
    static func rawValueOfOptionalReader() -> (PredicateTerm) throws -> PredicateTerm {
        PredicateNodes.plainMemberOfOptional(sendableKeyPath(\Self.rawValue))
    }

    /// The key path to the raw value of this enum, appended to one that reaches it.
    static func appendingRawValue<Root>(to keyPath: AnyKeyPath, root _: Root.Type) -> AnyKeyPath? {
        if let plain = keyPath as? KeyPath<Root, Self> { return plain.appending(path: \Self.rawValue) }
        if let optional = keyPath as? KeyPath<Root, Self?> { return optional.appending(path: \Self?.?.rawValue) }
        return nil
    }
}

/// Sort descriptors for attributes, by the Swift order of their values.
enum PredicateSortAccess {
    /// A `SortDescriptor<Model>` for `keyPath` (an enum sorts by its raw value), or
    /// nil when the value type has no order in Swift (Bool, UUID, Data, URL).
    static func descriptor<Model, Member>(_ keyPath: KeyPath<Model, Member>, ascending: Bool) -> Any? {
        var path: AnyKeyPath = keyPath
        var valueType: Any.Type = Member.self
        if let enumType = (Member.self as? any QueryEnum.Type) ?? (Member.self as? any PredicateOptional.Type)?.wrappedType
            as? any QueryEnum.Type
        {
            guard let raw = enumType.appendingRawValue(to: keyPath, root: Model.self) else { return nil }
            path = raw
            valueType = type(of: raw).valueType
        }
        let unwrapped = (valueType as? any PredicateOptional.Type)?.wrappedType ?? valueType
        guard let ordered = unwrapped as? any PredicateOrdered.Type else { return nil }
        return ordered.sortDescriptor(path, root: Model.self, ascending: ascending)
    }
}

extension PredicateOrdered {
    /// `SortDescriptor(keyPath, order:)` where the key path leads to this type or
    /// to an optional of it; nil first in the forward order, as in pq.
    static func sortDescriptor<Root>(_ keyPath: AnyKeyPath, root _: Root.Type, ascending: Bool) -> Any? {
        let order: SortOrder = ascending ? .forward : .reverse
        if let plain = keyPath as? KeyPath<Root, Self> {
            return SortDescriptor(sendableKeyPath(plain), order: order)
        }
        if let optional = keyPath as? KeyPath<Root, Self?> {
            return SortDescriptor(sendableKeyPath(optional), order: order)
        }
        return nil
    }
}
