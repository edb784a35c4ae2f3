// A key path that goes on past a stored value of a Swift type into one of its
// members (`entry.owner?.id.uuidString`, `$0.name.capitalized`). Swift compiles
// it: the member is the type's own. pq's checker reports "value of type 'UUID'
// has no member 'uuidString'", which is true of pq's language but not of Swift;
// in a Swift site this says instead what SwiftData does with such a key path: it
// traps in the fetch ("Invalid KeyPath id.uuidString on … points to a value type:
// UUID but has additional descendant: uuidString"). The app's own types are not
// concerned: a member a Codable struct or an enum does not declare may well not
// compile, and stays `unknown-property`.

import PredicateQuery

extension DiagnosticCode {
    /// A key path past a stored value of a Swift type (`$0.id.uuidString`): SwiftData traps on it.
    public static let swiftStoredValueMember: DiagnosticCode = "swift.storedValueMember"
}

enum StoredValueMemberRule {
    /// `diagnostic` restated for a Swift site when it is the checker's member-of-a-value error about a
    /// Swift type's value; any other diagnostic as it is.
    static func restate(_ diagnostic: Diagnostic) -> Diagnostic {
        guard diagnostic.code == .invalidMemberAccess,
            let (type, member) = SwiftLintOwnLimits.typeAndMember(diagnostic.message)
        else { return diagnostic }
        switch AttributeType(swiftName: type) {
        case .named, .transformable: return diagnostic
        default: break
        }
        let fix =
            type == "UUID"
            ? "compare the stored UUID itself, and make what it is compared with a UUID before the predicate (`let id = UUID(uuidString: text)`)"
            : "compare the stored value itself, and work out what it is compared with before the predicate"
        return .error(
            .swiftStoredValueMember,
            "SwiftData cannot follow a key path past a stored \(type) value into its member '\(member)': the fetch traps",
            at: diagnostic.span,
            notes: [
                DiagnosticNote(fix),
                DiagnosticNote(
                    "evidence: SwiftData's fatal error \"Invalid KeyPath id.uuidString on … points to a value type: UUID but has additional descendant: uuidString\", quoted by a shipped app's crash fix (marcosbarbero/fit-iq-workspaces, FitIQ/docs/fixes/SWIFTDATA_KEYPATH_FIX.md)"
                ),
            ])
    }
}
