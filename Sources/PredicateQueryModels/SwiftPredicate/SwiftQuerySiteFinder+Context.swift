// The model type of a query site that does not write it, from the code around
// it, as the compiler infers it:
//   - `let p: Predicate<Item> = #Predicate { … }` (a variable, a property, a
//     parameter's default value; `Predicate<Item>?` too);
//   - `return #Predicate { … }`, or a body that is only the predicate, in
//     `func f() -> Predicate<Item>` or `var p: Predicate<Item> { … }`;
//   - `p = #Predicate { … }` (or `self.p = …`) where `p` was declared before as
//     `var p: Predicate<Item>` (or `let`, given its value later) or
//     `var p = #Predicate<Item> { … }`, and `d = FetchDescriptor(…)` after
//     `var d: FetchDescriptor<Item>`;
//   - `descriptor.predicate = #Predicate { … }` where `descriptor` was declared
//     `FetchDescriptor<Item>` (`var d = FetchDescriptor<Item>(…)` or
//     `var d: FetchDescriptor<Item>`) earlier in the file;
//   - a `HistoryDescriptor<T>`'s predicate (argument or `descriptor.predicate =`): T, which
//     is no model, so the site is skipped with a reason that names it;
//   - `let d: FetchDescriptor<Item> = FetchDescriptor(predicate: …)`, and
//     `return FetchDescriptor(…)` in a function returning `FetchDescriptor<Item>`;
//   - `_items = Query(filter: …)` in an initializer, where the file declares
//     `@Query … var items: [Item]`;
//   - `FetchDescriptor(predicate: p)` where `p` was declared before in the file as
//     `let p = #Predicate<Item> { … }` or `let p: Predicate<Item>`;
//   - an argument of the app's own generic methods (`Query<Item>().include(#Predicate { … })`,
//     `Item.include(…)`), as `SwiftPredicateMethods` reads them;
//   - an argument of an initializer of the app's generic type that binds the type's
//     parameter from the call (`Publisher(Item.self, predicate: #Predicate { … })`,
//     `Publisher<Item>(predicate: …)`), as `SwiftPredicateMethods` reads them.
// Anything else is left unknown: `pq lint` skips the site and counts it.
// Declarations are looked up in the finder's index of `var`/`let` names and
// blocks in its table of braces, both built once per file; the search for a
// call's `(` is bounded (`lookBehind` tokens), so a file of many sites stays fast.

import PredicateQuery

extension SwiftQuerySiteFinder {
    /// How many tokens the search backwards for a call's `(` looks at.
    static let lookBehind = 20_000

    /// The type argument of `Wrapper<T>` ending at the `>` at `close`, if the tokens before it spell `wrapper`.
    func typeArgument(closingAt close: Int, of wrappers: Set<String>) -> (name: Name, open: Int)? {
        guard close > 0, tokens[close].isPunctuation(">"), let open = opening(close), open > 0,
            tokens[open - 1].kind == .identifier, wrappers.contains(tokens[open - 1].text),
            let type = (open + 1..<close).last(where: { tokens[$0].kind == .identifier })
        else { return nil }
        return (writtenName(endingAt: type), open - 1)
    }

    /// The type name that ends at the identifier at `type`, with the path written before it
    /// (`Beta.Item`, `SchemaV2.Trip`), as `#Predicate<…>` sites keep it.
    func writtenName(endingAt type: Int) -> Name {
        var first = type
        while first >= 2, tokens[first - 1].isPunctuation("."), tokens[first - 2].kind == .identifier { first -= 2 }
        let text = stride(from: first, through: type, by: 2).map { tokens[$0].text }.joined(separator: ".")
        return Name(text, span: span(first).merged(with: span(type)))
    }

    /// The `<` matching the `>` at `close`, looking backwards on the same nesting level.
    func opening(_ close: Int) -> Int? {
        var level = 0
        var index = close
        while index >= 0, close - index < 64 {
            if tokens[index].isPunctuation(">") { level += 1 }
            if tokens[index].isPunctuation("<") {
                level -= 1
                if level == 0 { return index }
            }
            if tokens[index].isPunctuation("{") || tokens[index].isPunctuation("}") { return nil }
            index -= 1
        }
        return nil
    }

