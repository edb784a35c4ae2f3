// Finds the places a SwiftData app writes queries, in one file's tokens.
//
// `@Query(filter: #Predicate<T> { … }, sort: \.x, order: .reverse) var xs: [T]`,
// `Query(…)`, `FetchDescriptor<T>(predicate: …, sortBy: [SortDescriptor(\.x)])`,
// a `#Predicate` on its own (`let p = #Predicate<T> { … }`) and a
// `SortDescriptor(\T.x)` on its own. Each becomes a `Query`: the entity from the
// predicate's type, the descriptor's type, a key path's root type or the
// property an `@Query` wraps; the filter read by `SwiftPredicateParser`; the
// sort keys from key paths.

import PredicateQuery

/// The query sites of one file.
struct SwiftQuerySiteFinder {
    struct Found {
        var kind: String
        var span: SourceSpan
        /// The whole site as written (`#Predicate<T> { … }`), where it is more than its first token.
        var extent: SourceSpan?
        var query: Query?
        var diagnostics: [Diagnostic]
        var capturedNames: [String] = []
        /// What pq reads but Foundation's `#Predicate` or `SortDescriptor` does not accept.
        var foreignSpellings: [SwiftPredicateParser.ForeignSpelling] = []
        /// The comparator each sort key's descriptor was written with, by the key's span.
        var comparators: [SourceSpan: Comparator] = [:]
        /// The captured predicates whose `evaluate(…)` the closure calls (with `acceptsEvaluate`), unread.
        var evaluated: [String] = []
        /// The model type as written between `<` and `>`, when it is a dotted name (`DBModel.Country`).
        var writtenType: [String] = []
        /// The index of the site's first token.
        var token = 0
        /// The generic declarations around the site, innermost first (`AnySortDescriptor<Compared>`): a model
        /// type named after one of their parameters is that parameter, known only where the code is used. Filled
        /// in (`genericDeclarations(around:)`) only for a site whose model is not found, to say why.
        var genericScope: [GenericDeclaration] = []
    }

    /// A declaration with generic parameters: `struct Query<T: PersistentModel>`, `func f<T>(…)`.
    struct GenericDeclaration: Equatable {
        var name: String
        var parameters: [String]
        /// `Query<T>`.
        var description: String { "\(name)<\(parameters.joined(separator: ", "))>" }
    }

    let tokens: [SwiftToken]
    let sourceLength: Int
    /// Token indices already read as part of a call.
    private var consumed: Set<Int> = []
    /// Sort keys' comparators, by key span, as `sortKeys` reads them.
    var comparators: [SourceSpan: Comparator] = [:]
    /// `String.Comparator(options:)` arguments read by `sortKeys`.
    var foreignSorts: [SourceSpan] = []
    /// Read `p.evaluate(…)` as SwiftData does (`pq lint`), not as an error (see `SwiftPredicateParser`).
    var acceptsEvaluate = false
    /// The app's methods that take a predicate of a generic model type (`pq lint`).
    var predicateMethods = SwiftPredicateMethods(files: [])

    /// The token index of each `var name` or `let name`'s name, by name, in order: where context
    /// inference looks declarations up (`SwiftQuerySiteFinder+Context`).
    let declaredNames: [String: [Int]]
    /// For each token, the index of the innermost `{` before it that is not yet closed (-1 at the top level).
    let enclosingBraces: [Int]
    /// For each `{`, the index of its `}` (-1 for other tokens, or when it is never closed).
    let braceClosers: [Int]

    init(tokens: [SwiftToken], sourceLength: Int) {
        self.tokens = tokens
        self.sourceLength = sourceLength
        var declared: [String: [Int]] = [:]
        for index in tokens.indices.dropFirst() where tokens[index].kind == .identifier {
            if tokens[index - 1].isWord("var") || tokens[index - 1].isWord("let") {
                declared[tokens[index].text, default: []].append(index)
            }
        }
        declaredNames = declared
        var enclosing = Array(repeating: -1, count: tokens.count)
        var closers = Array(repeating: -1, count: tokens.count)
        var open: [Int] = []
        for (index, token) in tokens.enumerated() {
            enclosing[index] = open.last ?? -1
            if token.isPunctuation("{") { open.append(index) }
            if token.isPunctuation("}"), let opener = open.popLast() { closers[opener] = index }
        }
        enclosingBraces = enclosing
        braceClosers = closers
    }

