// Two ways of asking whether a to-many relationship is empty that compile, and that
// SwiftData was reported to fail on at run time:
//
// - `isEmpty` of a non-optional to-many compared with `false` (`$0.cast.isEmpty ==
//   false`). Hacking with Swift's SwiftData by Example ("How to filter SwiftData
//   results with predicates", updated for Xcode 15) shows `!$0.cast.isEmpty` and
//   `$0.cast.isEmpty` working and `$0.cast.isEmpty == false` crashing at run time.
//   The fix is the negation. An optional one (`$0.assets?.isEmpty == false`) has no
//   negation to offer, and another article shows that form working: not flagged.
// - An optional to-many relationship (`var assets: [Asset]?`) compared with nil.
//   fatbobman's "How to Handle Optional Values in SwiftData Predicates" (Xcode 15)
//   reports the fetch failing with "to-many key not allowed here": Core Data's SQL
//   has no NULL for a to-many key, only rows that point back. pq's own language
//   refuses the test too ("say which of its elements you mean"), which would be
//   pq's limit reported as an app error: in a Swift site, this rule's warning
//   takes its place.
//
// Both rest on one author's report each, not Apple's word: warnings that name
// their evidence. `$0.assets?.isEmpty == true` is not flagged: the same article
// reports it failing, but another shows `?.isEmpty == false` working, and nothing
// settles which holds.

import PredicateQuery

extension DiagnosticCode {
    /// `isEmpty` of a to-many relationship compared with `false`: reported to crash SwiftData.
    public static let swiftToManyIsEmptyComparedWithFalse: DiagnosticCode = "swift.toManyIsEmptyComparedWithFalse"
    /// An optional to-many relationship compared with nil: reported to fail a SwiftData fetch.
    public static let swiftOptionalToManyNilTest: DiagnosticCode = "swift.optionalToManyNilTest"
}

enum ToManyEmptinessRule {
    /// The warnings for `predicate` over `root`, and the spans of the key paths whose nil
    /// tests they explain (where the checker's to-many error is pq's limit, not the app's).
    static func check(_ predicate: Expr, schema: Schema, root: Entity) -> (
        diagnostics: [Diagnostic], explainedKeyPaths: Set<SourceSpan>
    ) {
        var found: [Diagnostic] = []
        var explained: Set<SourceSpan> = []
        MemberResolver(schema: schema, root: root).forEachNode(of: predicate) { node, resolver in
            guard case .comparison(let op, let lhs, let rhs, _) = node.kind, op == .equal || op == .notEqual else { return }
            for (side, other) in [(lhs, rhs), (rhs, lhs)] {
                if op == .equal, case .literal(.bool(false)) = other.kind, case .isEmpty(let collection) = side.kind,
                    case .keyPath(let path) = collection.kind, let name = toMany(path, resolver, optional: false)
                {
                    found.append(isEmptyComparedWithFalse(name, at: node.span))
                    return
                }
                if case .literal(.null) = other.kind, case .keyPath(let path) = side.kind,
                    let name = toMany(path, resolver, optional: true)
                {
                    found.append(nilTest(name, isEqual: op == .equal, at: node.span))
                    explained.insert(side.span)
                    return
                }
            }
        }
        return (found, explained)
    }

    private static func isEmptyComparedWithFalse(_ name: String, at span: SourceSpan) -> Diagnostic {
        .warning(
            .swiftToManyIsEmptyComparedWithFalse,
            "comparing 'isEmpty' of the to-many relationship '\(name)' with false was reported to crash SwiftData at run time, where its negation works",
            at: span,
            notes: [
                DiagnosticNote("write '!' before the path and drop '== false'"),
                DiagnosticNote(
                    "evidence: Hacking with Swift, SwiftData by Example, \"How to filter SwiftData results with predicates\" (Xcode 15), not Apple's documentation"
                ),
            ])
    }

    private static func nilTest(_ name: String, isEqual: Bool, at span: SourceSpan) -> Diagnostic {
        .warning(
            .swiftOptionalToManyNilTest,
            "comparing the optional to-many relationship '\(name)' with nil was reported to fail SwiftData's fetch with \"to-many key not allowed here\"",
            at: span,
            notes: [
                DiagnosticNote(
                    isEqual
                        ? "a to-many relationship is stored as the rows that point back, never as nil: to find objects with none, fetch and filter in Swift, or make the relationship non-optional and test isEmpty"
                        : "a to-many relationship is stored as the rows that point back, never as nil: to find objects with some, test !\(name).isEmpty on a non-optional relationship, or fetch and filter in Swift"
                ),
                DiagnosticNote(
                    "evidence: fatbobman, \"How to Handle Optional Values in SwiftData Predicates\" (Xcode 15), not Apple's documentation"),
            ])
    }

    /// The dotted name of a path that ends at a to-many relationship, optional or not as
    /// `optional` says, or nil.
    private static func toMany(_ path: PropertyPath, _ resolver: MemberResolver, optional: Bool) -> String? {
        guard let steps = resolver.relationships(along: path), steps.dropLast().allSatisfy({ !$0.isToMany }),
            let last = steps.last, last.isToMany, last.isOptional == optional
        else { return nil }
        return path.components.map(\.name).joined(separator: ".")
    }
}
