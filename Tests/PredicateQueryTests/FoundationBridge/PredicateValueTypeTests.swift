// The table of what the export knows about a value type gives the answers Swift's
// runtime gives, for the first question and every later one, after the table has
// filled and started again, and on several threads at once.

import Foundation
import PredicateQueryExamples
import Testing

@testable import PredicateQuery

struct PredicateValueTypeTests {
    /// The runtime's own answers, asked directly, as the table's are written down.
    private struct Answers: Equatable {
        var optional: ObjectIdentifier?
        var unwrapped: ObjectIdentifier
        var scalar: Bool
        var ordered: Bool
        var integer: Bool
        var wideNumber: Bool
        var isModel: Bool

        init(of type: Any.Type) {
            let optional = type as? any PredicateOptional.Type
            let unwrapped = optional?.wrappedType ?? type
            self.optional = optional.map { ObjectIdentifier($0) }
            self.unwrapped = ObjectIdentifier(unwrapped)
            scalar = unwrapped is any PredicateScalar.Type
            ordered = unwrapped is any PredicateOrdered.Type
            integer = unwrapped is any PredicateInteger.Type
            wideNumber = unwrapped is any PredicateWideNumber.Type
            isModel = unwrapped is any QueryModel.Type
        }

        init(_ known: PredicateValueType) {
            optional = known.optional.map { ObjectIdentifier($0) }
            unwrapped = ObjectIdentifier(known.unwrapped)
            scalar = known.scalar != nil
            ordered = known.ordered != nil
            integer = known.integer != nil
            wideNumber = known.wideNumber != nil
            isModel = known.isModel
        }
    }

    private static let types: [Any.Type] = [
        Int.self, Int?.self, Int16.self, Double.self, Double?.self, Bool.self, String.self, String?.self,
        Date.self, UUID?.self, Data.self, [Transaction].self, [Transaction]?.self, Budget.self, Budget?.self,
        Genre.self, Genre?.self, Int??.self,
    ]

    @Test func theAnswersAreTheRuntimes() {
        for _ in 0..<2 {  // found, then read from the table
            for type in Self.types {
                #expect(Answers(PredicateValueType.of(type)) == Answers(of: type), "\(type)")
            }
        }
        // The answers that matter most, written out.
        let optionalInt = PredicateValueType.of(Int?.self)
        let double = PredicateValueType.of(Double.self)
        #expect(optionalInt.optional != nil)
        #expect(ObjectIdentifier(optionalInt.unwrapped) == ObjectIdentifier(Int.self))
        #expect(optionalInt.integer != nil)
        #expect(double.integer == nil)
        #expect(double.wideNumber != nil)
        #expect(PredicateValueType.of(Budget?.self).isModel == true)
        #expect(PredicateValueType.of(Bool.self).ordered == nil)
    }

    /// `T`, `T?`, `[T]`, `[T]?` and `[T?]` for each of `types`: distinct types, none nested deeply
    /// (a type nested 80 optionals deep took Swift's runtime minutes to ask about).
    private static func variants(of types: [Any.Type]) -> [Any.Type] {
        func variants<T>(_: T.Type) -> [Any.Type] { [T.self, T?.self, [T].self, [T]?.self, [T?].self] }
        return types.flatMap { type in
            func open<T>(_ type: T.Type) -> [Any.Type] { variants(type) }
            return _openExistential(type, do: open)
        }
    }

    @Test func theAnswersStayRightOnceTheTableStartsAgain() {
        // More types than the table keeps (64): it empties and fills again.
        let many = Self.variants(of: Self.types)
        #expect(many.count > 64)
        for type in many + many.reversed() + Self.types {
            #expect(Answers(PredicateValueType.of(type)) == Answers(of: type), "\(type)")
        }
    }

    @Test func eachThreadGetsTheSameAnswers() {
        let mismatches = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 8) { round in
            for type in Self.types.shuffled() + Self.variants(of: Array(Self.types.prefix(round + 1))) {
                if Answers(PredicateValueType.of(type)) != Answers(of: type) {
                    mismatches.withLock { $0 += 1 }
                }
            }
        }
        #expect(mismatches.withLock { $0 } == 0)
    }
}