    func span(_ index: Int) -> SourceSpan { SourceSpan(start: tokens[index].start, end: tokens[index].end) }

    func isPunctuation(_ text: String, at index: Int) -> Bool { index < tokens.count && tokens[index].isPunctuation(text) }

    /// The index of the bracket closing the one at `open`, or nil.
    func closing(_ open: Int) -> Int? {
        let pairs = ["(": ")", "[": "]", "{": "}", "<": ">"]
        guard open < tokens.count, let closer = pairs[tokens[open].text] else { return nil }
        let opener = tokens[open].text
        var level = 0
        var index = open
        while index < tokens.count {
            if tokens[index].isPunctuation(opener) { level += 1 }
            if tokens[index].isPunctuation(closer) {
                level -= 1
                if level == 0 { return index }
            }
            index += 1
        }
        return nil
    }

    mutating func sites() -> [Found] {
        var found: [Found] = []
        var index = 0
        while index < tokens.count {
            let token = tokens[index]
            let isQuery = (token.kind == .attribute || token.kind == .identifier) && token.text == "Query"
            let isFetch = token.kind == .identifier && token.text == "FetchDescriptor"
            if (isQuery || isFetch), !consumed.contains(index),
                var site = call(at: index, kind: isQuery ? "@Query" : "FetchDescriptor")
            {
                site.token = index
                found.append(site)
            } else if token.kind == .pound, token.text == "Predicate", !consumed.contains(index) {
                let end = predicateEnd(from: index)
                var site = predicate(from: index, to: end, kind: "#Predicate")
                if site.query != nil, site.query?.entity == nil {
                    site.query?.entity = contextType(of: index, wrappers: ["Predicate"]) ?? methodArgumentType(of: index)
                    if site.query?.entity == nil, let (name, path) = initializerArgumentType(of: index) {
                        site.query?.entity = name
                        if path.count > 1 { site.writtenType = path }
                    }
                }
                site.token = index
                found.append(site)
            } else if token.kind == .identifier, token.text == "SortDescriptor", !consumed.contains(index),
                let close = descriptorEnd(index)
            {
                var query = Query()
                var diagnostics: [Diagnostic] = []
                query.sortKeys = sortKeys(
                    index..<close + 1, defaultAscending: true, entity: &query.entity, diagnostics: &diagnostics)
                if query.entity != nil {
                    var site = Found(kind: "SortDescriptor", span: span(index), query: query, diagnostics: diagnostics)
                    site.token = index
                    takeSortNotes(into: &site)
                    found.append(site)
                }
                comparators = [:]
                foreignSorts = []
                index = close
            }
            index += 1
        }
        return found.sorted { $0.span.start < $1.span.start }
    }

