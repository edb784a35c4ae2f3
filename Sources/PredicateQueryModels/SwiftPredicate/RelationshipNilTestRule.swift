// An optional to-one relationship compared with `nil` where no test of a stored
// value leads the predicate (`$0.toUser == nil`, `$0.toUser == nil && $0.read`,
// or inside `||`).
//
// What SwiftData does: valid, and documented nowhere as a limit, but shipped apps
// crashed on it on iOS 26 (SIGTRAP in the code the macro generates for the query):
// meshtastic/Meshtastic-Apple#1900 counted 21 crashes in one TestFlight build and
// took every such test out of its predicates, filtering the fetched objects in
// Swift instead. The same app's later code puts the test back where a test of a
// stored value comes first (`$0.channel == index && $0.toUser == nil`), noting
// those shapes tested on iOS 26, and says the test mis-counts or crashes when
// used bare. So: flagged alone, first in an `&&` chain (no earlier operand tests a
// stored attribute), and anywhere inside `||` (nothing shows an alternative safe);
// not flagged after a test of a stored value, nor in an `if let` over the
// relationship (the reader's own nil tests, spanning just the key path). The
// evidence is crash reports and one app's tests, not Apple's word, so this is a
// warning, and it names its evidence.

import PredicateQuery

extension DiagnosticCode {
    /// An optional to-one relationship compared with nil: crashed SwiftData on iOS 26 in shipped apps.
    public static let swiftRelationshipNilTest: DiagnosticCode = "swift.relationshipNilTest"
}

enum RelationshipNilTestRule {
    static func check(_ predicate: Expr, schema: Schema, root: Entity) -> [Diagnostic] {
        var found: [Diagnostic] = []
        visit(predicate, MemberResolver(schema: schema, root: root), led: false, inAlternative: false, &found)
        return found
    }

    /// Looks for nil tests in `node`; `led` when an earlier operand of the `&&` chain it is in tests a
    /// stored value, `inAlternative` when it is inside `||`.
    private static func visit(
        _ node: Expr, _ resolver: MemberResolver, led: Bool, inAlternative: Bool, _ found: inout [Diagnostic]
    ) {
        switch node.kind {
        case .and(let operands):
            var led = led
            for operand in operands {
                visit(operand, resolver, led: led, inAlternative: inAlternative, &found)
                led = led || testsStoredValue(operand, resolver)
            }
        case .or(let operands):
            for operand in operands { visit(operand, resolver, led: false, inAlternative: true, &found) }
        case .not(let operand):
            visit(operand, resolver, led: led, inAlternative: inAlternative, &found)
        case .comparison(let op, let lhs, let rhs, _) where op == .equal || op == .notEqual:
            guard !led || inAlternative else { return }
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
        case .elementTest(_, let collection, let closure), .filter(let collection, let closure):
            // The closure's body is a predicate of its own, over the elements.
            visit(collection, resolver, led: false, inAlternative: false, &found)
            visit(closure.body, resolver.inside(closure, over: collection), led: false, inAlternative: false, &found)
        default:
            for child in node.children { visit(child, resolver, led: false, inAlternative: false, &found) }
        }
    }

    /// Whether `expr` tests a stored attribute (`$0.channel == 1`, `$0.fromUser?.num == n`, `$0.read`,
    /// `!$0.read`, `$0.name.contains(…)`), or is an `&&` chain one of whose operands does.
    private static func testsStoredValue(_ expr: Expr, _ resolver: MemberResolver) -> Bool {
        func isAttribute(_ side: Expr) -> Bool {
            guard case .keyPath(let path) = side.kind else { return false }
            return resolver.attributeOptionality(of: path) != nil
        }
        switch expr.kind {
        case .keyPath: return isAttribute(expr)
        case .not(let operand): return testsStoredValue(operand, resolver)
        case .and(let operands): return operands.contains { testsStoredValue($0, resolver) }
        case .comparison(_, let lhs, let rhs, _), .stringTest(_, let lhs, let rhs, _):
            return isAttribute(lhs) || isAttribute(rhs)
        case .membership(let element, _, _): return isAttribute(element)
        default: return false
        }
    }

    private static func diagnostic(_ name: String, at span: SourceSpan) -> Diagnostic {
        .warning(
            .swiftRelationshipNilTest,
            "comparing the optional relationship '\(name)' with nil, with no test of a stored value before it, crashed SwiftData on iOS 26 in shipped apps",
            at: span,
            notes: [
                DiagnosticNote(
                    "evidence: crash reports (meshtastic/Meshtastic-Apple#1900: 21 crashes in one build) and that app's later tests on iOS 26, not Apple's documentation"),
                DiagnosticNote(
                    "put a test of a stored value first (as that app now does), or fetch without this test and filter the objects in Swift"),
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
