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
//     scalars, so SwiftData (like pq) finds only values spelled the same way;
//   - `!=` (or `!(… == …)`) between a value that can be nil (an optional attribute,
//     or one reached through an optional to-one) and a value: in Swift and in pq `nil != "x"` is
//     true, but SwiftData's SQLite fetch runs SQL's `<>`, for which a NULL is not
//     different from anything, so it leaves those objects out (reported by
//     Douglas Hill, "NSPredicate: an old API with new surprises": a Core Data
//     fetch of `author != %@` missed every article without an author);
//   - `$0.budget?.transactions.count == 0`: Swift and pq take the count through a
//     nil `budget` as nil, so the test is false; SwiftData's SQL counts the rows
//     it joins, none, so 0 == 0 holds there.

import Foundation
import PredicateQuery

extension DiagnosticCode {
    /// pq's own spelling, which Foundation's `#Predicate` or `SortDescriptor` does not accept.
    public static let swiftNotInPredicate: DiagnosticCode = "swift.notInPredicate"
    /// A Swift method pq reads that Foundation's `#Predicate` macro rejects (`hasSuffix(_:)`).
    public static let swiftMethodNotInMacro: DiagnosticCode = "swift.methodNotInMacro"
    /// `SortDescriptor(\.text)` without a comparator: `.localizedStandard` in SwiftData, code point order in pq.
    public static let swiftSortDefaultComparator: DiagnosticCode = "swift.sortDefaultComparator"
    /// `comparator: .localizedStandard` or `.localized`: locale-aware, numeric in SwiftData; folded code points in pq.
    public static let swiftSortLocalized: DiagnosticCode = "swift.sortLocalized"
    /// A decomposed string literal: equal under Swift's `==`, not in the store.
    public static let swiftCanonicalEquivalence: DiagnosticCode = "swift.canonicalEquivalence"
    /// `x != value` where `x` can be nil: true in pq and Swift, left out by SwiftData's SQL.
    public static let swiftNilInequality: DiagnosticCode = "swift.nilInequality"
    /// `$0.budget?.transactions.count == 0`: nil in pq and Swift when `budget` is nil, 0 in SwiftData's SQL.
    public static let swiftToManyThroughNil: DiagnosticCode = "swift.toManyThroughNil"
}