    /// The declarations with generic parameters whose bodies hold the token at `index`, innermost first: for
    /// each enclosing `{`, the declaration written before it (`struct Query<T: PersistentModel> {`,
    /// `init<Value>(…) where … {`), read back to the previous brace.
    func genericDeclarations(around index: Int) -> [GenericDeclaration] {
        let keywords: Set<String> = ["struct", "class", "enum", "actor", "func", "init", "subscript"]
        var found: [GenericDeclaration] = []
        var brace = enclosingBrace(of: index)
        var blocks = 0
        while let open = brace, blocks < 64 {
            blocks += 1
            var start = open
            while start > 0, open - start < 512, !tokens[start - 1].isPunctuation("{"), !tokens[start - 1].isPunctuation("}") {
                start -= 1
            }
            var keyword = start
            while keyword < open {
                let token = tokens[keyword]
                if token.kind == .identifier, !token.isEscaped, keywords.contains(token.text),
                    keyword + 1 < open, !keywords.contains(tokens[keyword + 1].text)
                {
                    break
                }
                keyword += 1
            }
            if keyword < open {
                let name = tokens[keyword].isWord("init") ? "init" : tokens[min(keyword + 1, open)].text
                var less = tokens[keyword].isWord("init") ? keyword + 1 : keyword + 2
                if less < open, tokens[less].isPunctuation("?") || tokens[less].isPunctuation("!") { less += 1 }
                if less < open, tokens[less].isPunctuation("<"), let greater = closing(less), greater < open {
                    var parameters: [String] = []
                    var depth = 0
                    for position in less..<greater {
                        let token = tokens[position]
                        if token.isPunctuation("<") { depth += 1 }
                        if token.isPunctuation(">") { depth -= 1 }
                        if depth == 1, token.isPunctuation("<") || token.isPunctuation(","),
                            position + 1 < greater, tokens[position + 1].kind == .identifier
                        {
                            parameters.append(tokens[position + 1].text)
                        }
                    }
                    if !parameters.isEmpty { found.append(GenericDeclaration(name: name, parameters: parameters)) }
                }
            }
            brace = enclosingBrace(of: open)
        }
        return found
    }

    /// `DBModel.Country` after the `<` at `open`: its components, or nothing if it is not a dotted name.
    func dottedType(after open: Int) -> [String] {
        var path: [String] = []
        var index = open + 1
        while index < tokens.count, tokens[index].kind == .identifier {
            path.append(tokens[index].text)
            guard isPunctuation(".", at: index + 1) else { break }
            index += 2
        }
        return path
    }

    /// The token after a `#Predicate<T> { … }` starting at `start`.
    func predicateEnd(from start: Int) -> Int {
        var index = start + 1
        if isPunctuation("<", at: index), let close = closing(index) { index = close + 1 }
        if isPunctuation("(", at: index), let close = closing(index) { return close + 1 }
        if isPunctuation("{", at: index), let close = closing(index) { return close + 1 }
        return index
    }

    /// Reads `#Predicate` tokens `start..<end` into a query.
    mutating func predicate(from start: Int, to end: Int, kind: String) -> Found {
        for index in start..<end { consumed.insert(index) }
        var parser = SwiftPredicateParser(tokens: tokens, range: start..<end, sourceLength: sourceLength)
        parser.acceptsEvaluate = acceptsEvaluate
        if acceptsEvaluate { parser.followable = followablePredicates(calledIn: start..<end) }
        let query = parser.parseWhole(entity: nil)
        return Found(
            kind: kind, span: span(start), extent: end > start ? span(start).merged(with: span(end - 1)) : nil, query: query,
            diagnostics: parser.diagnostics, capturedNames: parser.capturedNames,
            foreignSpellings: parser.foreignSpellings, evaluated: parser.evaluated,
            writtenType: isPunctuation("<", at: start + 1) ? dottedType(after: start + 1) : [])
    }

    /// `SortDescriptor(…)` or `SortDescriptor<T>(…)`: the index of its `)`.
    func descriptorEnd(_ index: Int) -> Int? {
        var open = index + 1
        if isPunctuation("<", at: open), let close = closing(open) { open = close + 1 }
        guard isPunctuation("(", at: open) else { return nil }
        return closing(open)
    }

