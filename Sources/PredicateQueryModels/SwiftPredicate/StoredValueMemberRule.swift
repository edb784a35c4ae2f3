// A key path that goes on past a stored value into one of its members
// (`entry.owner?.id.uuidString`, `$0.name.capitalized`). Swift compiles it: the
// member is the value type's own. pq's checker reports "value of type 'UUID' has
// no member 'uuidString'", which is true of pq's language but not of Swift; in a
// Swift site this says instead what SwiftData does with such a key path: it traps
// in the fetch ("Invalid KeyPath id.uuidString on … points to a value type: UUID
// but has additional descendant: uuidString"). A field of a Codable struct is not
// concerned: the checker resolves those, and those it could not read are pq's
// limit (`SwiftLintOwnLimits`).

import PredicateQuery

enum StoredValueMemberRule {
    /// `diagnostic` restated for a Swift site when it is the checker's member-of-a-value error; any
    /// other diagnostic as it is.
    static func restate(_ diagnostic: Diagnostic) -> Diagnostic {
        guard diagnostic.code == .invalidMemberAccess,
            let (type, member) = SwiftLintOwnLimits.typeAndMember(diagnostic.message)
        else { return diagnostic }
        // The checker's "… is an attribute, not a relationship" is pq's view; an enum's or a struct's note stays.
        var notes = diagnostic.notes.filter { !$0.message.hasSuffix("not a relationship") }
        notes.append(
            DiagnosticNote(
                "compare the stored value itself, and convert what it is compared with before the predicate "
                    + "(`let id = UUID(uuidString: text)`, then `$0.owner?.id == id`)"))
        notes.append(
            DiagnosticNote(
                "evidence: SwiftData's fatal error \"Invalid KeyPath id.uuidString on … points to a value type: UUID but has additional descendant: uuidString\", quoted by a shipped app's crash fix (marcosbarbero/fit-iq-workspaces, FitIQ/docs/fixes/SWIFTDATA_KEYPATH_FIX.md)"
            ))
        return .error(
            .invalidMemberAccess,
            "SwiftData cannot follow a key path past a stored \(type) value into its member '\(member)': the fetch traps",
            at: diagnostic.span, notes: notes)
    }
}
