// Relationships between entities: to-one, to-many and, when both sides are
// to-many, many-to-many.

/// A reference from one entity to one or many objects of another.
public struct Relationship: Sendable, Hashable {
    /// The name, as in the model: `transactions`.
    public var name: String
    /// The entity at the other end.
    public var destination: String
    /// An array of models rather than a single one.
    public var isToMany: Bool
    /// Declared optional (`Budget?`, `[Tag]?`).
    public var isOptional: Bool
    /// The relationship on the destination that points back, if known.
    public var inverse: String?
    /// What deleting the source does to the destination.
    public var deleteRule: DeleteRule
    /// `@Attribute(originalName:)`-style renaming for relationships.
    public var originalName: String?
    /// An ordered to-many relationship (Core Data's `NSOrderedSet`): the store keeps
    /// each element's position beside its key (`Z_FOK_…`).
    public var isOrdered: Bool = false

    /// The delete rules of SwiftData and Core Data.
    public enum DeleteRule: String, Sendable, Hashable, Codable, CaseIterable {
        /// What deleting an object does to the objects it points to: `nullify` clears
        /// their inverse, `cascade` deletes them, `deny` refuses while any remain,
        /// `noAction` leaves them as they are.
        case nullify, cascade, deny, noAction
    }

    /// A to-one relationship; optional unless said otherwise, as SwiftData requires.
    public init(
        _ name: String, to destination: String, optional: Bool = true, inverse: String? = nil,
        deleteRule: DeleteRule = .nullify, originalName: String? = nil
    ) {
        self.name = name
        self.destination = destination
        self.isToMany = false
        self.isOptional = optional
        self.inverse = inverse
        self.deleteRule = deleteRule
        self.originalName = originalName
    }

    /// A to-many relationship (an array of models).
    public init(
        _ name: String, toMany destination: String, optional: Bool = false, inverse: String? = nil,
        deleteRule: DeleteRule = .nullify, originalName: String? = nil
    ) {
        self.name = name
        self.destination = destination
        self.isToMany = true
        self.isOptional = optional
        self.inverse = inverse
        self.deleteRule = deleteRule
        self.originalName = originalName
    }

    /// The name the store uses: the original name if it was renamed.
    public var storedName: String { originalName ?? name }
}
