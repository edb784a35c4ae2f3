// The predicates and expressions a site may evaluate and pq can follow (see
// `SwiftPredicateParser+Evaluate`): `let name = #Predicate<T> { … }` or
// `#Expression<T, Bool> { … }` declared in a block that holds the site — the same
// function, an enclosing one, the type or the file — the nearest one before the
// site, else one after it (a type's member may be declared below its use).

import PredicateQuery

extension SwiftQuerySiteFinder {
    /// For each name `evaluate` is called on in `range`, the tokens of the closure of the
    /// predicate or expression it names, where one is declared in scope.
    func followablePredicates(calledIn range: Range<Int>) -> [String: Range<Int>] {
        var followable: [String: Range<Int>] = [:]
        for index in range.dropFirst(2) where tokens[index].isWord("evaluate") && isPunctuation(".", at: index - 1) {
            let receiver = tokens[index - 2]
            guard receiver.kind == .identifier, followable[receiver.text] == nil,
                let declaration = scopedDeclaration(of: receiver.text, at: index),
                let closure = declaredClosure(after: declaration),
                !closure.overlaps(range)
            else { continue }
            followable[receiver.text] = closure
        }
        return followable
    }

    /// The nearest declaration of `name` in scope at `use`: before it, else after it.
    private func scopedDeclaration(of name: String, at use: Int) -> Int? {
        if let before = nearestDeclaration(of: name, before: use) { return before }
        return declaredNames[name]?.first { $0 > use && isInScope($0, at: use) }
    }

    /// The tokens `{ … }` of `name = #Predicate<…> { … }` or `#Expression<…> { … }` whose name is at
    /// `declaration`.
    private func declaredClosure(after declaration: Int) -> Range<Int>? {
        var index = declaration + 1
        guard isPunctuation("=", at: index), index + 1 < tokens.count else { return nil }
        index += 1
        let pound = tokens[index]
        guard pound.kind == .pound, pound.text == "Predicate" || pound.text == "Expression" else { return nil }
        index += 1
        if isPunctuation("<", at: index), let close = closing(index) { index = close + 1 }
        guard isPunctuation("{", at: index), index < braceClosers.count, braceClosers[index] > index else { return nil }
        return index..<braceClosers[index] + 1
    }
}
