// Foundation's spellings of pq's string options, and pq's own spellings of the
// forms Swift has no method for.
//
// Foundation writes a `[c]`/`[d]` comparison as a call that gives a
// `ComparisonResult` (`a.caseInsensitiveCompare(b) == .orderedSame`,
// `a.compare(b, options: [.caseInsensitive, .diacriticInsensitive]) == .orderedAscending`)
// and a string test with options as `a.range(of: b, options: […]) != nil`
// (`.anchored` for BEGINSWITH, `.anchored` and `.backwards` for ENDSWITH). Such a
// call is held aside (`pending`) until the comparison around it says what it
// tests, then becomes the node the text language gives. Where Swift has no
// spelling at all pq defines one that reads as Swift: `title.like("How*")`,
// `code.matches("\\w+", options: .caseInsensitive)`, `transactions.sum(\.amount)`,
// `avg`, `min`, `max`. `#Predicate` accepts none of pq's own spellings, nor
// `compare(_:options:)` or `range(of:options:)`: each use is recorded
// (`foreignSpellings`) so `pq lint` can say so when they appear in an app.

import PredicateQuery

extension SwiftPredicateParser {
    /// A call whose result only means something once compared.
    enum Pending {
        /// `a.compare(b, options:)`: a `ComparisonResult`.
        case comparison(Expr, Expr, StringOptions)
        /// `a.range(of: b, options:)`: nil when `b` is not found.
        case range(StringOperator, Expr, Expr, StringOptions)
    }

    /// Something written in the closure that Foundation's `#Predicate` does not accept, though pq reads it.
    struct ForeignSpelling: Sendable {
        var span: SourceSpan
        /// What it is, as in "'like(_:)'".
        var what: String
        /// What to write instead in an app.
        var advice: String
        /// Whether it is pq's own spelling (`like`, `sum(\.x)`), rather than a
        /// Swift method the macro rejects (`hasSuffix(_:)`).
        var isPQSpelling = true
    }

    mutating func noteForeign(_ span: SourceSpan, _ what: String, advice: String, isPQSpelling: Bool = true) {
        foreignSpellings.append(ForeignSpelling(span: span, what: what, advice: advice, isPQSpelling: isPQSpelling))
    }

    /// Swift methods pq reads in a closure that Foundation's `#Predicate` macro
    /// rejects ("The hasSuffix(_:) function is not supported in this predicate",
    /// Swift 6.3's macro), with what to write in an app instead.
    static let methodsTheMacroRejects: [String: String] = [
        "hasPrefix": "use starts(with:)",
        "hasSuffix":
            "#Predicate has no suffix test: filter the fetched objects in Swift, or test a stored reversed copy with starts(with:)",
        "localizedCaseInsensitiveContains": "use localizedStandardContains(_:), which ignores diacritics too",
        "addingTimeInterval":
            "compute the date before the closure and capture it: let since = Date.now.addingTimeInterval(-86_400)",
    ]

    /// Records `name` when it is a method the macro rejects (`methodsTheMacroRejects`).
    mutating func noteIfTheMacroRejects(_ name: SwiftToken) {
        guard let advice = Self.methodsTheMacroRejects[name.text] else { return }
        noteForeign(span(of: name), "'\(name.text)(_:)'", advice: advice, isPQSpelling: false)
    }

    /// `caseInsensitiveCompare(_:)` and `compare(_:options:)`.
    mutating func compareCall(_ name: SwiftToken, on receiver: Expr) throws(Failure) -> Expr {
        _ = try expect("(", "'(' after '\(name.text)'")
        let other = try parseNested()
        var options: StringOptions = name.text == "caseInsensitiveCompare" ? [.caseInsensitive] : []
        if name.text == "compare" {
            noteForeign(
                span(of: name), "'compare(_:options:)'",
                advice: "use caseInsensitiveCompare(_:) for a case-insensitive comparison, or compare a normalized stored copy")
            if isPunctuation(",") {
                advance()
                options = try optionsArgument(method: name.text).options
            }
        }
        let close = try expect(")", "')' to end the call to '\(name.text)'")
        let span = receiver.span.merged(with: close)
        pending[span] = .comparison(receiver, other, options)
        return Expr(.invalid, span: span)
    }

    /// `range(of:options:)`: a string test, once compared with nil.
    mutating func rangeCall(_ name: SwiftToken, on receiver: Expr) throws(Failure) -> Expr {
        _ = try expect("(", "'(' after 'range'")
        guard isWord("of"), isPunctuation(":", at: 1) else {
            throw fail("expected 'of:' in the call to 'range'", at: currentSpan)
        }
        advance()
        advance()
        let other = try parseNested()
        var read = (options: StringOptions(), anchored: false, backwards: false)
        if isPunctuation(",") {
            advance()
            read = try optionsArgument(method: "range")
        }
        let close = try expect(")", "')' to end the call to 'range'")
        noteForeign(
            span(of: name), "'range(of:options:)'",
            advice: "use contains(_:), starts(with:) or localizedStandardContains(_:)")
        let op: StringOperator = read.anchored ? (read.backwards ? .endsWith : .beginsWith) : .contains
        let span = receiver.span.merged(with: close)
        pending[span] = .range(op, receiver, other, read.options)
        return Expr(.invalid, span: span)
    }

    /// pq's `like(_:options:)` and `matches(_:options:)`: `op`'s own method (`StringOperator.PQSwiftMethod`).
    mutating func patternCall(_ name: SwiftToken, _ op: StringOperator, on receiver: Expr) throws(Failure) -> Expr {
        _ = try expect("(", "'(' after '\(name.text)'")
        let pattern = try parseNested()
        var options = StringOptions()
        if isPunctuation(",") {
            advance()
            options = try optionsArgument(method: name.text).options
        }
        let close = try expect(")", "')' to end the call to '\(name.text)'")
        noteForeign(
            span(of: name), "'\(name.text)(_:)' (pq's spelling of \(op.keyword.uppercased()))",
            advice: op.definition.pqSwiftMethod?.advice ?? "")
        return Expr(.stringTest(op, receiver, pattern, options), span: receiver.span.merged(with: close))
    }

