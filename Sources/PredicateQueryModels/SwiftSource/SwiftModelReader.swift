// The model reader: the declarations of one Swift file, from its tokens.
//
// A forgiving recursive-descent reader over the scanner's tokens (after `#if`
// filtering). It reads type declarations — `class`, `struct`, `enum`, `actor`,
// `extension`; a `protocol`'s body is skipped — with their attributes and
// inheritance, and in their bodies the properties (`+Properties`) and enum
// cases. Initialisers, methods, subscripts and anything else are skipped as
// balanced token runs (`+Skipping`). What it does not understand it skips to the
// end of the statement with a note naming the line, and it never moves
// backwards, so its time is linear in the tokens. Declarations nested deeper
// than `maximumNesting` are skipped rather than recursed into.

import PredicateQuery

/// Reads the type declarations of one file.
struct SwiftModelReader {
    /// How deep type declarations may nest before the reader skips them.
    static let maximumNesting = 48

    let file: String
    let bytes: [UInt8]
    let tokens: [SwiftToken]
    var index = 0
    var types: [SwiftTypeDecl] = []
    var aliases: [SwiftTypeAliasDecl] = []
    var imports: [SwiftImportDecl] = []
    var problems: [SwiftModelSource.Warning] = []

    /// The declarations of `file`, and the problems met reading it.
    static func read(_ file: SwiftModelSource.File) -> SwiftFileDeclarations {
        let bytes = Array(file.text.utf8)
        let scanned = SwiftSourceScanner.scan(bytes)
        let filtered = SwiftConditionalFilter.filter(scanned.tokens)
        var reader = SwiftModelReader(file: file.path, bytes: bytes, tokens: filtered.tokens)
        _ = reader.readMembers(owner: nil, depth: 0)
        let lexical = (scanned.problems + filtered.problems).map {
            SwiftModelSource.Warning(file: file.path, line: $0.line, message: $0.message)
        }
        let problems = (lexical + reader.problems).enumerated().sorted {
            ($0.element.line, $0.offset) < ($1.element.line, $1.offset)
        }.map(\.element)
        return SwiftFileDeclarations(
            file: file.path, types: reader.types, aliases: reader.aliases, imports: reader.imports,
            skippedBranches: filtered.skipped, problems: problems)
    }

    init(file: String, bytes: [UInt8], tokens: [SwiftToken]) {
        self.file = file
        self.bytes = bytes
        self.tokens = tokens
    }

    // MARK: - Tokens

    var current: SwiftToken? { index < tokens.count ? tokens[index] : nil }

    func token(at position: Int) -> SwiftToken? {
        position >= 0 && position < tokens.count ? tokens[position] : nil
    }

    func isPunctuation(_ character: String, at position: Int? = nil) -> Bool {
        token(at: position ?? index)?.isPunctuation(character) ?? false
    }

    func isWord(_ word: String, at position: Int? = nil) -> Bool {
        token(at: position ?? index)?.isWord(word) ?? false
    }

    mutating func advance() {
        if index < tokens.count { index += 1 }
    }

    /// The source text of the tokens `first..<end`, as written.
    func text(from first: Int, to end: Int) -> String {
        guard first >= 0, first < end, end <= tokens.count else { return "" }
        let lower = min(tokens[first].start, bytes.count)
        let upper = min(max(lower, tokens[end - 1].end), bytes.count)
        return String(decoding: bytes[lower..<upper], as: UTF8.self)
    }

    /// A note on a member of `owner`, reported if that type matters to the schema;
    /// notes on top-level code are dropped (a file may hold any code).
    mutating func note(_ message: String, line: Int, owner: Int?) {
        guard let owner else { return }
        types[owner].notes.append(SwiftModelSource.Warning(file: file, line: line, message: message))
    }

    /// A problem with the file's structure, always reported.
    mutating func problem(_ message: String, line: Int) {
        problems.append(SwiftModelSource.Warning(file: file, line: line, message: message))
    }

    // MARK: - Members

    /// Reads declarations up to the `}` that closes `owner` (consumed), or to the
    /// end of the file; true if the `}` was found.
    mutating func readMembers(owner: Int?, depth: Int) -> Bool {
        while let token = current {
            if token.isPunctuation("}") {
                advance()
                if owner != nil { return true }
                problem("unmatched '}'; ignored", line: token.line)
                continue
            }
            if token.isPunctuation(";") {
                advance()
                continue
            }
            let start = index
            readDeclaration(owner: owner, depth: depth)
            if index == start { advance() }
        }
        return false
    }

    private mutating func readDeclaration(owner: Int?, depth: Int) {
        guard let first = current else { return }
        let (attributes, modifiers) = readAttributesAndModifiers()
        guard let token = current, !token.isPunctuation("}") else { return }
        guard token.kind == .identifier, !token.isEscaped else {
            if token.kind != .pound {
                note("skipped '\(snippet(from: index))', which is not a declaration pq reads", line: token.line, owner: owner)
            }
            skipStatement()
            return
        }
        switch token.text {
        case "class", "struct", "enum", "actor", "protocol", "extension":
            let kind = SwiftTypeDecl.Kind(rawValue: token.text) ?? .class
            readTypeDeclaration(kind, attributes: attributes, line: first.line, owner: owner, depth: depth)
        case "var", "let":
            readProperty(
                attributes: attributes, isStatic: modifiers.contains("static") || modifiers.contains("class"), owner: owner)
        case "case":
            if let owner, types[owner].kind == .enum {
                readEnumCase(owner: owner)
            } else {
                skipStatement()
            }
        case "func", "init", "deinit", "subscript", "macro":
            skipFunction()
        case "typealias":
            readTypeAlias(owner: owner)
        case "import" where owner == nil:
            readImport(isExported: attributes.contains { $0.name == "_exported" })
        case "associatedtype", "import", "operator", "precedencegroup":
            skipStatement()
        default:
            note("skipped '\(snippet(from: index))', which is not a declaration pq reads", line: token.line, owner: owner)
            skipStatement()
        }
    }