    /// `@Query(…)`, `Query<T, U>(…)` or `FetchDescriptor<T>(…)` at `index`.
    mutating func call(at index: Int, kind: String) -> Found? {
        var entity: Name?
        var open = index + 1
        var writtenType: [String] = []
        if isPunctuation("<", at: open), let close = closing(open) {
            if let type = (open + 1..<close).first(where: { tokens[$0].kind == .identifier }) {
                writtenType = dottedType(after: open)
                entity = Name(writtenType.last ?? tokens[type].text, span: span(type))
            }
            open = close + 1
        }
        guard isPunctuation("(", at: open), let close = closing(open) else { return nil }
        for position in index...close { consumed.insert(position) }
        var query = Query()
        var diagnostics: [Diagnostic] = []
        var ascending = true
        var sortRange: Range<Int>?
        var captured: [String] = []
        var foreign: [SwiftPredicateParser.ForeignSpelling] = []
        var evaluated: [String] = []
        for (label, range) in arguments(open + 1..<close) {
            switch label {
            case "filter", "predicate":
                guard let pound = range.first(where: { tokens[$0].kind == .pound && tokens[$0].text == "Predicate" }) else {
                    // `FetchDescriptor(predicate: p)`: the model of the predicate `p` declared before.
                    if entity == nil, range.count == 1, tokens[range.lowerBound].kind == .identifier {
                        entity = declaredPredicateType(tokens[range.lowerBound].text, before: range.lowerBound)
                    }
                    continue
                }
                let read = predicate(from: pound, to: predicateEnd(from: pound), kind: kind)
                query.predicate = read.query?.predicate
                if entity == nil, let named = read.query?.entity {
                    entity = named
                    writtenType = read.writtenType
                }
                diagnostics += read.diagnostics
                captured = read.capturedNames
                foreign = read.foreignSpellings
                evaluated = read.evaluated
            case "sort", "sortBy":
                sortRange = range
            case "order":
                ascending = !range.contains { tokens[$0].isWord("reverse") }
            default:
                break
            }
        }
        if let sortRange {
            query.sortKeys = sortKeys(sortRange, defaultAscending: ascending, entity: &entity, diagnostics: &diagnostics)
        }
        // `@Query(…) var trips: [Trip]`: the element type of the wrapped property.
        if entity == nil, kind == "@Query" { entity = wrappedElementType(after: close) ?? wrappedPropertyType(assignedAt: index) }
        // `let d: FetchDescriptor<Trip> = FetchDescriptor(…)`, `return FetchDescriptor(…)` in `-> FetchDescriptor<Trip>`.
        if entity == nil, kind == "FetchDescriptor" { entity = contextType(of: index, wrappers: ["FetchDescriptor"]) }
        query.entity = entity
        var site = Found(
            kind: kind, span: span(index), query: query, diagnostics: diagnostics, capturedNames: captured,
            foreignSpellings: foreign, evaluated: evaluated, writtenType: writtenType)
        takeSortNotes(into: &site)
        if query.predicate == nil, query.sortKeys.isEmpty, diagnostics.isEmpty { return nil }
        return site
    }

    /// Moves what `sortKeys` noted (comparators, `String.Comparator`) into the site.
    mutating func takeSortNotes(into site: inout Found) {
        site.comparators = comparators
        site.foreignSpellings += foreignSorts.map {
            SwiftPredicateParser.ForeignSpelling(
                span: $0, what: "'String.Comparator(options:)' (pq's spelling of a [c] or [d] sort)",
                advice: "SortDescriptor takes .localizedStandard, .localized or .lexical")
        }
        comparators = [:]
        foreignSorts = []
    }

    /// The labelled arguments of a call, split at top-level commas.
    func arguments(_ range: Range<Int>) -> [(label: String?, range: Range<Int>)] {
        var result: [(String?, Range<Int>)] = []
        var start = range.lowerBound
        var index = range.lowerBound
        func finish(_ end: Int) {
            guard start < end else { return }
            if start + 1 < end, tokens[start].kind == .identifier, tokens[start + 1].isPunctuation(":") {
                result.append((tokens[start].text, start + 2..<end))
            } else {
                result.append((nil, start..<end))
            }
        }
        while index < range.upperBound {
            if ["(", "[", "{"].contains(where: { tokens[index].isPunctuation($0) }), let close = closing(index) {
                index = close + 1
                continue
            }
            if tokens[index].isPunctuation(",") {
                finish(index)
                start = index + 1
            }
            index += 1
        }
        finish(range.upperBound)
        return result
    }
}
