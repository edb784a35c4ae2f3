// Objects as values in the typed builder: a store key typed by its model, so a
// predicate compares a to-one relationship, the object itself or its
// `persistentModelID` with a known object (`$0.budget == rent`), as SwiftData code
// does with `PersistentIdentifier`s. The key is bound as a parameter, never pasted.

/// The store key of an object of `Model` (its `Z_PK` in a Core Data store).
public struct ObjectKey<Model: QueryModel>: Hashable, Sendable, Codable, AnyObjectKey {
    /// The object's primary key in the store (`Z_PK` in the Core Data layout).
    public var key: Int64

    /// The key of the `Model` object whose primary key is `key`.
    public init(_ key: Int64) {
        self.key = key
    }

    /// The key as a bound parameter; the checker types it as an object of `Model`.
    var fragment: QueryFragment { QueryValues.bound(.int(key), kind: "object") }
}

/// An `ObjectKey` of any model, for the `#Predicate` bridge, which meets captured
/// values as `Any`.
protocol AnyObjectKey {
    var fragment: QueryFragment { get }
}

extension QueryModel {
    /// SwiftData's identity, for `#Predicate { $0.persistentModelID == id }` and key
    /// paths: pq reads only its name and compares the object by its store key. A model
    /// type describes an entity and holds no key, so the value here is key 0, which
    /// no stored object has.
    public var persistentModelID: ObjectKey<Self> { ObjectKey(0) }
}

extension ModelReference {
    /// SwiftData's identity, `$0.persistentModelID`: the object itself.
    public var persistentModelID: ModelReference { self }

    /// The object is the one with this key.
    public static func == (lhs: ModelReference, rhs: ObjectKey<Model>) -> QueryCondition {
        QueryCondition(.combining([lhs.fragment, rhs.fragment]) { .comparison(.equal, $0[0], $0[1], []) })
    }

    /// The object is not the one with this key.
    public static func != (lhs: ModelReference, rhs: ObjectKey<Model>) -> QueryCondition {
        QueryCondition(.combining([lhs.fragment, rhs.fragment]) { .comparison(.notEqual, $0[0], $0[1], []) })
    }

    /// The object is one of these (`ids.contains($0.persistentModelID)`).
    public func `in`(_ keys: [ObjectKey<Model>]) -> QueryCondition {
        let list = QueryFragment.combining(keys.map(\.fragment)) { .list($0) }
        return QueryCondition(.combining([fragment, list]) { .membership($0[0], $0[1]) })
    }
}

extension Optional {
    /// `$0.budget == rent` through an optional to-one: false when it is nil.
    public static func == <D: QueryModel>(lhs: Self, rhs: ObjectKey<D>) -> QueryCondition where Wrapped == ModelReference<D> {
        ModelReference<D>.unwrapping(lhs) == rhs
    }

    /// `$0.budget != rent`: true when it is nil or another object.
    public static func != <D: QueryModel>(lhs: Self, rhs: ObjectKey<D>) -> QueryCondition where Wrapped == ModelReference<D> {
        ModelReference<D>.unwrapping(lhs) != rhs
    }

    /// `$0.budget?.persistentModelID`: the optional to-one itself.
    public func `in`<D: QueryModel>(_ keys: [ObjectKey<D>]) -> QueryCondition where Wrapped == ModelReference<D> {
        ModelReference<D>.unwrapping(self).in(keys)
    }
}

extension Array {
    /// Swift's `ids.contains($0.persistentModelID)`: membership.
    public func contains<D: QueryModel>(_ reference: ModelReference<D>) -> QueryCondition where Element == ObjectKey<D> {
        reference.in(self)
    }

    /// The same through an optional to-one: false when it is nil.
    public func contains<D: QueryModel>(_ reference: ModelReference<D>?) -> QueryCondition where Element == ObjectKey<D> {
        ModelReference<D>.unwrapping(reference).in(self)
    }
}

extension ToManyReference {
    /// Whether this object is among the elements (`any tags == swift`).
    public func contains(_ key: ObjectKey<Element>) -> QueryCondition {
        contains { $0 == key }
    }
}
