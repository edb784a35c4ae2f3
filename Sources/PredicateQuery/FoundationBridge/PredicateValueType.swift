// What the export asks of a Swift value type — is it an optional, of what, can it
// be compared, ordered, counted in, is it a model class — found once per type on
// each thread and kept.
//
// Each of those questions is a protocol-conformance lookup in Swift's runtime
// (`type as? any PredicateOptional.Type`), a few hundred instructions each, and a
// conversion asked the same few types the same questions many times over: about a
// tenth of building a predicate with a closure went to them. A type's answers never
// change, so they are looked up once and then read from a table.

import Foundation

/// The answers about one value type, found once (`PredicateValueType.of(_:)`).
struct PredicateValueType: @unchecked Sendable {
    // Unchecked: metatypes and their conformances are immutable.

    /// The type as an `Optional`, when it is one.
    let optional: (any PredicateOptional.Type)?
    /// The type as an `Optional` of an `Equatable` type, when it is one (`x == nil` is then an `Equal` node).
    let equatableOptional: (any PredicateEquatableOptional.Type)?
    /// The type once unwrapped: `Int` for `Int?` and for `Int`.
    let unwrapped: Any.Type
    /// The unwrapped type as a value a predicate compares, when it is one.
    let scalar: (any PredicateScalar.Type)?
    /// The unwrapped type as a value with an order, when it has one.
    let ordered: (any PredicateOrdered.Type)?
    /// The unwrapped type as an integer, when it is one.
    let integer: (any PredicateInteger.Type)?
    /// The unwrapped type as a number whose arithmetic is pq's (Int, Double).
    let wideNumber: (any PredicateWideNumber.Type)?
    /// Whether the unwrapped type is a model class.
    let isModel: Bool

    private init(_ type: Any.Type) {
        optional = type as? any PredicateOptional.Type
        equatableOptional = type as? any PredicateEquatableOptional.Type
        unwrapped = optional?.wrappedType ?? type
        scalar = unwrapped as? any PredicateScalar.Type
        ordered = unwrapped as? any PredicateOrdered.Type
        integer = unwrapped as? any PredicateInteger.Type
        wideNumber = unwrapped as? any PredicateWideNumber.Type
        isModel = unwrapped is any QueryModel.Type
    }

    /// The answers for `type`, from this thread's table, or found and added to it.
    static func of(_ type: Any.Type) -> PredicateValueType {
        Table.current.answers(for: type)
    }

    /// The answers found on one thread, for the types asked about there: a thread's own, so that
    /// reading it takes no lock (a lock and a dictionary cost as much as the lookups they spare). A
    /// program asks about its models' property types, their optionals and arrays: a few dozen.
    private final class Table {
        // Only this table's thread reaches it, so Swift's run-time check that no two
        // accesses overlap (two calls into its runtime per read, about 2 % of building
        // a predicate) is left out.
        @exclusivity(unchecked) private var types: [ObjectIdentifier] = []
        @exclusivity(unchecked) private var answers: [PredicateValueType] = []

        /// The most types kept; past that the table starts again.
        private static let capacity = 64

        func answers(for type: Any.Type) -> PredicateValueType {
            let key = ObjectIdentifier(type)
            if let index = types.firstIndex(of: key) { return answers[index] }
            if types.count >= Self.capacity {
                types.removeAll(keepingCapacity: true)
                answers.removeAll(keepingCapacity: true)
            }
            let found = PredicateValueType(type)
            types.append(key)
            answers.append(found)
            return found
        }

        /// This thread's table, made on its first use and released when the thread ends.
        static var current: Table {
            if let pointer = pthread_getspecific(key) {
                return Unmanaged<Table>.fromOpaque(pointer).takeUnretainedValue()
            }
            let table = Table()
            pthread_setspecific(key, Unmanaged.passRetained(table).toOpaque())
            return table
        }

        private static let key: pthread_key_t = {
            var key = pthread_key_t()
            pthread_key_create(&key) { pointer in
                // Optional on Linux, not on Apple platforms: written to build on both.
                guard let pointer = pointer as UnsafeMutableRawPointer? else { return }
                Unmanaged<Table>.fromOpaque(pointer).release()
            }
            return key
        }()
    }
}