    /// `: Wrapper<T>` or `-> Wrapper<T>` (optional or not) ending just before `end`.
    func annotation(endingBefore end: Int, of wrappers: Set<String>, arrow: Bool) -> Name? {
        var close = end - 1
        while close > 0, tokens[close].isPunctuation("?") || tokens[close].isPunctuation("!") { close -= 1 }
        guard let (name, wrapper) = typeArgument(closingAt: close, of: wrappers), wrapper > 0 else { return nil }
        var before = wrapper - 1
        // `Foundation.Predicate<T>`
        if before > 1, tokens[before].isPunctuation("."), tokens[before - 1].kind == .identifier { before -= 2 }
        if tokens[before].isPunctuation(":") { return name }
        if arrow, before > 0, tokens[before].isPunctuation(">"), tokens[before - 1].isPunctuation("-") { return name }
        return nil
    }

    /// The model type the context gives a value written at `start` of the type `Predicate<T>` or
    /// `FetchDescriptor<T>` (`wrappers`).
    func contextType(of start: Int, wrappers: Set<String>) -> Name? {
        guard start > 0 else { return nil }
        let before = start - 1
        // `HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { … })`: not a model, checked
        // against what Apple documents of a history transaction (`SwiftDataHistory`).
        if wrappers.contains("Predicate"), before >= 3, tokens[before].isPunctuation(":"), tokens[before - 1].isWord("predicate"),
            tokens[before - 2].isPunctuation("("),
            let (name, _) = typeArgument(closingAt: before - 3, of: ["HistoryDescriptor"])
        {
            return name
        }
        if tokens[before].isPunctuation("=") {
            // `let p: Predicate<T> = …`, `func f(p: Predicate<T> = …)`
            if let name = annotation(endingBefore: before, of: wrappers, arrow: false) { return name }
            // `descriptor.predicate = …`
            if wrappers.contains("Predicate"), before >= 3, tokens[before - 1].isWord("predicate"),
                tokens[before - 2].isPunctuation("."), tokens[before - 3].kind == .identifier,
                let name = declaredDescriptorType(tokens[before - 3].text, before: before - 3)
            {
                return name
            }
            // `predicate = …` (or `self.predicate = …`) after `var predicate: Predicate<T>` (or `let`, given its
            // value later), or after `var predicate = #Predicate<T> { … }`; `d = …` after `var d: FetchDescriptor<T>`.
            if before >= 1, tokens[before - 1].kind == .identifier, !tokens[before - 1].isEscaped {
                let isMember = before >= 2 && tokens[before - 2].isPunctuation(".")
                if !isMember || (before >= 3 && tokens[before - 3].isWord("self")) {
                    let variable = tokens[before - 1].text
                    if wrappers.contains("Predicate"), let name = declaredPredicateType(variable, before: before - 1) {
                        return name
                    }
                    if wrappers.contains("FetchDescriptor"), let name = declaredDescriptorType(variable, before: before - 1) {
                        return name
                    }
                }
            }
            return nil
        }
        // `return …`, or the only expression of a body: the function's or the property's type.
        let isReturned = tokens[before].isWord("return")
        guard isReturned || tokens[before].isPunctuation("{"), let body = enclosingBrace(of: start) else { return nil }
        return annotation(endingBefore: body, of: wrappers, arrow: true)
    }

    /// The `{` of the innermost block holding the token at `index`.
    func enclosingBrace(of index: Int) -> Int? {
        guard index >= 0, index < enclosingBraces.count, enclosingBraces[index] >= 0 else { return nil }
        return enclosingBraces[index]
    }

    /// The index of the name of the nearest `var name` or `let name` before `end` that is in scope there:
    /// declared at the top level or in a block that holds `end` (not in another function's body).
    func nearestDeclaration(of name: String, before end: Int) -> Int? {
        guard let indices = declaredNames[name] else { return nil }
        var low = 0
        var high = indices.count
        while low < high {
            let middle = (low + high) / 2
            if indices[middle] < end { low = middle + 1 } else { high = middle }
        }
        for declaration in indices[..<low].reversed().prefix(16) where isInScope(declaration, at: end) {
            return declaration
        }
        return nil
    }

    /// Whether the block the token at `declaration` is in also holds the token at `use`.
    func isInScope(_ declaration: Int, at use: Int) -> Bool {
        guard let block = enclosingBrace(of: declaration) else { return true }
        let close = braceClosers[block]
        return close < 0 || close > use
    }

