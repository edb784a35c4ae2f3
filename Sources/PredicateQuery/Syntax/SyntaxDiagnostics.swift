// The catalog of lexer, parser and limit diagnostics.
//
// Codes are stable: tests, tools and documentation refer to them. The wording of a
// message may improve; its code does not change.

extension DiagnosticCode {
    // MARK: lex.*
    /// A character that starts no token.
    public static let unexpectedCharacter: DiagnosticCode = "lex.unexpectedCharacter"
    /// A string literal with no closing quote.
    public static let unterminatedString: DiagnosticCode = "lex.unterminatedString"
    /// A backslash escape pq does not know.
    public static let invalidEscape: DiagnosticCode = "lex.invalidEscape"
    /// `\u{…}` naming a surrogate or a value above U+10FFFF.
    public static let invalidUnicodeScalar: DiagnosticCode = "lex.invalidUnicodeScalar"
    /// A malformed number, such as `12abc` or `0x`.
    public static let invalidNumber: DiagnosticCode = "lex.invalidNumber"
    /// An integer literal above the 64-bit range.
    public static let integerOverflow: DiagnosticCode = "lex.integerOverflow"
    /// A decimal literal that is not finite.
    public static let numberOutOfRange: DiagnosticCode = "lex.numberOutOfRange"
    /// `$`, `@` or a backtick with no name after it.
    public static let expectedName: DiagnosticCode = "lex.expectedName"
    /// A backticked name with no closing backtick.
    public static let unterminatedEscapedName: DiagnosticCode = "lex.unterminatedEscapedName"

    // MARK: parse.*
    /// An operand was expected: a name, a literal, a parenthesised expression, …
    public static let expectedExpression: DiagnosticCode = "parse.expectedExpression"
    /// A specific token was expected, such as `)`.
    public static let expectedToken: DiagnosticCode = "parse.expectedToken"
    /// Input left over after a complete query.
    public static let unexpectedToken: DiagnosticCode = "parse.unexpectedToken"
    /// `a == b == c`: comparisons do not chain.
    public static let nonAssociativeOperator: DiagnosticCode = "parse.nonAssociativeOperator"
    /// A method pq does not support, such as `name.uppercased()`.
    public static let unknownMethod: DiagnosticCode = "parse.unknownMethod"
    /// An `@operator` other than @count, @sum, @avg, @min, @max.
    public static let unknownCollectionOperator: DiagnosticCode = "parse.unknownCollectionOperator"
    /// A call to a function pq does not have.
    public static let unknownFunction: DiagnosticCode = "parse.unknownFunction"
    /// A reserved word used as a name.
    public static let reservedWord: DiagnosticCode = "parse.reservedWord"
    /// `limit` or `offset` without a non-negative integer.
    public static let expectedCount: DiagnosticCode = "parse.expectedCount"
    /// `in[c]` with something other than a list of values on its right.
    public static let modifiedMembership: DiagnosticCode = "parse.modifiedMembership"
    /// Query text written as a SQL `SELECT` statement.
    public static let sqlStatement: DiagnosticCode = "parse.sqlStatement"
    /// An integer literal whose value does not fit after applying its sign.
    public static let integerLiteralOverflow: DiagnosticCode = "parse.integerLiteralOverflow"

    // MARK: limit.*
    /// The query text is longer than `Limits.maxInputLength`.
    public static let inputTooLong: DiagnosticCode = "limit.inputLength"
    /// Expressions nest deeper than `Limits.maxNestingDepth`.
    public static let nestingTooDeep: DiagnosticCode = "limit.nestingDepth"
    /// A list or an `&&`/`||` chain longer than `Limits.maxListLength`.
    public static let listTooLong: DiagnosticCode = "limit.listLength"
    /// A name longer than `Limits.maxIdentifierLength`.
    public static let identifierTooLong: DiagnosticCode = "limit.identifierLength"
}