    /// pq's `sum(\.amount)`, `avg(\.amount)`, `min(\.date)`, `max(\.amount)` over a to-many relationship.
    mutating func aggregateCall(_ name: SwiftToken, on receiver: Expr) throws(Failure) -> Expr {
        let function = AggregateFunction(rawValue: name.text) ?? .sum
        _ = try expect("(", "'(' after '\(name.text)'")
        guard isPunctuation("\\") else {
            throw fail("expected a key path such as '\\.amount' in the call to '\(name.text)'", at: currentSpan)
        }
        advance()
        var components: [PathComponent] = []
        while isPunctuation(".") || (isPunctuation("?") && isPunctuation(".", at: 1)) {
            let optional = isPunctuation("?")
            if optional { advance() }
            advance()
            guard let member = token(), member.kind == .identifier else {
                throw fail("expected a property name in the key path", at: currentSpan)
            }
            advance()
            components.append(PathComponent(member.text, optionalChained: optional, span: span(of: member)))
        }
        guard !components.isEmpty else { throw fail("expected a key path such as '\\.amount'", at: currentSpan) }
        let close = try expect(")", "')' to end the call to '\(name.text)'")
        noteForeign(
            span(of: name), "'\(name.text)(_:)' (pq's spelling of @\(function.rawValue))",
            advice: "fetch the objects and compute the \(function == .avg ? "average" : function.rawValue) in Swift")
        return Expr(.aggregate(function, receiver, components), span: receiver.span.merged(with: close))
    }

    /// An argument in parentheses, with trailing closures allowed again.
    mutating func parseNested() throws(Failure) -> Expr {
        let saved = allowsTrailingClosure
        allowsTrailingClosure = true
        defer { allowsTrailingClosure = saved }
        return try parseExpression()
    }

    /// `options: .caseInsensitive` or `options: [.caseInsensitive, .diacriticInsensitive, .anchored, .backwards]`.
    mutating func optionsArgument(method: String) throws(Failure) -> (options: StringOptions, anchored: Bool, backwards: Bool) {
        guard isWord("options"), isPunctuation(":", at: 1) else {
            throw fail("expected 'options:' in the call to '\(method)'", at: currentSpan)
        }
        advance()
        advance()
        let value = try parseNested()
        let names: [Expr]
        if case .list(let elements) = value.kind { names = elements } else { names = [value] }
        var result = (options: StringOptions(), anchored: false, backwards: false)
        for name in names {
            guard case .enumCase(let option) = name.kind else {
                throw fail("expected options such as [.caseInsensitive, .diacriticInsensitive]", at: name.span)
            }
            switch option {
            case "caseInsensitive": result.options.insert(.caseInsensitive)
            case "diacriticInsensitive": result.options.insert(.diacriticInsensitive)
            case "anchored" where method == "range": result.anchored = true
            case "backwards" where method == "range": result.backwards = true
            default:
                throw fail(
                    "pq cannot read the option '.\(option)' here: it reads .caseInsensitive and .diacriticInsensitive\(method == "range" ? ", .anchored and .backwards" : "")",
                    at: name.span, code: .swiftUnsupported)
            }
        }
        return result
    }

    /// `a.compare(b) == .orderedSame`, `a.range(of: b) != nil`: the comparison they make, or nil.
    mutating func resolvePending(_ op: ComparisonOperator, _ lhs: Expr, _ rhs: Expr, span: SourceSpan) throws(Failure) -> Expr? {
        guard case .invalid = lhs.kind, let held = pending.removeValue(forKey: lhs.span) else { return nil }
        switch held {
        case .comparison(let a, let b, let options):
            let equal = op == .equal
            guard case .enumCase(let result) = rhs.kind, op == .equal || op == .notEqual else {
                throw fail(
                    "compare the result with == or != and .orderedSame, .orderedAscending or .orderedDescending", at: rhs.span)
            }
            let compared: ComparisonOperator
            switch result {
            case "orderedSame": compared = equal ? .equal : .notEqual
            case "orderedAscending": compared = equal ? .less : .greaterOrEqual
            case "orderedDescending": compared = equal ? .greater : .lessOrEqual
            default: throw fail("a ComparisonResult is .orderedSame, .orderedAscending or .orderedDescending", at: rhs.span)
            }
            return Expr(.comparison(compared, a, b, options), span: span)
        case .range(let stringOperator, let a, let b, let options):
            guard case .literal(.null) = rhs.kind, op == .equal || op == .notEqual else {
                throw fail("compare the range with nil: 'range(of:) != nil' tests that the string is found", at: rhs.span)
            }
            let test = Expr(.stringTest(stringOperator, a, b, options), span: span)
            return op == .notEqual ? test : Expr(.not(test), span: span)
        }
    }

    /// A `compare` or `range(of:)` whose result was never compared: reported at its span.
    mutating func reportUnresolved() {
        for (span, held) in pending.sorted(by: { $0.key.start < $1.key.start }) {
            let message =
                switch held {
                case .comparison:
                    "a ComparisonResult is not a test: compare it, as in 'a.caseInsensitiveCompare(b) == .orderedSame'"
                case .range: "a range is not a test: compare it with nil, as in 'a.range(of: b) != nil'"
                }
            diagnostics.append(.error(.swiftUnsupported, message, at: span))
        }
        pending = [:]
    }
}