    /// The model of `var name = FetchDescriptor<T>(…)` or `var name: FetchDescriptor<T>`, the nearest
    /// declaration of `name` before `end`.
    func declaredDescriptorType(_ name: String, before end: Int) -> Name? {
        guard let index = nearestDeclaration(of: name, before: end) else { return nil }
        var next = index + 1
        if isPunctuation(":", at: next) || isPunctuation("=", at: next) { next += 1 }
        let descriptors: Set<String> = ["FetchDescriptor", "HistoryDescriptor"]
        guard next + 1 < tokens.count, descriptors.contains(tokens[next].text), isPunctuation("<", at: next + 1),
            let close = closing(next + 1)
        else { return nil }
        return typeArgument(closingAt: close, of: descriptors)?.name
    }

    /// The model of `let name = #Predicate<T> …` or `let name: Predicate<T>`, the nearest declaration of
    /// `name` before `end`.
    func declaredPredicateType(_ name: String, before end: Int) -> Name? {
        guard let index = nearestDeclaration(of: name, before: end) else { return nil }
        let next = index + 1
        guard next + 2 < tokens.count else { return nil }
        if tokens[next].isPunctuation("="), tokens[next + 1].kind == .pound, tokens[next + 1].text == "Predicate",
            isPunctuation("<", at: next + 2), let close = closing(next + 2),
            let type = (next + 3..<close).last(where: { tokens[$0].kind == .identifier })
        {
            return writtenName(endingAt: type)
        }
        if tokens[next].isPunctuation(":"), tokens[next + 1].isWord("Predicate"), isPunctuation("<", at: next + 2),
            let close = closing(next + 2)
        {
            return typeArgument(closingAt: close, of: ["Predicate"])?.name
        }
        return nil
    }

    /// `_items = Query(…)`: the element type of the `var items: [T]` the file declares.
    func wrappedPropertyType(assignedAt query: Int) -> Name? {
        guard query >= 2, tokens[query - 1].isPunctuation("="), tokens[query - 2].kind == .identifier,
            tokens[query - 2].text.hasPrefix("_")
        else { return nil }
        let property = String(tokens[query - 2].text.dropFirst())
        // Declared before or after the initializer, in the type that holds it.
        for index in (declaredNames[property] ?? []).prefix(64) where tokens[index - 1].isWord("var") {
            if isInScope(index, at: query), let name = elementType(afterProperty: index) { return name }
        }
        return nil
    }

    /// `name: [T]` from the property name at `index`: T.
    func elementType(afterProperty index: Int) -> Name? {
        guard isPunctuation(":", at: index + 1), isPunctuation("[", at: index + 2), let close = closing(index + 2),
            let type = (index + 3..<close).last(where: { tokens[$0].kind == .identifier })
        else { return nil }
        return writtenName(endingAt: type)
    }

    /// `@Query(…) private(set) var items: [T]`: T, from the tokens after the call's `)` at `close`.
    func wrappedElementType(after close: Int) -> Name? {
        var index = close + 1
        while index < tokens.count, index < close + 8 {
            if tokens[index].isWord("var") { return elementType(afterProperty: index + 1) }
            index += 1
        }
        return nil
    }

    /// `receiver.name(#Predicate …)` with `name` one of the app's methods (`predicateMethods`): the model the
    /// receiver's type gives the predicate.
    func methodArgumentType(of start: Int) -> Name? {
        guard !predicateMethods.isEmpty, start >= 3, tokens[start - 1].isPunctuation("("),
            tokens[start - 2].kind == .identifier, tokens[start - 3].isPunctuation(".")
        else { return nil }
        var calls = [tokens[start - 2].text]
        var index = start - 4
        var root: SwiftPredicateMethods.Receiver?
        while index >= 0, root == nil {
            let token = tokens[index]
            if token.isPunctuation(")") {
                guard let open = openingParenthesis(index), open >= 1 else { return nil }
                let before = open - 1
                if tokens[before].isPunctuation(">"), let less = opening(before), less >= 1,
                    tokens[less - 1].kind == .identifier,
                    let argument = (less + 1..<before).last(where: { tokens[$0].kind == .identifier })
                {
                    // `Query<Item>(…)`: the root of the chain.
                    root = .generic(type: tokens[less - 1].text, argument: tokens[argument].text)
                } else if tokens[before].kind == .identifier, before >= 2, tokens[before - 1].isPunctuation(".") {
                    calls.append(tokens[before].text)
                    index = before - 2
                } else {
                    return nil
                }
            } else if token.kind == .identifier, token.text.first?.isUppercase == true,
                index == 0 || !tokens[index - 1].isPunctuation(".")
            {
                // `Item.include(…)`: a static method of the model type.
                root = .metatype(token.text)
            } else {
                return nil
            }
        }
        guard var receiver = root else { return nil }
        for (position, name) in calls.reversed().enumerated() {
            let (model, result) = predicateMethods.apply(name, to: receiver)
            if position == calls.count - 1 {
                return model.map { Name($0, span: span(start - 2)) }
            }
            guard let result else { return nil }
            receiver = result
        }
        return nil
    }

