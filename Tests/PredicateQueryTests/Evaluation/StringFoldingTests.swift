// The fold table's `[cd]` folds, which it makes from its own `[d]` and `[c]` folds
// (so that PostgreSQL's tables decompose and case-fold each scalar once), are the
// folds computed in one pass from Foundation: for every scalar below U+0600 (Latin,
// Greek, Cyrillic, Armenian, the combining marks) and every eleventh above it.

import Foundation
import Testing

@testable import PredicateQuery

struct StringFoldingTests {
    static let scalars: [Unicode.Scalar] = AssignableScalars.values.compactMap { value in
        guard value < 0x600 || value % 11 == 0 else { return nil }
        return Unicode.Scalar(value)
    }

    static let both: StringOptions = [.caseInsensitive, .diacriticInsensitive]

    @Test func caseAndDiacriticFoldsMadeFromTheTwoFoldsAreTheFoldsComputedAtOnce() {
        // A table that meets `[cd]` first (it computes `[d]` and `[c]` on the way), and
        // one that has every `[d]` and `[c]` fold before it is asked for `[cd]`.
        let cdFirst = FoldTable()
        let cdLast = FoldTable()
        for scalar in Self.scalars {
            _ = cdLast.fold(scalar, .diacriticInsensitive)
            _ = cdLast.fold(scalar, .caseInsensitive)
        }
        var differing: [String] = []
        for scalar in Self.scalars {
            let computed = FoldTable.compute(scalar, Self.both)
            for table in [cdFirst, cdLast] where table.fold(scalar, Self.both) != computed {
                differing.append("U+\(String(scalar.value, radix: 16, uppercase: true))")
            }
        }
        #expect(Self.scalars.count > 5_000)
        #expect(differing.isEmpty, "\(differing.count) differ, first: \(differing.prefix(5))")
    }

    @Test func foldsThatNeedBothStepsComeOutWhole() {
        // `ᾳ` loses its iota subscript to [d] before case folding could expand it; `İ`
        // gains U+0307 from case folding, which [d] then drops; `ß` folds to two scalars.
        let table = FoldTable()
        #expect(table.fold("\u{1FB3}", Self.both) == ["\u{3B1}"])
        #expect(table.fold("\u{130}", Self.both) == ["i"])
        #expect(table.fold("ß", Self.both) == ["s", "s"])
        #expect(table.fold("\u{1E9E}", Self.both) == ["s", "s"])
    }
}
