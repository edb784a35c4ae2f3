// Sort keys of a query site: `\Trip.name`, `\.budget?.name`,
// `SortDescriptor(\.start, order: .reverse)` and arrays of them.
//
// A descriptor's string comparator gives the key's options:
// `comparator: .localizedStandard` is `[cd]`, `.lexical` none, and pq's own
// `comparator: String.Comparator(options: [.caseInsensitive])` any of `[c]`, `[d]`,
// `[cd]` (SwiftData's SortDescriptor takes only a `String.StandardComparator`,
// so `pq lint` reports that one). Which comparator each key was written with
// is kept (`comparators`), for the lint's warnings where SwiftData sorts
// differently from pq.

import PredicateQuery

extension SwiftQuerySiteFinder {
    /// The sort keys written in `range`; a key path's root type, if written, names the entity.
    mutating func sortKeys(
        _ range: Range<Int>, defaultAscending: Bool, entity: inout Name?, diagnostics: inout [Diagnostic]
    ) -> [SortKey] {
        var keys: [SortKey] = []
        var index = range.lowerBound
        while index < range.upperBound {
            let token = tokens[index]
            if token.kind == .identifier, token.text == "SortDescriptor", let close = descriptorEnd(index) {
                var open = index + 1
                if isPunctuation("<", at: open), let typeClose = closing(open) {
                    // `SortDescriptor<DBModel.Country>`: the type keeps its path, as written.
                    if entity == nil { entity = typeArgument(closingAt: typeClose, of: ["SortDescriptor"])?.name }
                    open = typeClose + 1
                }
                let ascending = !(open..<close).contains { tokens[$0].isWord("reverse") }
                if let slash = (open..<close).first(where: { tokens[$0].isPunctuation("\\") }),
                    var key = keyPath(at: slash, ascending: ascending, entity: &entity)
                {
                    let comparator = self.comparator(in: open + 1..<close)
                    key.options = comparator.options
                    comparators[key.span] = comparator.kind
                    keys.append(key)
                } else {
                    diagnostics.append(
                        .warning(
                            .swiftUnsupported, "pq reads sort descriptors made from a key path only; this one is not checked",
                            at: span(index)))
                }
                index = close + 1
            } else if token.isPunctuation("\\"), let key = keyPath(at: index, ascending: defaultAscending, entity: &entity) {
                keys.append(key)
                index += 1
            } else {
                index += 1
            }
        }
        return keys
    }

    /// How a `SortDescriptor` compares strings, as written.
    enum Comparator: Sendable {
        /// No comparator: SwiftData's `.localizedStandard` for a String.
        case omitted
        case localizedStandard, localized, lexical
        /// pq's `String.Comparator(options:)`.
        case options
        /// A comparator pq does not read, such as a captured one.
        case other
    }

    /// The `comparator:` argument among the descriptor's tokens, and the options pq reads it as.
    mutating func comparator(in range: Range<Int>) -> (kind: Comparator, options: StringOptions) {
        guard let label = range.first(where: { tokens[$0].isWord("comparator") && isPunctuation(":", at: $0 + 1) }) else {
            return (.omitted, [])
        }
        let start = label + 2
        guard start < range.upperBound else { return (.omitted, []) }
        if tokens[start].isPunctuation("."), start + 1 < range.upperBound, tokens[start + 1].kind == .identifier {
            switch tokens[start + 1].text {
            case "localizedStandard": return (.localizedStandard, [.caseInsensitive, .diacriticInsensitive])
            case "localized": return (.localized, [])
            default: return (.lexical, [])
            }
        }
        // `String.Comparator(options: [.caseInsensitive, .diacriticInsensitive])`; any other comparator
        // (a captured one) is not read: the key sorts plainly, without a warning.
        let isStringComparator =
            (tokens[start].isWord("String") && isPunctuation(".", at: start + 1) && start + 2 < range.upperBound
                && tokens[start + 2].isWord("Comparator")) || tokens[start].isWord("Comparator")
        guard isStringComparator else { return (.other, []) }
        var options = StringOptions()
        for index in start..<range.upperBound where tokens[index].kind == .identifier {
            if tokens[index].text == "caseInsensitive" { options.insert(.caseInsensitive) }
            if tokens[index].text == "diacriticInsensitive" { options.insert(.diacriticInsensitive) }
        }
        foreignSorts.append(span(start).merged(with: span(range.upperBound - 1)))
        return (.options, options)
    }

    /// `\Type.a?.b` or `\.a.b` at `slash`.
    func keyPath(at slash: Int, ascending: Bool, entity: inout Name?) -> SortKey? {
        var index = slash + 1
        if index < tokens.count, tokens[index].kind == .identifier, tokens[index].start == tokens[slash].end {
            // `\DBModel.Country.name`: a type nested in another (the name keeps its path, as written);
            // Swift's types are capitalised, properties not.
            let first = index
            var written = tokens[index].text
            while index + 2 < tokens.count, tokens[index + 1].isPunctuation("."), tokens[index + 2].kind == .identifier,
                tokens[index + 2].text.first?.isUppercase == true
            {
                index += 2
                written += "." + tokens[index].text
            }
            if entity == nil { entity = Name(written, span: span(first).merged(with: span(index))) }
            index += 1
        }
        var components: [PathComponent] = []
        var end = span(slash)
        while index + 1 < tokens.count {
            if tokens[index].isPunctuation("!") || (tokens[index].isPunctuation("?") && !isPunctuation(".", at: index + 1)) {
                index += 1
                continue
            }
            var optional = false
            var dot = index
            if tokens[index].isPunctuation("?") {
                optional = true
                dot += 1
            }
            guard dot + 1 < tokens.count, tokens[dot].isPunctuation("."), tokens[dot + 1].kind == .identifier else { break }
            components.append(
                PathComponent(tokens[dot + 1].text, optionalChained: optional && !components.isEmpty, span: span(dot + 1)))
            end = span(dot + 1)
            index = dot + 2
        }
        guard !components.isEmpty else { return nil }
        let whole = span(slash).merged(with: end)
        return SortKey(PropertyPath(root: .object, components, span: whole), ascending: ascending, span: whole)
    }
}
