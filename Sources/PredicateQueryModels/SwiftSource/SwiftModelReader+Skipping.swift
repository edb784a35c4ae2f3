// Skipping for the model reader: expressions, statements, function bodies and
// blocks, as balanced token runs.
//
// Swift ends a statement at the end of a line unless the next line plainly
// continues it (it starts with `.` or a binary operator, or the line before ends
// with one), and brackets hold a statement open across lines. A closing bracket
// with no opener in the run belongs to the enclosing code and ends the run
// without being consumed, so an unbalanced `(` cannot swallow the rest of the
// class. Every routine only moves forward.

import PredicateQuery

/// Open brackets, with a count per kind so that recovering from a mismatch is cheap.
struct SwiftBracketStack {
    private var openers: [Int] = []
    private var counts = [0, 0, 0]

    var isEmpty: Bool { openers.isEmpty }

    /// A `{` is open: statements, and so declarations, may follow.
    var hasOpenBrace: Bool { counts[2] > 0 }

    /// `(`, `[`, `{` are kinds 0, 1, 2; the closers the same, not opening.
    static func bracket(_ token: SwiftToken) -> (kind: Int, opens: Bool)? {
        guard token.kind == .punctuation else { return nil }
        switch token.text {
        case "(": return (0, true)
        case "[": return (1, true)
        case "{": return (2, true)
        case ")": return (0, false)
        case "]": return (1, false)
        case "}": return (2, false)
        default: return nil
        }
    }

    mutating func push(_ kind: Int) {
        openers.append(kind)
        counts[kind] += 1
    }

    /// Closes the innermost open bracket of this kind (and any opened inside it);
    /// false if none is open.
    mutating func close(_ kind: Int) -> Bool {
        guard counts[kind] > 0 else { return false }
        while let last = openers.popLast() {
            counts[last] -= 1
            if last == kind { break }
        }
        return true
    }
}

extension SwiftModelReader {
    static let modifierWords: Set<String> = [
        "public", "private", "fileprivate", "internal", "open", "package", "final", "static", "override", "required",
        "convenience", "dynamic", "lazy", "weak", "unowned", "mutating", "nonmutating", "nonisolated", "indirect",
        "optional", "prefix", "postfix", "infix", "isolated", "distributed", "consuming", "borrowing", "__consuming",
    ]

    static let declarationWords: Set<String> = [
        "class", "struct", "enum", "actor", "protocol", "extension", "var", "let", "func", "init", "deinit",
        "subscript", "typealias", "associatedtype", "case", "import", "operator", "precedencegroup", "macro",
    ]

    /// Characters that, starting a line, continue the statement of the line before.
    private static let continuingCharacters: Set<String> = [
        ".", "+", "-", "*", "/", "%", "&", "|", "^", "<", ">", "=", "?", ":",
    ]

    /// Characters that, ending a line, leave its statement open.
    private static let openEndingCharacters: Set<String> = [".", "+", "-", "*", "/", "%", "&", "|", "^", "<", "=", ","]

    /// Keywords that, starting a line inside parentheses or brackets (with no brace
    /// open), show that a `(` or `[` before was never closed.
    private static let strayKeywords: Set<String> = [
        "var", "let", "func", "init", "deinit", "subscript", "class", "struct", "enum", "actor", "protocol",
        "extension", "typealias", "import",
    ]

    /// The token at `position` starts a declaration inside brackets that hold no
    /// braces: the brackets were left open by mistake, and the run should end.
    func endsUnclosedBrackets(at position: Int, _ brackets: SwiftBracketStack) -> Bool {
        guard !brackets.isEmpty, !brackets.hasOpenBrace, let token = token(at: position), token.startsLine,
            token.kind == .identifier, !token.isEscaped, Self.strayKeywords.contains(token.text)
        else { return false }
        return !isPunctuation(":", at: position + 1)
    }

    /// A token that can only begin a declaration.
    func startsDeclaration(_ token: SwiftToken) -> Bool {
        switch token.kind {
        case .attribute, .pound: true
        case .identifier:
            !token.isEscaped && (Self.declarationWords.contains(token.text) || Self.modifierWords.contains(token.text))
        default: false
        }
    }