    /// `Publisher(Item.self, predicate: #Predicate { … })`, or `Publisher<Item>(predicate: …)`, where `Publisher` is
    /// one of the app's generic types whose initializer takes a `Predicate` of its parameter: the model the call
    /// binds, with its path when it is written dotted (`Schema.Item.self`).
    func initializerArgumentType(of start: Int) -> (name: Name, path: [String])? {
        // An argument: after `label:`, `(` or `,`.
        guard !predicateMethods.initializers.isEmpty, start >= 2,
            tokens[start - 1].isPunctuation(":") || tokens[start - 1].isPunctuation("(") || tokens[start - 1].isPunctuation(",")
        else { return nil }
        // The `(` of the call the predicate is an argument of; a statement's keyword outside any brackets means
        // the predicate is no argument.
        let statements: Set<String> = ["let", "var", "func", "return", "if", "guard", "case", "init", "struct", "class"]
        var level = 0
        var index = start - 1
        var open: Int?
        while index >= 0, start - index < Self.lookBehind {
            let token = tokens[index]
            if level == 0, token.kind == .identifier, !token.isEscaped, statements.contains(token.text) { return nil }
            if token.isPunctuation(")") || token.isPunctuation("]") || token.isPunctuation("}") { level += 1 }
            if token.isPunctuation("(") || token.isPunctuation("[") || token.isPunctuation("{") {
                if level == 0 {
                    open = token.isPunctuation("(") ? index : nil
                    break
                }
                level -= 1
            }
            index -= 1
        }
        guard let open, open >= 1, let close = closing(open) else { return nil }
        var type = open - 1
        var written: String?
        if tokens[type].isPunctuation(">"), let less = opening(type), less >= 1 {
            // One type argument, a name or a dotted path (`Publisher<Schema.Item>`); the type's first parameter.
            let argument = less + 1..<type
            guard !argument.isEmpty, argument.allSatisfy({ tokens[$0].kind == .identifier || tokens[$0].isPunctuation(".") })
            else { return nil }
            written = argument.filter { tokens[$0].kind == .identifier }.map { tokens[$0].text }.joined(separator: ".")
            type = less - 1
        }
        guard tokens[type].kind == .identifier else { return nil }
        let arguments = arguments(open + 1..<close)
        guard let position = arguments.firstIndex(where: { $0.range.contains(start) }) else { return nil }
        let metatypes = arguments.map { argument in (label: argument.label, metatype: metatypePath(argument.range)) }
        guard
            let model = predicateMethods.initializerModel(
                of: tokens[type].text, written: written,
                arguments: metatypes.map { ($0.label, $0.metatype?.joined(separator: ".")) }, predicateAt: position)
        else { return nil }
        let path = model.split(separator: ".").map(String.init)
        return (Name(path.last ?? model, span: span(type)), path)
    }

    /// `Item.self` or `Schema.Item.self` spanning `range`: the type's path.
    func metatypePath(_ range: Range<Int>) -> [String]? {
        guard range.count >= 3, range.count % 2 == 1, tokens[range.upperBound - 1].isWord("self") else { return nil }
        var path: [String] = []
        for index in stride(from: range.lowerBound, to: range.upperBound - 1, by: 2) {
            guard tokens[index].kind == .identifier, tokens[index + 1].isPunctuation(".") else { return nil }
            path.append(tokens[index].text)
        }
        return path
    }

    /// The `(` matching the `)` at `close`, looking backwards.
    func openingParenthesis(_ close: Int) -> Int? {
        var level = 0
        var index = close
        while index >= 0, close - index < Self.lookBehind {
            if tokens[index].isPunctuation(")") { level += 1 }
            if tokens[index].isPunctuation("(") {
                level -= 1
                if level == 0 { return index }
            }
            index -= 1
        }
        return nil
    }
}
