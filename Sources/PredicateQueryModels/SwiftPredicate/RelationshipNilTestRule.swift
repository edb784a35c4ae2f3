// An optional to-one relationship compared with `nil` inside a compound #Predicate
// (`$0.channel == 0 && $0.toUser == nil`).
//
// What SwiftData does: valid, and documented nowhere as a limit, but shipped apps
// crashed on it on iOS 26 (SIGTRAP in the code the macro generates for the query):
// meshtastic/Meshtastic-Apple#1900 counted 21 crashes in one TestFlight build, in
// predicates that combined such a test with others, and fixed them by taking the
// test out of its predicates and filtering the fetched objects in Swift. The
// evidence is crash reports, not Apple's word, so this is a warning, and it names
// its evidence. A predicate that is only the nil test (`#Predicate { $0.entry ==
// nil }`, as in a migration of one of the corpus apps) is not flagged: nothing seen
// shows it crashing.

import PredicateQuery

extension DiagnosticCode {
    /// An optional to-one relationship compared with nil: crashed SwiftData on iOS 26 in shipped apps.
    public static let swiftRelationshipNilTest: DiagnosticCode = "swift.relationshipNilTest"
}

enum RelationshipNilTestRule {
    static func check(_ predicate: Expr, schema: Schema, root: Entity) -> [Diagnostic] {
        var found: [Diagnostic] = []
        // The spans of the nodes under an `&&` or `||`. (Under, in the tree: the text of a captured
        // predicate evaluated inside the compound lies elsewhere in the file.)
        var inCompound: Set<SourceSpan> = []
        MemberResolver(schema: schema, root: root).forEachNode(of: predicate) { node, resolver in
            switch node.kind {
            case .and(let operands), .or(let operands):
                guard !inCompound.contains(node.span) else { return }
                var pending = operands
                while let next = pending.popLast() {
                    if inCompound.insert(next.span).inserted { pending += next.children }
                }
                return
            case .comparison(let op, let lhs, let rhs, _) where op == .equal || op == .notEqual:
                guard inCompound.contains(node.span) else { return }
                for (side, other) in [(lhs, rhs), (rhs, lhs)] {
                    // Only a test written as one: the reader turns `if let x = $0.rel { … } else { … }`
                    // into nil tests of its own, spanning just the key path, which the macro builds
                    // differently (flatMap), with no comparison with nil.
                    guard case .literal(.null) = other.kind, case .keyPath(let path) = side.kind,
                        node.span.end - node.span.start > side.span.end - side.span.start,
                        let name = optionalToOne(path, resolver)
                    else { continue }
                    found.append(diagnostic(name, at: node.span))
                    return
                }
            default:
                return
            }
        }
        return found
    }

    private static func diagnostic(_ name: String, at span: SourceSpan) -> Diagnostic {
        .warning(
            .swiftRelationshipNilTest,
            "comparing the optional relationship '\(name)' with nil inside a compound predicate crashed SwiftData on iOS 26 in shipped apps",
            at: span,
            notes: [
                DiagnosticNote(
                    "evidence: crash reports (meshtastic/Meshtastic-Apple#1900: 21 crashes in one build), not Apple's documentation"),
                DiagnosticNote(
                    "if it crashes for you, fetch without this test and filter the objects in Swift, as that fix did"),
            ])
    }

    /// The dotted name of a path that ends at an optional to-one relationship, or nil.
    private static func optionalToOne(_ path: PropertyPath, _ resolver: MemberResolver) -> String? {
        guard let steps = resolver.relationships(along: path), steps.allSatisfy({ !$0.isToMany }),
            steps.last?.isOptional == true
        else { return nil }
        return path.components.map(\.name).joined(separator: ".")
    }
}
