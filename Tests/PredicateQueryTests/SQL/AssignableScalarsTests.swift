// The folded-test tables scan only `AssignableScalars.ranges`; what they pass over
// must hold nothing a fold could change, in the Unicode data of the Swift at hand.

import Testing

@testable import PredicateQuery

struct AssignableScalarsTests {
    @Test func thePlanesPassedOverHoldNoCharacter() {
        var outside = 0
        var assigned: [UInt32] = []
        for value in UInt32(0)...0x10_FFFF where !AssignableScalars.ranges.contains(where: { $0.contains(value) }) {
            guard let scalar = Unicode.Scalar(value) else { continue }
            outside += 1
            switch scalar.properties.generalCategory {
            case .unassigned, .privateUse: continue
            default: if assigned.count < 10 { assigned.append(value) }
            }
        }
        #expect(assigned.isEmpty, "assigned scalars outside AssignableScalars.ranges: \(assigned.map { String($0, radix: 16) })")
        // Planes 4 to 13, 15 and 16.
        #expect(outside == 12 * 0x1_0000)
    }

    @Test func theRangesAreInOrderAndApart() {
        let ranges = AssignableScalars.ranges
        #expect(zip(ranges, ranges.dropFirst()).allSatisfy { $0.upperBound < $1.lowerBound })
        #expect(Array(AssignableScalars.values.prefix(3)) == [0, 1, 2])
        // (Counted into a typed variable: written inside `#expect`, the closure's types took
        // the compiler a second and a half to infer.)
        var count = 0
        for _ in AssignableScalars.values { count += 1 }
        #expect(count == 5 * 0x1_0000)
    }
}