    /// Reads `import Module`, `import Module.Submodule` or `import struct Module.Type` (at `import`).
    private mutating func readImport(isExported: Bool) {
        advance()
        if let kind = current, kind.kind == .identifier, !kind.startsLine, Self.importKinds.contains(kind.text),
            let next = token(at: index + 1), next.kind == .identifier, !next.startsLine
        {
            advance()
        }
        if let name = current, name.kind == .identifier, !name.startsLine {
            imports.append(SwiftImportDecl(module: name.text, isExported: isExported))
            advance()
        }
        skipRestOfStatement()
    }

    /// The kinds an `import` may name before its path (`import struct Module.Type`).
    private static let importKinds: Set<String> = [
        "typealias", "struct", "class", "enum", "protocol", "let", "var", "func",
    ]

    /// A short excerpt of the source from token `position`, for messages.
    func snippet(from position: Int) -> String {
        guard let first = token(at: position) else { return "" }
        var end = position + 1
        while end < tokens.count, end < position + 6, !tokens[end].startsLine { end += 1 }
        let excerpt = text(from: position, to: end)
        let line = excerpt.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? first.text
        return line.count > 40 ? String(line.prefix(40)) + "…" : line
    }

    // MARK: - Type declarations

    private mutating func readTypeDeclaration(
        _ kind: SwiftTypeDecl.Kind, attributes: [SwiftAttributeUse], line: Int, owner: Int?, depth: Int
    ) {
        let keyword = current
        advance()
        var path: [String]
        if kind == .extension {
            guard case .named(let components, _)? = parseType() else {
                note("skipped an extension of a type pq does not read", line: line, owner: owner)
                skipRestOfStatement()
                return
            }
            path = components
        } else {
            guard let name = current, name.kind == .identifier else {
                note("skipped a \(kind.rawValue) without a name", line: keyword?.line ?? line, owner: owner)
                skipRestOfStatement()
                return
            }
            advance()
            path = (owner.map { types[$0].path } ?? []) + [name.text]
            if isPunctuation("<") { skipGenericParameters() }
        }
        var inherits: [SwiftTypeSyntax] = []
        if isPunctuation(":") {
            advance()
            while let type = parseType() {
                inherits.append(type)
                guard isPunctuation(",") else { break }
                advance()
            }
        }
        let name = path.last ?? ""
        guard skipToBody() else {
            note("skipped \(kind.rawValue) '\(name)': expected '{'", line: line, owner: owner)
            return
        }
        advance()
        let declaration = types.count
        types.append(
            SwiftTypeDecl(
                kind: kind, name: name, path: path, file: file, line: line, endLine: line, depth: depth, attributes: attributes,
                inherits: inherits))
        if kind == .protocol {
            _ = skipBlock()
        } else if depth >= Self.maximumNesting {
            problem("declarations nest more than \(Self.maximumNesting) deep; skipped '\(name)'", line: line)
            _ = skipBlock()
        } else if !readMembers(owner: declaration, depth: depth + 1) {
            problem("the body of \(kind.rawValue) '\(name)' is never closed", line: line)
        }
        types[declaration].endLine = token(at: index - 1)?.line ?? line
    }

    /// `typealias Name = Type`: kept for resolving type names (`typealias Server = SchemaV1.Server`).
    /// A generic alias (`typealias Pair<T> = …`) is skipped: pq does not substitute its parameters.
    private mutating func readTypeAlias(owner: Int?) {
        guard let keyword = current else { return }
        advance()
        guard let name = current, name.kind == .identifier, isPunctuation("=", at: index + 1) else {
            skipRestOfStatement()
            return
        }
        index += 2
        let start = index
        if let target = parseType() {
            let path = (owner.map { types[$0].path } ?? []) + [name.text]
            aliases.append(SwiftTypeAliasDecl(name: name.text, path: path, target: target, file: file, line: keyword.line))
        }
        if index == start { skipRestOfStatement() }
    }

    /// Skips generic parameters `<T: Equatable, U>`.
    private mutating func skipGenericParameters() {
        var depth = 0
        while let token = current, !token.isPunctuation("{"), !token.isPunctuation("}"), !token.isPunctuation(";") {
            advance()
            if token.isPunctuation("<") { depth += 1 }
            if token.isPunctuation(">") {
                depth -= 1
                if depth <= 0 { return }
            }
        }
    }

    /// Skips a `where` clause or anything else up to a declaration's `{`; false if
    /// the declaration ends first.
    private mutating func skipToBody() -> Bool {
        var start = true
        while let token = current {
            if token.isPunctuation("{") { return true }
            if token.isPunctuation("}") || token.isPunctuation(";") { return false }
            if !start, token.startsLine, startsDeclaration(token) { return false }
            start = false
            advance()
        }
        return false
    }
}
