// What `[c]` and `[d]` do to a string, one Unicode scalar at a time.
//
// A test with a modifier is the plain test on folded text, where each scalar of the
// original folds on its own: `[c]` by Unicode's full case folding (`É` → `é`,
// `ß` → `ss`, `İ` → `i` + U+0307, `ς` → `σ`), `[d]` by removing diacritics (`é` → `e`,
// a combining mark on its own → nothing). Folding scalar by scalar keeps the
// boundaries between the original scalars, and a match must begin and end on one:
// `ß` contains `ss` under `[c]` but not `s`, as in Foundation. It also keeps every
// match the plain test finds (folding each side of a match gives a match), and
// finds no match the plain test would not find on the folded text: `naïve` does not
// begin with `nai` under `[c]`, because `ï` is one scalar whose fold is not `i`.
//
// Case folds are Foundation's (`folding(options:locale:)`, locale-independent);
// diacritics go by decomposing the scalar (NFD) and dropping its nonspacing marks
// (general category Mn), a mark on its own included. Folds are kept in a table per
// modifier as scalars are met; ASCII folds without the table.

import Foundation

/// Text folded for `[c]`/`[d]`, with the boundaries of the original scalars.
struct FoldedText {
    /// The folded scalars, in order.
    var scalars: [Unicode.Scalar] = []
    /// For each position in `scalars` and the end, whether an original scalar
    /// begins (or the text ends) there.
    var isBoundary: [Bool] = []
    /// For each position where an original scalar with a non-empty fold begins,
    /// the position where its fold ends; -1 elsewhere.
    var groupEnd: [Int] = []

    init(_ text: String, _ options: StringOptions) {
        for scalar in text.unicodeScalars {
            let start = scalars.count
            while isBoundary.count <= start {
                isBoundary.append(false)
                groupEnd.append(-1)
            }
            isBoundary[start] = true
            let folded = StringFolding.fold(scalar, options)
            if !folded.isEmpty {
                scalars.append(contentsOf: folded)
                groupEnd[start] = scalars.count
            }
        }
        while isBoundary.count <= scalars.count {
            isBoundary.append(false)
            groupEnd.append(-1)
        }
        isBoundary[scalars.count] = true
    }
}

enum StringFolding {
    /// The fold of one scalar under `options` (not empty): its scalars, maybe none.
    static func fold(_ scalar: Unicode.Scalar, _ options: StringOptions) -> [Unicode.Scalar] {
        let value = scalar.value
        if value < 0x80 {
            if options.contains(.caseInsensitive), (0x41...0x5A).contains(value) {
                return [Unicode.Scalar(UInt8(value + 0x20))]
            }
            return [scalar]
        }
        return FoldTable.shared.fold(scalar, options)
    }

    /// The text folded scalar by scalar, as one string.
    static func fold(_ text: String, _ options: StringOptions) -> String {
        var view = String.UnicodeScalarView()
        for scalar in text.unicodeScalars { view.append(contentsOf: fold(scalar, options)) }
        return String(view)
    }

    /// The text in composed form (NFC); the text itself when it has no scalar that
    /// composition could change (all below U+0300, the first combining mark).
    static func composed(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.value >= 0x300 }) else { return text }
        return text.precomposedStringWithCanonicalMapping
    }
}

/// The folds of non-ASCII scalars met so far, per modifier, shared across threads
/// (SQLite may call pq's functions from several connections at once).
final class FoldTable: @unchecked Sendable {
    static let shared = FoldTable()
    private let lock = NSLock()
    private var folds: [UInt32: [Unicode.Scalar]] = [:]

    func fold(_ scalar: Unicode.Scalar, _ options: StringOptions) -> [Unicode.Scalar] {
        let key = scalar.value << 2 | UInt32(options.rawValue & 3)
        lock.lock()
        let known = folds[key]
        lock.unlock()
        if let known { return known }
        let folded = computeFromKeptFolds(scalar, options)
        lock.lock()
        folds[key] = folded
        lock.unlock()
        return folded
    }

    /// The fold of a non-ASCII scalar, computed (not kept). Under `[cd]` it is made
    /// from the `[d]` fold of the scalar and the `[c]` folds of what that leaves, as
    /// this table keeps them, so that the three tables PostgreSQL needs (built from
    /// every scalar) decompose and case-fold each scalar once, not twice.
    private func computeFromKeptFolds(_ scalar: Unicode.Scalar, _ options: StringOptions) -> [Unicode.Scalar] {
        guard options.contains(.caseInsensitive), options.contains(.diacriticInsensitive) else {
            return Self.compute(scalar, options)
        }
        var folded: [Unicode.Scalar] = []
        for kept in fold(scalar, .diacriticInsensitive) { folded += fold(kept, .caseInsensitive) }
        return Self.withoutMarks(folded)
    }

    /// The fold of a non-ASCII scalar, computed (not kept).
    static func compute(_ scalar: Unicode.Scalar, _ options: StringOptions) -> [Unicode.Scalar] {
        // Diacritics go first, as in Foundation (`ᾳ` is `α` under [cd], not the `αι`
        // case folding gives), and again after case folding, which can add a mark
        // (`İ` folds to `i` + U+0307).
        var folded = [scalar]
        let diacritics = options.contains(.diacriticInsensitive)
        if diacritics { folded = Self.withoutMarks(folded) }
        if options.contains(.caseInsensitive) {
            folded = folded.flatMap { String($0).folding(options: .caseInsensitive, locale: nil).unicodeScalars }
            if diacritics { folded = Self.withoutMarks(folded) }
        }
        return folded
    }

    /// The scalars decomposed (NFD) with their diacritics dropped (`isDiacritic`).
    /// Foundation's own diacritic folding keeps a mark that stands alone; pq drops
    /// every one, so `e` + U+0301, `é` and a lone U+0301 after `e` all give `e`.
    private static func withoutMarks(_ scalars: [Unicode.Scalar]) -> [Unicode.Scalar] {
        // ASCII has no marks and decomposes to itself.
        if scalars.allSatisfy(\.isASCII) { return scalars }
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        return String(view).decomposedStringWithCanonicalMapping.unicodeScalars.filter { !isDiacritic($0) }
    }

    /// Nonspacing and enclosing marks, and the emoji skin-tone modifiers
    /// (U+1F3FB–U+1F3FF), which Foundation's diacritic-insensitive search also ignores.
    private static func isDiacritic(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark: true
        default: (0x1F3FB...0x1F3FF).contains(scalar.value)
        }
    }
}
