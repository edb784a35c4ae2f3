// `#Predicate` source as a query: Swift closure text read into pq's syntax tree.
//
// The Swift front end. A closure such as
// `#Predicate<Trip> { trip in trip.name.localizedStandardContains(search) }` is
// scanned with the model reader's scanner and parsed (`SwiftPredicateParser`)
// into the same `Query` the text language gives, so the checker and the
// lowering never learn Swift's grammar. The closure's parameter (`$0` or a
// name) is the object being filtered; every other free identifier is a captured
// value and becomes a named parameter (`search` is `$search`), typed by its use.
// What cannot become SQL (a call of a function pq does not know, `evaluate` of a
// captured predicate) is a diagnostic pointing at it.

import PredicateQuery

extension DiagnosticCode {
    /// Swift that is not a predicate closure pq can read (a syntax error, a statement it does not know).
    public static let swiftSyntax: DiagnosticCode = "swift.syntax"
    /// A call or a construct that cannot become SQL, such as `evaluate` of a captured predicate.
    public static let swiftUnsupported: DiagnosticCode = "swift.unsupported"
    /// What SwiftData itself would crash on or answer differently, though pq can run it.
    public static let swiftDataBehaviour: DiagnosticCode = "swift.swiftData"
    /// A member after a to-many relationship: an array in Swift, with no implicit ANY in SwiftData.
    public static let swiftDataToMany: DiagnosticCode = "swift.toManyMember"
}

/// Reads `#Predicate` closures written in Swift.
public enum SwiftPredicate {
    /// What reading a closure gave: the query (nil when there were errors), the
    /// captured values it uses, and the diagnostics (spans into the text given).
    public struct Result: Sendable {
        /// The query, or nil when the closure has errors.
        public var query: Query?
        /// The captured values, in order of first use: each is a parameter of the query.
        public var capturedNames: [String]
        /// Every error and warning, with spans into the text given.
        public var diagnostics: [Diagnostic]
    }

    /// Reads `#Predicate<Entity> { … }`, a closure `{ $0.x > 1 }`, a bare closure
    /// body such as `$0.limit > 100`, or `FetchDescriptor<Entity>(predicate:sortBy:)`
    /// and `Query(filter:sort:order:)` with their sort descriptors (`FetchDescriptor<Entity>()`: every object).
    /// `entity` names the model when the text does not. Foundation's spellings of string options and values, and
    /// pq's own spellings where Swift has none, are read too (see `SwiftPredicateParser+Foundation`).
    /// `constants` gives captured names a value (a literal, a list) instead of a parameter.
    public static func parse(_ text: String, entity: String? = nil, constants: [String: Expr] = [:]) -> Result {
        let (tokens, _) = SwiftSourceScanner.scan(Array(text.utf8))
        // `FetchDescriptor<T>(predicate: …, sortBy: […])` or `@Query(filter:sort:order:)`: the predicate and the sort.
        if let first = tokens.first, first.text == "FetchDescriptor" || first.text == "Query",
            first.kind == .identifier || first.kind == .attribute
        {
            var finder = SwiftQuerySiteFinder(tokens: tokens, sourceLength: text.utf8.count)
            guard let site = finder.sites().first else {
                // `FetchDescriptor<Budget>()`: every object.
                let words = tokens.map(\.text)
                if first.text == "FetchDescriptor", words.suffix(2) == ["(", ")"],
                    words.count == 3 || (words.count == 6 && words[1] == "<" && words[3] == ">")
                {
                    let entity =
                        words.count == 6
                        ? Name(tokens[2].text, span: SourceSpan(start: tokens[2].start, end: tokens[2].end)) : nil
                    return Result(query: Query(entity: entity), capturedNames: [], diagnostics: [])
                }
                let span = SourceSpan(start: first.start, end: first.end)
                return Result(
                    query: nil, capturedNames: [],
                    diagnostics: [.error(.swiftSyntax, "expected a predicate or sort descriptors in the call", at: span)])
            }
            return Result(
                query: site.diagnostics.containsErrors ? nil : site.query, capturedNames: site.capturedNames,
                diagnostics: site.diagnostics)
        }
        var parser = SwiftPredicateParser(tokens: tokens, range: 0..<tokens.count, sourceLength: text.utf8.count)
        parser.scopes = [constants.mapValues { .value($0) }]
        let query = parser.parseWhole(entity: entity)
        return Result(
            query: parser.diagnostics.containsErrors ? nil : query, capturedNames: parser.capturedNames,
            diagnostics: parser.diagnostics)
    }
}
