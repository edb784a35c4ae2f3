// Properties and enum cases for the model reader.
//
// `var`/`let` with one or more bindings (`var red, green: Double`,
// `var a = 1, b = 2`), each with an optional type annotation, an optional default
// (kept as written) and an optional brace block: observers (`didSet`) keep a
// property stored, anything else makes it computed, and the getter's identifiers
// are kept so the schema can name the stored properties it reads. Enum cases
// keep their raw values as written, and whether they have associated values.

import PredicateQuery

extension SwiftModelReader {
    /// Accessor keywords that may open a property's brace block.
    private static let accessorWords: Set<String> = [
        "get", "set", "_read", "_modify", "init", "unsafeAddress", "unsafeMutableAddress", "willSet", "didSet",
    ]

    /// Default values with more tokens than this are kept as text only.
    private static let inferableDefaultLength = 16

    /// Reads a `var` or `let` (at the keyword), adding its bindings to `owner`.
    mutating func readProperty(attributes: [SwiftAttributeUse], isStatic: Bool, owner: Int?) {
        advance()
        var untyped: [SwiftToken] = []
        while true {
            guard let name = current, name.kind == .identifier else {
                note("skipped a property pattern pq does not read", line: current?.line ?? 0, owner: owner)
                skipRestOfStatement()
                return
            }
            advance()
            var type: SwiftTypeSyntax?
            var typeText: String?
            if isPunctuation(":") {
                advance()
                let start = index
                guard let parsed = parseType() else {
                    note("'\(name.text)' has a type pq cannot read; skipped", line: name.line, owner: owner)
                    skipRestOfStatement()
                    return
                }
                type = parsed
                typeText = text(from: start, to: index)
            }
            var defaultRange: Range<Int>?
            if isPunctuation("=") {
                advance()
                let range = skipInitializer()
                if !range.isEmpty { defaultRange = range }
            }
            var isComputed = false
            var identifiers: [String] = []
            if isPunctuation("{"), type != nil || defaultRange != nil {
                if isObserverBlock(at: index) {
                    advance()
                    _ = skipBlock()
                } else if defaultRange == nil {
                    isComputed = true
                    identifiers = readGetter()
                }
            }
            if type == nil && defaultRange == nil {
                if isPunctuation(",") {
                    untyped.append(name)
                    advance()
                    continue
                }
                note("'\(name.text)' has neither a type nor a default value; skipped", line: name.line, owner: owner)
                skipRestOfStatement()
                return
            }
            var property = SwiftPropertyDecl(
                name: name.text, line: name.line, isStatic: isStatic, attributes: attributes, type: type,
                typeText: typeText, defaultText: nil, defaultTokens: [], initializerType: nil, isComputed: isComputed,
                getterIdentifiers: identifiers)
            if let owner {
                // `var red, green, blue: Double`: the names before share the type.
                for earlier in untyped {
                    var shared = property
                    shared.name = earlier.text
                    shared.line = earlier.line
                    types[owner].properties.append(shared)
                }
                if let defaultRange {
                    property.defaultText = text(from: defaultRange.lowerBound, to: defaultRange.upperBound)
                    if defaultRange.count <= Self.inferableDefaultLength { property.defaultTokens = Array(tokens[defaultRange]) }
                    if type == nil, let spelled = initializerType(defaultRange) {
                        property.initializerType = spelled
                        property.typeText = text(from: defaultRange.lowerBound, to: defaultRange.upperBound - 2)
                    }
                }
                types[owner].properties.append(property)
            }
            untyped = []
            guard isPunctuation(",") else { return }
            advance()
        }
    }

    /// The type an initializer call spells out: `[Tag]()`, `[String: Int]()`,
    /// `Set<String>()`, `Date()` (a type name starts with a capital letter).
    private mutating func initializerType(_ range: Range<Int>) -> SwiftTypeSyntax? {
        guard range.count >= 3, isPunctuation("(", at: range.upperBound - 2), isPunctuation(")", at: range.upperBound - 1)
        else { return nil }
        let resume = index
        defer { index = resume }
        index = range.lowerBound
        guard isPunctuation("[") || (current?.kind == .identifier && current?.text.first?.isUppercase == true),
            let type = parseType(),
            index == range.upperBound - 2
        else { return nil }
        return type
    }

