// pq's `[c]`/`[d]` folding turned around: for each folded scalar, every scalar that
// folds to exactly it; the scalars whose fold is two or more scalars (`ß` → `ss`,
// a Hangul syllable → its jamo under `[d]`); and those that fold to nothing (marks
// under `[d]`). PostgreSQL has no pq folding, so a folded test is sent as a regular
// expression over the stored text built from these (`PostgreSQLPatterns`).
//
// Built once per modifier, from `StringFolding` itself over every Unicode scalar
// (of the planes that hold any: `AssignableScalars`): unassigned, private-use and
// unified-ideograph scalars fold to themselves and are passed over; the rest (some
// 58,000) go through pq's own fold, so the table is pq's meaning by construction,
// not a second copy of it.

/// The scalars behind each fold, for one modifier.
struct FoldInverse: Sendable {
    /// The scalars other than `x` whose fold is exactly `[x]`, by `x`.
    var singles: [UInt32: [UInt32]] = [:]
    /// The scalars whose fold has two or more scalars, grouped by that fold, by its first scalar.
    var expansions: [UInt32: [(fold: [UInt32], scalars: [UInt32])]] = [:]
    /// The scalars whose fold is empty, in order.
    var empties: [UInt32] = []
    /// `empties` as a regular-expression class, removed from a text before a folded
    /// test on PostgreSQL (`PostgreSQLPattern.emptyFoldClass`); nil when there are none.
    var emptiesClass: String?
    /// The most scalars one scalar folds to (3 for `ΐ` under `[c]`).
    var longestFold = 1
    let options: StringOptions

    static let caseInsensitive = FoldInverse(.caseInsensitive)
    static let diacriticInsensitive = FoldInverse(.diacriticInsensitive)
    static let both = FoldInverse([.caseInsensitive, .diacriticInsensitive])

    /// The table for `options` (not empty).
    static func of(_ options: StringOptions) -> FoldInverse {
        switch (options.contains(.caseInsensitive), options.contains(.diacriticInsensitive)) {
        case (true, true): both
        case (true, false): caseInsensitive
        default: diacriticInsensitive
        }
    }

    private init(_ options: StringOptions) {
        self.options = options
        var grouped: [[UInt32]: [UInt32]] = [:]
        for scalar in Self.candidates {
            let value = scalar.value
            let fold = StringFolding.fold(scalar, options).map(\.value)
            switch fold.count {
            case 0: empties.append(value)
            case 1 where fold[0] == value: break
            case 1: singles[fold[0], default: []].append(value)
            default:
                grouped[fold, default: []].append(value)
                longestFold = max(longestFold, fold.count)
            }
        }
        for (fold, scalars) in grouped {
            guard let first = fold.first else { continue }
            expansions[first, default: []].append((fold, scalars))
        }
        for first in expansions.keys {
            expansions[first]?.sort { $0.fold.lexicographicallyPrecedes($1.fold) }
        }
        emptiesClass = empties.isEmpty ? nil : PostgreSQLFoldPattern.bracket(empties)
    }

    /// The scalars a modifier may change, in order: found once for the three tables.
    private static let candidates: [Unicode.Scalar] = AssignableScalars.values.compactMap { value in
        guard let scalar = Unicode.Scalar(value), !foldsToItself(scalar) else { return nil }
        return scalar
    }

    /// Scalars no modifier changes: unassigned, private use, and the unified ideographs.
    private static func foldsToItself(_ scalar: Unicode.Scalar) -> Bool {
        let properties = scalar.properties
        switch properties.generalCategory {
        case .unassigned, .privateUse, .surrogate: return true
        default: return properties.isUnifiedIdeograph
        }
    }

    /// The scalars whose fold is exactly `[x]`, in order (maybe none).
    func scalars(foldingTo x: UInt32) -> [UInt32] {
        var members = singles[x] ?? []
        if let scalar = Unicode.Scalar(x), StringFolding.fold(scalar, options).map(\.value) == [x] { members.append(x) }
        return members.sorted()
    }
}
