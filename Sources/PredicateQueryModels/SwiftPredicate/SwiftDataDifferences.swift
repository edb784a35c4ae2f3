// Where running a query in SwiftData gives a different answer from pq's, or
// where the Swift written is pq's and not Foundation's.
//
// `pq lint` reports, on top of the checker's and `SwiftDataRules`' errors:
//   - pq's own spellings (`like`, `sum(\.x)`, `compare(_:options:)`,
//     `String.Comparator(options:)`, initializers inside the closure): Foundation's
//     `#Predicate` and `SortDescriptor` do not accept them (an error: the app
//     would not compile);
//   - `SortDescriptor(\.name)` on a String: Foundation's initializer defaults to
//     `comparator: .localizedStandard` (Finder-like: case-insensitive, digits
//     compared as numbers, the current locale's rules), pq sorts by code point;
//   - `comparator: .localizedStandard` or `.localized`: pq reads the first as a
//     `[cd]` sort and the second as code point order; neither compares digits as
//     numbers or follows a locale;
//   - a string literal not in composed form (NFC): Swift's `==` is canonical
//     equivalence (`"e\u{301}" == "é"`), but the store compares the stored
//     scalars, so SwiftData (like pq) finds only values spelled the same way.

import Foundation
import PredicateQuery

extension DiagnosticCode {
    /// pq's own spelling, which Foundation's `#Predicate` or `SortDescriptor` does not accept.
    public static let swiftNotInPredicate: DiagnosticCode = "swift.notInPredicate"
    /// `SortDescriptor(\.text)` without a comparator: `.localizedStandard` in SwiftData, code point order in pq.
    public static let swiftSortDefaultComparator: DiagnosticCode = "swift.sortDefaultComparator"
    /// `comparator: .localizedStandard` or `.localized`: locale-aware, numeric in SwiftData; folded code points in pq.
    public static let swiftSortLocalized: DiagnosticCode = "swift.sortLocalized"
    /// A decomposed string literal: equal under Swift's `==`, not in the store.
    public static let swiftCanonicalEquivalence: DiagnosticCode = "swift.canonicalEquivalence"
}

/// The lint's warnings where SwiftData and pq answer differently.
enum SwiftDataDifferences {
    /// What pq reads that Foundation does not accept, as errors.
    static func foreign(_ spellings: [SwiftPredicateParser.ForeignSpelling]) -> [Diagnostic] {
        spellings.map { spelling in
            let owner = spelling.what.contains("Comparator") ? "SortDescriptor" : "#Predicate"
            return .error(
                .swiftNotInPredicate, "SwiftData's \(owner) does not accept \(spelling.what)", at: spelling.span,
                notes: [DiagnosticNote(spelling.advice)])
        }
    }

    /// The sort keys whose order differs, given how each descriptor was written.
    static func sorts(
        _ keys: [SortKey], checked: [CheckedSortKey], comparators: [SourceSpan: SwiftQuerySiteFinder.Comparator]
    ) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for (key, typed) in zip(keys, checked) where typed.type == .string {
            let name = key.path.components.map(\.name).joined(separator: ".")
            switch comparators[key.span] {
            case .omitted:
                diagnostics.append(
                    .warning(
                        .swiftSortDefaultComparator,
                        "SwiftData sorts the String '\(name)' with .localizedStandard by default (\"Trip 9\" before \"Trip 10\", \"b\" before \"C\"), but pq sorts by code point (\"Trip 10\" before \"Trip 9\", \"C\" before \"b\")",
                        at: key.span,
                        notes: [
                            DiagnosticNote(
                                "write 'comparator: .lexical' for the order pq gives, or 'comparator: .localizedStandard' to say which one you mean (pq reads it as [cd])"
                            )
                        ]))
            case .localizedStandard:
                diagnostics.append(
                    .warning(
                        .swiftSortLocalized,
                        "pq reads .localizedStandard as a [cd] sort (case and accents ignored) but compares digits one by one and follows no locale: \"Trip 10\" sorts before \"Trip 9\" in pq, after it in SwiftData",
                        at: key.span))
            case .localized:
                diagnostics.append(
                    .warning(
                        .swiftSortLocalized,
                        "SwiftData sorts '\(name)' with the current locale's rules (\"b\" before \"C\"); pq sorts by code point (\"C\" before \"b\")",
                        at: key.span,
                        notes: [DiagnosticNote("write 'comparator: .lexical' for an order pq and SwiftData agree on")]))
            case .lexical, .options, nil:
                break
            }
        }
        return diagnostics
    }

    /// String literals in the predicate that are not in composed form.
    static func decomposedLiterals(_ expr: Expr) -> [Diagnostic] {
        var found: [Diagnostic] = []
        func visit(_ expr: Expr) {
            switch expr.kind {
            case .literal(.string(let text)):
                let composed = text.precomposedStringWithCanonicalMapping
                guard !text.unicodeScalars.elementsEqual(composed.unicodeScalars) else { return }
                found.append(
                    .warning(
                        .swiftCanonicalEquivalence,
                        "this string is not in composed form (NFC): Swift's == finds it equal to \"\(composed)\", but the store compares the stored characters, so SwiftData (like pq) matches only values spelled the same way",
                        at: expr.span,
                        notes: [DiagnosticNote("write it as the stored values are spelled, usually composed: \"\(composed)\"")]
                    ))
            case .literal, .enumCase, .keyPath, .parameter, .invalid: break
            case .call(_, let parts), .list(let parts), .and(let parts), .or(let parts): parts.forEach(visit)
            case .not(let inner), .negate(let inner), .quantified(_, let inner), .isEmpty(let inner), .member(let inner, _),
                .aggregate(_, let inner, _):
                visit(inner)
            case .range(let a, let b, _), .arithmetic(_, let a, let b), .comparison(_, let a, let b, _),
                .stringTest(_, let a, let b, _), .membership(let a, let b), .coalesce(let a, let b):
                visit(a)
                visit(b)
            case .elementTest(_, let collection, let closure), .filter(let collection, let closure):
                visit(collection)
                visit(closure.body)
            }
        }
        visit(expr)
        return found
    }
}
