// Type syntax, attributes and modifiers for the model reader.
//
// Types: names with generic arguments and dotted paths (`Foundation.Date`,
// `Set<String>`), `[T]`, `[K: V]`, `T?`, `T!`, parenthesized and tuple types,
// function types, `some`/`any`, `A & B`. `Optional<T>`, `Array<T>` and
// `Dictionary<K, V>` become their sugared forms. Nesting is bounded, so a file
// of `[[[[…` cannot exhaust the stack. Attributes keep their argument tokens for
// `SwiftSchemaBuilder` to read.

import PredicateQuery

extension SwiftModelReader {
    /// How deep type syntax may nest.
    private static let maximumTypeNesting = 32

    /// Reads a type at the current token, or returns nil (consuming nothing) if
    /// there is none.
    mutating func parseType(depth: Int = 0) -> SwiftTypeSyntax? {
        guard depth < Self.maximumTypeNesting, let token = current else { return nil }
        var result: SwiftTypeSyntax
        switch token.kind {
        case .punctuation where token.text == "[":
            advance()
            guard let element = parseType(depth: depth + 1) else { return .other }
            if isPunctuation(":") {
                advance()
                result = .dictionary(element, parseType(depth: depth + 1) ?? .other)
            } else {
                result = .array(element)
            }
            guard isPunctuation("]") else { return .other }
            advance()
        case .punctuation where token.text == "(":
            result = parseParenthesizedType(depth: depth)
        case .attribute:
            advance()
            if isPunctuation("("), current?.startsLine == false {
                advance()
                skipParenthesized()
            }
            return parseType(depth: depth + 1)
        case .identifier where !token.isEscaped && (token.text == "some" || token.text == "any"):
            advance()
            _ = parseType(depth: depth + 1)
            result = .other
        case .identifier
        where !token.isEscaped && ["inout", "borrowing", "consuming", "sending", "__owned", "__shared"].contains(token.text):
            advance()
            return parseType(depth: depth + 1)
        case .identifier
        where !token.isEscaped && (Self.declarationWords.contains(token.text) || Self.modifierWords.contains(token.text)):
            return nil
        case .identifier:
            result = parseNamedType(depth: depth)
        default:
            return nil
        }
        while let postfix = current, !postfix.startsLine, postfix.isPunctuation("?") || postfix.isPunctuation("!") {
            result = .optional(result)
            advance()
        }
        if isPunctuation("&") {
            advance()
            _ = parseType(depth: depth + 1)
            result = .other
        }
        return result
    }

    /// `Name`, `A.B`, `Name<Args>`, `T.Type`.
    private mutating func parseNamedType(depth: Int) -> SwiftTypeSyntax {
        var path: [String] = []
        var arguments: [SwiftTypeSyntax] = []
        while let name = current, name.kind == .identifier {
            advance()
            if name.isWord("Type") || name.isWord("Protocol"), !path.isEmpty { return .other }
            path.append(name.text)
            arguments = parseGenericArguments(depth: depth)
            guard isPunctuation("."), let next = token(at: index + 1), next.kind == .identifier, !next.startsLine else {
                break
            }
            advance()
        }
        let isStandard = path.count == 1 || (path.count == 2 && path.first == "Swift")
        switch (isStandard ? path.last : nil, arguments.count) {
        case ("Optional"?, 1): return .optional(arguments[0])
        case ("Array"?, 1): return .array(arguments[0])
        case ("Dictionary"?, 2): return .dictionary(arguments[0], arguments[1])
        default: return .named(path, arguments: arguments)
        }
    }

    /// `<A, B>` after a type name, if there is one.
    private mutating func parseGenericArguments(depth: Int) -> [SwiftTypeSyntax] {
        guard isPunctuation("<") else { return [] }
        advance()
        var arguments: [SwiftTypeSyntax] = []
        while let token = current, !token.isPunctuation(">") {
            guard let argument = parseType(depth: depth + 1) else { break }
            arguments.append(argument)
            guard isPunctuation(",") else { break }
            advance()
        }
        if isPunctuation(">") { advance() }
        return arguments
    }

    /// `(T)`, a tuple `(a: A, B)`, or a function type `(A) async throws -> B`.
    private mutating func parseParenthesizedType(depth: Int) -> SwiftTypeSyntax {
        advance()
        var elements: [SwiftTypeSyntax] = []
        while let token = current, !token.isPunctuation(")") {
            if token.kind == .identifier, isPunctuation(":", at: index + 1) {
                advance()
                advance()
            }
            guard let element = parseType(depth: depth + 1) else { break }
            elements.append(element)
            guard isPunctuation(",") else { break }
            advance()
        }
        guard isPunctuation(")") else { return .other }
        advance()
        var isFunction = false
        while isWord("async") || isWord("throws") || isWord("rethrows") {
            advance()
            isFunction = true
            if isPunctuation("("), current?.startsLine == false {
                advance()
                skipParenthesized()
            }
        }
        if isPunctuation("-"), isPunctuation(">", at: index + 1) {
            advance()
            advance()
            _ = parseType(depth: depth + 1)
            isFunction = true
        }
        return !isFunction && elements.count == 1 ? elements[0] : .other
    }

    // MARK: - Attributes and modifiers

    /// Reads the attributes (`@Attribute(.unique)`) and modifiers (`public`,
    /// `private(set)`, `static`, `class` before a member) before a declaration.
    mutating func readAttributesAndModifiers() -> (attributes: [SwiftAttributeUse], modifiers: Set<String>) {
        var attributes: [SwiftAttributeUse] = []
        var modifiers: Set<String> = []
        while let token = current {
            if token.kind == .attribute {
                attributes.append(readAttribute())
            } else if token.kind == .identifier, !token.isEscaped, Self.modifierWords.contains(token.text) {
                modifiers.insert(token.text)
                advance()
                // private(set), unowned(unsafe), nonisolated(unsafe)
                if isPunctuation("("), current?.startsLine == false, self.token(at: index + 1)?.kind == .identifier,
                    isPunctuation(")", at: index + 2)
                {
                    index += 3
                }
            } else if token.isWord("class"), let next = self.token(at: index + 1), next.kind == .identifier,
                !next.isEscaped,
                Self.modifierWords.contains(next.text) || ["var", "let", "func", "subscript", "typealias"].contains(next.text)
            {
                modifiers.insert("class")
                advance()
            } else {
                break
            }
        }
        return (attributes, modifiers)
    }

    /// Reads one attribute (at its `@name`) with its parenthesized arguments.
    private mutating func readAttribute() -> SwiftAttributeUse {
        let first = current
        var name = first?.text ?? ""
        advance()
        // @SwiftData.Model: the last component names the attribute.
        while isPunctuation("."), let next = token(at: index + 1), next.kind == .identifier,
            let dot = current, dot.start == token(at: index - 1)?.end
        {
            name = next.text
            index += 2
        }
        var arguments: [SwiftToken] = []
        if isPunctuation("("), current?.startsLine == false {
            advance()
            let start = index
            skipParenthesized()
            let end = isPunctuation(")", at: index - 1) && index - 1 >= start ? index - 1 : index
            arguments = Array(tokens[start..<end])
        }
        return SwiftAttributeUse(name: name, arguments: arguments, line: first?.line ?? 0)
    }
}