    /// Reads a computed property's braces (at `{`): the identifiers its getter uses,
    /// in order of first use, leaving out members of other values (`x.name`) and
    /// argument labels (`f(name: 1)`).
    private mutating func readGetter() -> [String] {
        advance()
        var accessor = index
        while token(at: accessor)?.kind == .attribute || isWord("mutating", at: accessor)
            || isWord("nonmutating", at: accessor)
        {
            accessor += 1
        }
        let hasAccessors = isAccessor(at: accessor)
        var inGetter = !hasAccessors
        var identifiers: [String] = []
        var seen: Set<String> = []
        var depth = 1
        while let token = current {
            advance()
            if token.isPunctuation("{") {
                depth += 1
            } else if token.isPunctuation("}") {
                depth -= 1
                if depth == 0 { break }
                if hasAccessors && depth == 1 { inGetter = false }
            } else if hasAccessors && depth == 1 && token.kind == .identifier && Self.accessorWords.contains(token.text) {
                inGetter = token.text == "get" || token.text == "_read"
            } else if inGetter, token.kind == .identifier, isReference(at: index - 1), seen.insert(token.text).inserted {
                identifiers.append(token.text)
            } else if inGetter, token.kind == .string {
                for name in token.interpolatedNames where seen.insert(name).inserted { identifiers.append(name) }
            }
        }
        return identifiers
    }

    /// An accessor keyword at `position` that opens an accessor (`get {`, `set(v) {`, `get async throws {`).
    private func isAccessor(at position: Int) -> Bool {
        guard let token = token(at: position), token.kind == .identifier, Self.accessorWords.contains(token.text),
            let next = self.token(at: position + 1)
        else { return false }
        if next.isPunctuation("{") || next.isPunctuation("}") || next.isWord("async") || next.isWord("throws") {
            return true
        }
        return next.isPunctuation("(") && ["set", "willSet", "didSet", "init"].contains(token.text)
    }

    /// The identifier at `position` names something in scope: not `other.name`
    /// (unless `self.name`), and not an argument label.
    private func isReference(at position: Int) -> Bool {
        if isPunctuation(".", at: position - 1) { return isWord("self", at: position - 2) }
        if isPunctuation(":", at: position + 1), isPunctuation("(", at: position - 1) || isPunctuation(",", at: position - 1) {
            return false
        }
        return true
    }

    // MARK: - Enum cases

    /// Reads `case a = 1, b, c(Int)` (at `case`) into the enum `owner`.
    mutating func readEnumCase(owner: Int) {
        advance()
        while let name = current, name.kind == .identifier {
            advance()
            var hasAssociatedValues = false
            if isPunctuation("("), current?.startsLine == false {
                hasAssociatedValues = true
                advance()
                skipParenthesized()
            }
            var rawValue = SwiftEnumCaseDecl.RawValue.none
            if isPunctuation("=") {
                advance()
                rawValue = readRawValue(skipInitializer())
            }
            types[owner].cases.append(
                SwiftEnumCaseDecl(name: name.text, line: name.line, rawValue: rawValue, hasAssociatedValues: hasAssociatedValues))
            guard isPunctuation(",") else { return }
            advance()
        }
        note("skipped a case pq cannot read", line: current?.line ?? 0, owner: owner)
        skipRestOfStatement()
    }

    private func readRawValue(_ range: Range<Int>) -> SwiftEnumCaseDecl.RawValue {
        let written = Array(tokens[range])
        let negative = written.first?.isPunctuation("-") ?? false
        let literal = negative ? written.dropFirst() : written[...]
        if literal.count == 1, let token = literal.first {
            if token.kind == .number, let value = Self.integerValue(token.text, negative: negative) { return .int(value) }
            if token.kind == .string, !token.isEscaped, !negative { return .string(token.text) }
        }
        return .unreadable(text(from: range.lowerBound, to: range.upperBound))
    }

    /// The value of an integer literal (`42`, `0x2A`, `1_000`), if it is one that fits.
    static func integerValue(_ literal: String, negative: Bool) -> Int64? {
        var digits = literal.filter { $0 != "_" }
        var radix = 10
        if let (_, base) = [("0x", 16), ("0o", 8), ("0b", 2)].first(where: { digits.hasPrefix($0.0) }) {
            digits.removeFirst(2)
            radix = base
        }
        guard !digits.isEmpty, let magnitude = UInt64(digits, radix: radix) else { return nil }
        if negative {
            return magnitude <= UInt64(Int64.max) + 1 ? Int64(bitPattern: 0 &- magnitude) : nil
        }
        return magnitude <= UInt64(Int64.max) ? Int64(magnitude) : nil
    }
}