    /// The token at `position`, first on its line, continues the statement before it.
    private func continuesStatement(at position: Int) -> Bool {
        guard let token = token(at: position) else { return false }
        if token.kind == .punctuation, Self.continuingCharacters.contains(token.text) { return true }
        if token.kind == .identifier, !token.isEscaped, ["as", "is", "else", "catch"].contains(token.text) { return true }
        if let previous = self.token(at: position - 1), previous.kind == .punctuation,
            Self.openEndingCharacters.contains(previous.text)
        {
            return true
        }
        return false
    }

    /// `{` at `position` opens `willSet`/`didSet` observers.
    func isObserverBlock(at position: Int) -> Bool {
        guard isPunctuation("{", at: position) else { return false }
        var next = position + 1
        while token(at: next)?.kind == .attribute { next += 1 }
        return isWord("willSet", at: next) || isWord("didSet", at: next)
    }

    /// Consumes an expression (or a statement): to the end of its line at bracket
    /// depth zero, a `;`, a closing bracket it did not open, a `,` if asked, or
    /// observers (`{ didSet … }`) if asked. Returns the consumed token indices.
    @discardableResult
    mutating func skipExpression(stopAtComma: Bool, stopAtObservers: Bool) -> Range<Int> {
        let start = index
        var brackets = SwiftBracketStack()
        while let token = current {
            if brackets.isEmpty {
                if index > start, token.startsLine, !continuesStatement(at: index) { break }
                if token.isPunctuation(";") || (stopAtComma && token.isPunctuation(",")) { break }
                if stopAtObservers, isObserverBlock(at: index) { break }
            } else if endsUnclosedBrackets(at: index, brackets) {
                break
            }
            if let (kind, opens) = SwiftBracketStack.bracket(token) {
                if opens {
                    brackets.push(kind)
                } else if !brackets.close(kind) {
                    break
                }
            }
            advance()
        }
        return start..<index
    }

    /// Consumes a statement and its `;`.
    mutating func skipStatement() {
        skipExpression(stopAtComma: false, stopAtObservers: false)
        if isPunctuation(";") { advance() }
    }

    /// Consumes the rest of a statement that has begun: nothing if the next token
    /// is on a line of its own.
    mutating func skipRestOfStatement() {
        if let token = current, !token.startsLine { skipStatement() }
    }

    /// Consumes the expression after `=` in a declaration: nothing if the line ends
    /// there and the next one starts a declaration.
    mutating func skipInitializer() -> Range<Int> {
        if let token = current, token.startsLine, startsDeclaration(token) { return index..<index }
        return skipExpression(stopAtComma: true, stopAtObservers: true)
    }

    /// Consumes a `func`, `init`, `deinit`, `subscript` or `macro`: its signature, and
    /// its body if it has one.
    mutating func skipFunction() {
        let isMacro = isWord("macro")
        advance()
        var brackets = SwiftBracketStack()
        while let token = current {
            if brackets.isEmpty {
                if token.isPunctuation("{") {
                    advance()
                    _ = skipBlock()
                    return
                }
                if token.isPunctuation(";") {
                    advance()
                    return
                }
                if isMacro, token.isPunctuation("=") {
                    advance()
                    skipExpression(stopAtComma: false, stopAtObservers: false)
                    return
                }
                if token.startsLine, startsDeclaration(token) { return }
            } else if endsUnclosedBrackets(at: index, brackets) {
                return
            }
            if let (kind, opens) = SwiftBracketStack.bracket(token) {
                if opens {
                    brackets.push(kind)
                } else if !brackets.close(kind) {
                    return
                }
            }
            advance()
        }
    }

    /// Consumes a block whose `{` was just consumed, through its `}`; false if the
    /// file ends first.
    mutating func skipBlock() -> Bool {
        var depth = 1
        while let token = current {
            advance()
            if token.isPunctuation("{") {
                depth += 1
            } else if token.isPunctuation("}") {
                depth -= 1
                if depth == 0 { return true }
            }
        }
        return false
    }

    /// Consumes a parenthesized run whose `(` was just consumed, through its `)`;
    /// stops before a `}` it did not open.
    mutating func skipParenthesized() {
        var brackets = SwiftBracketStack()
        brackets.push(0)
        while let token = current {
            if let (kind, opens) = SwiftBracketStack.bracket(token) {
                if opens {
                    brackets.push(kind)
                } else if !brackets.close(kind) {
                    return
                }
            }
            advance()
            if brackets.isEmpty { return }
        }
    }
}
