// What pq cannot do, told apart from what the app gets wrong, for `pq lint`.
//
// The checker speaks for pq: its errors say what pq cannot run. An app runs on
// SwiftData, so where pq's limit is not SwiftData's, the diagnostic says
// nothing about the app and `pq lint` drops it:
//   - `$0.code.count` of a String: pq has no string length (SQL and Swift count
//     characters differently), but `String` is a `Collection` and Foundation's
//     `#Predicate` takes its `count`;
//   - a sort by `persistentModelID` (or `id` where the model declares none): the
//     object's identity, which pq reads as a relationship; `PersistentIdentifier` is
//     `Comparable`, so SwiftData sorts by it;
//   - a member pq skipped when it read the model or a Codable struct (its type is
//     a struct from a package not among the files, an enum pq cannot read): the
//     property exists, pq just does not know its type;
//   - a sort descriptor pq cannot read (not made from a key path): not checked;
//   - a closure pq's Swift reader stops at: the app compiles, so the Swift is
//     valid; the site is skipped and counted, not reported. The exception is a
//     method Foundation's `#Predicate` macro rejects (`lowercased()`, `hasSuffix`):
//     the macro accepts only `contains`, `contains(where:)`, `allSatisfy`,
//     `flatMap`, `filter`, subscripts, `starts(with:)`, `min()`, `max()`,
//     `localizedStandardContains`, `localizedCompare`, `caseInsensitiveCompare`
//     and `evaluate` (swift-foundation, Sources/FoundationMacros/PredicateMacro.swift,
//     `knownSupportedFunctions`), so any other method is the macro's compile error.

import PredicateQuery

/// Recognises the diagnostics that describe pq's limits rather than the app's mistakes.
struct SwiftLintOwnLimits {
    let schema: Schema
    let skippedProperties: [String: Set<String>]
    /// The site's file, to read the text a diagnostic points at.
    let bytes: [UInt8]

    /// A diagnostic of the site finder (before any model is known) that is pq's limit.
    static func isOwnLimit(_ diagnostic: Diagnostic) -> Bool {
        diagnostic.code == .swiftUnsupported && diagnostic.severity == .warning
            && diagnostic.message.hasPrefix("pq reads sort descriptors made from a key path only")
    }

    /// The methods Foundation's `#Predicate` macro accepts (`knownSupportedFunctions`).
    static let macroMethods: Set<String> = [
        "contains", "allSatisfy", "flatMap", "filter", "subscript", "starts", "min", "max", "localizedStandardContains",
        "localizedCompare", "caseInsensitiveCompare", "evaluate",
    ]

    /// Why a site is skipped when pq's Swift reader stopped at it, or nil when it did not, or when what
    /// stopped it is the app's mistake (a method the `#Predicate` macro rejects).
    static func unreadable(_ diagnostics: [Diagnostic]) -> String? {
        for diagnostic in diagnostics where diagnostic.severity == .error {
            guard diagnostic.code == .swiftSyntax || diagnostic.code == .swiftUnsupported else { return nil }
            let unknownMethod = " cannot become SQL: pq does not know this method"
            if diagnostic.message.hasSuffix(unknownMethod) {
                let method = diagnostic.message.dropLast(unknownMethod.count).trimmingCharacters(in: ["'"])
                guard macroMethods.contains(method) else { return nil }
                return "pq does not read '\(method)', which #Predicate accepts"
            }
            return "pq cannot read this closure (\(diagnostic.message))"
        }
        return nil
    }

    /// A checker diagnostic that is pq's limit, not the app's mistake.
    func isOwnLimit(_ diagnostic: Diagnostic) -> Bool {
        switch diagnostic.code {
        case .notACollection:
            return diagnostic.message.hasSuffix("is of type 'String'")
        case .unsortableKey:
            // `\.persistentModelID`, or `\.id` on a model that declares none: SwiftData's identity, which the
            // checker reads as a relationship.
            let key = text(at: diagnostic.span)
            return key.hasSuffix("persistentModelID")
                || (key.hasSuffix(".id") && diagnostic.message.hasPrefix("cannot sort by the relationship"))
        case .unknownProperty, .invalidMemberAccess:
            // A model's property or a Codable struct's field that pq skipped reading.
            guard let (type, member) = Self.typeAndMember(diagnostic.message) else { return false }
            return skippedProperties[type]?.contains(member) ?? false
        default:
            return false
        }
    }

    /// The source text a span covers.
    func text(at span: SourceSpan) -> String {
        guard span.start >= 0, span.start <= span.end, span.end <= bytes.count else { return "" }
        return String(decoding: bytes[span.start..<span.end], as: UTF8.self)
    }

    /// `value of type 'Trip' has no member 'note'`: ("Trip", "note").
    static func typeAndMember(_ message: String) -> (String, String)? {
        let quoted = message.split(separator: "'", omittingEmptySubsequences: false)
        guard message.hasPrefix("value of type '"), quoted.count >= 5 else { return nil }
        return (String(quoted[1]), String(quoted[3]))
    }
}