/// The lint's warnings where SwiftData and pq answer differently.
enum SwiftDataDifferences {
    /// What pq reads that Foundation does not accept, as errors.
    static func foreign(_ spellings: [SwiftPredicateParser.ForeignSpelling]) -> [Diagnostic] {
        spellings.map { spelling in
            let owner = spelling.what.contains("Comparator") ? "SortDescriptor" : "#Predicate"
            return .error(
                spelling.isPQSpelling ? .swiftNotInPredicate : .swiftMethodNotInMacro,
                "SwiftData's \(owner) does not accept \(spelling.what)", at: spelling.span,
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
            case .lexical, .options, .other, nil:
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
                .stringTest(_, let a, let b, _), .membership(let a, let b, _), .coalesce(let a, let b):
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

    /// `!=` tests whose one side can be nil and whose other side is a value.
    static func nilInequalities(_ expr: Expr, schema: Schema, root: Entity) -> [Diagnostic] {
        var found: [Diagnostic] = []
        var resolver = MemberResolver(schema: schema, root: root)
        /// The paths a disjunction around the comparison being visited tests for nil (`x == nil || …`): where
        /// one is nil, that disjunction is true in Swift and in SQL alike, whatever `x != …` beside it says.
        var testedForNil: Set<NilTestedPath> = []
        /// The name of the side that can be nil, when the other is a value (not nil, and not nil-able itself),
        /// unless a nil test around it keeps the nil objects.
        func nilable(_ a: Expr, _ b: Expr) -> String? {
            for (side, other) in [(a, b), (b, a)] {
                if case .literal(.null) = other.kind { return nil }
                if let name = optionalPath(side, resolver), optionalPath(other, resolver) == nil {
                    guard case .keyPath(let path) = side.kind, !testedForNil.contains(NilTestedPath(path)) else { return nil }
                    return name
                }
            }
            return nil
        }
        /// `budget?.transactions.count` compared with 0 (or a value that can be 0), and the optional to-one it goes through.
        func countThroughNil(_ a: Expr, _ b: Expr) -> (String, String)? {
            for (side, other) in [(a, b), (b, a)] {
                guard case .aggregate(.count, let collection, let components) = side.kind, components.isEmpty,
                    case .keyPath(let path) = collection.kind, let step = optionalStep(path, resolver)
                else { continue }
                // nil and 0 differ only where 0 can be what the count is compared with.
                switch other.kind {
                case .literal(.integer(let value)) where value != 0: return nil
                case .literal(.decimal(let value)) where value != 0: return nil
                default: break
                }
                return (path.components.map(\.name).joined(separator: ".") + ".count", step)
            }
            return nil
        }
        func warning(_ name: String, negated: Bool, at span: SourceSpan) -> Diagnostic {
            let test = negated ? "!(\(name) == …)" : "\(name) != …"
            return .warning(
                .swiftNilInequality,
                "'\(name)' can be nil: pq (like Swift) counts nil as different from any value, but SwiftData's SQL fetch leaves out the objects whose '\(name)' is nil",
                at: span,
                notes: [DiagnosticNote("to keep them in SwiftData too, test nil yourself: \(name) == nil || \(test)")])
        }
        func visit(_ expr: Expr) {
            switch expr.kind {
            case .comparison(let op, let a, let b, _) where (op == .equal || op == .notEqual) && countThroughNil(a, b) != nil:
                if let (count, step) = countThroughNil(a, b) {
                    found.append(
                        .warning(
                            .swiftToManyThroughNil,
                            "'\(step)' can be nil: then pq (like Swift) takes '\(count)' as nil, so this test is \(op == .equal ? "false" : "true"), but SwiftData's SQL counts the rows it joins, none, and compares 0",
                            at: expr.span,
                            notes: [
                                DiagnosticNote("say what a missing '\(step)' means: '(\(count) ?? 0)' counts it as empty in both")
                            ]))
                }
            case .comparison(.notEqual, let a, let b, _):
                if let name = nilable(a, b) {
                    found.append(warning(name, negated: false, at: expr.span))
                }
            case .not(let inner):
                // `!($0.owner?.name == name)`: SQL's NOT of an unknown is unknown too.
                if case .comparison(.equal, let a, let b, _) = inner.kind, let name = nilable(a, b) {
                    found.append(warning(name, negated: true, at: expr.span))
                } else {
                    visit(inner)
                }
            case .comparison(_, let a, let b, _), .arithmetic(_, let a, let b), .stringTest(_, let a, let b, _),
                .membership(let a, let b, _), .coalesce(let a, let b), .range(let a, let b, _):
                visit(a)
                visit(b)
            case .or(let parts):
                let saved = testedForNil
                testedForNil.formUnion(parts.compactMap(NilTestedPath.init(nilTest:)))
                parts.forEach(visit)
                testedForNil = saved
            case .and(let parts), .list(let parts), .call(_, let parts): parts.forEach(visit)
            case .negate(let inner), .quantified(_, let inner), .isEmpty(let inner), .member(let inner, _),
                .aggregate(_, let inner, _):
                visit(inner)
            case .elementTest(_, let collection, let closure), .filter(let collection, let closure):
                visit(collection)
                let saved = resolver.variables
                let savedTests = testedForNil
                if case .keyPath(let path) = collection.kind, let (entity, _) = resolver.destination(of: path) {
                    resolver.variables[closure.variable] = entity
                }
                // A closure's variable is another object than the one a nil test outside it names.
                testedForNil = testedForNil.filter { $0.root != .variable(closure.variable) }
                visit(closure.body)
                resolver.variables = saved
                testedForNil = savedTests
            case .literal, .enumCase, .keyPath, .parameter, .invalid: break
            }
        }
        visit(expr)
        return found
    }

    /// A key path tested for nil (`$0.author == nil`), by its root and names.
    struct NilTestedPath: Hashable {
        var root: PropertyPath.Root
        var names: [String]

        init(_ path: PropertyPath) {
            root = path.root
            names = path.components.map(\.name)
        }

        /// The path `expr` compares with nil (`x == nil` or `nil == x`), or nil.
        init?(nilTest expr: Expr) {
            guard case .comparison(.equal, let a, let b, _) = expr.kind else { return nil }
            for (side, other) in [(a, b), (b, a)] {
                if case .literal(.null) = other.kind, case .keyPath(let path) = side.kind {
                    self.init(path)
                    return
                }
            }
            return nil
        }
    }

    /// The dotted name of a key path that can be nil (an optional attribute, or through an optional to-one), or nil.
    /// A relationship compared as itself (`budget != other`) is an object, not a value: left alone.
    static func optionalPath(_ expr: Expr, _ resolver: MemberResolver) -> String? {
        guard case .keyPath(let path) = expr.kind, resolver.attributeOptionality(of: path) == true else { return nil }
        return path.components.map(\.name).joined(separator: ".")
    }

    /// The optional to-one a path to a to-many relationship goes through, if any.
    static func optionalStep(_ path: PropertyPath, _ resolver: MemberResolver) -> String? {
        var entity: Entity?
        switch path.root {
        case .object: entity = resolver.root
        case .variable(let name): entity = resolver.variables[name]
        }
        var optional: String?
        for (position, component) in path.components.enumerated() {
            guard let current = entity,
                case .relationship(let relationship) = resolver.schema.property(named: component.name, of: current)
            else { return nil }
            if relationship.isToMany { return position == path.components.count - 1 ? optional : nil }
            if relationship.isOptional, optional == nil {
                optional = path.components[0...position].map(\.name).joined(separator: ".")
            }
            entity = resolver.schema.entity(named: relationship.destination)
        }
        return nil
    }
}
