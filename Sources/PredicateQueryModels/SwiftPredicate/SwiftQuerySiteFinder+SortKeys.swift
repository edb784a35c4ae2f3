// Sort keys of a query site: `\Trip.name`, `\.budget?.name`,
// `SortDescriptor(\.start, order: .reverse)` and arrays of them.

import PredicateQuery

extension SwiftQuerySiteFinder {
    /// The sort keys written in `range`; a key path's root type, if written, names the entity.
    func sortKeys(
        _ range: Range<Int>, defaultAscending: Bool, entity: inout Name?, diagnostics: inout [Diagnostic]
    ) -> [SortKey] {
        var keys: [SortKey] = []
        var index = range.lowerBound
        while index < range.upperBound {
            let token = tokens[index]
            if token.kind == .identifier, token.text == "SortDescriptor", let close = descriptorEnd(index) {
                var open = index + 1
                if isPunctuation("<", at: open), let typeClose = closing(open) {
                    if entity == nil, let type = (open + 1..<typeClose).first(where: { tokens[$0].kind == .identifier }) {
                        entity = Name(tokens[type].text, span: span(type))
                    }
                    open = typeClose + 1
                }
                let ascending = !(open..<close).contains { tokens[$0].isWord("reverse") }
                if let slash = (open..<close).first(where: { tokens[$0].isPunctuation("\\") }),
                    let key = keyPath(at: slash, ascending: ascending, entity: &entity)
                {
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

    /// `\Type.a?.b` or `\.a.b` at `slash`.
    func keyPath(at slash: Int, ascending: Bool, entity: inout Name?) -> SortKey? {
        var index = slash + 1
        if index < tokens.count, tokens[index].kind == .identifier, tokens[index].start == tokens[slash].end {
            if entity == nil { entity = Name(tokens[index].text, span: span(index)) }
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
