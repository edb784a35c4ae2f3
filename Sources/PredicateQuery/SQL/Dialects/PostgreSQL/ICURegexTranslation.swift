// pq's `matches` patterns (ICU regular expressions) in PostgreSQL's ARE flavour,
// for the constructs that mean the same in both; anything else is refused, named.
//
// `matches` is a yes-or-no question about the whole string, so what must agree is
// the set of strings each construct matches, not which submatch a search would
// report. Kept: literal characters (written as `\u` escapes), escaped
// metacharacters, `\t \n \r \f \a \e \uhhhh \Uhhhhhhhh \xhh \x{h…}`, `\Q…\E`, `.`
// (ICU's excludes the line terminators U+000A–U+000D, U+0085, U+2028 and U+2029;
// written as a negated bracket of them), brackets of characters and ranges
// (negated too), groups (capturing ones become plain groups: nothing refers back),
// alternation, the greedy and lazy quantifiers (`*`, `+`, `?`, `{n}`, `{n,}`,
// `{n,m}`, up to ARE's 255; a lazy one matches the same strings as the greedy one),
// `^`, `\A`, `\z`, and `$` at the end of the pattern (elsewhere ICU's `$` also
// matches before a final line break). Refused: classes (`\w`, `\d`, `\s`, `\p{…}`,
// POSIX and nested sets: their members differ between ICU and PostgreSQL), word
// boundaries, back-references, look-around, atomic groups, possessive quantifiers,
// inline flags, named characters and unknown letter escapes.

/// Translates ICU regular expressions to PostgreSQL's ARE.
enum ICURegexTranslation {
    /// The anchored ARE matching exactly the strings `pattern` matches as a whole;
    /// throws naming the first construct that has no equal.
    static func translate(_ pattern: String) throws(PostgreSQLPatternError) -> String {
        var parser = Parser(scalars: Array(pattern.unicodeScalars), pattern: pattern)
        let body = try parser.alternation(depth: 0)
        if parser.position < parser.scalars.count {
            throw parser.refusal("an unbalanced ')'")
        }
        return "^(?:" + body + ")$"
    }

    /// ICU's `.`: anything but a line terminator.
    static let dot = PostgreSQLFoldPattern.bracket(
        [0x0A...0x0D, 0x85...0x85, 0x2028...0x2029], negated: true)

    private struct Parser {
        let scalars: [Unicode.Scalar]
        let pattern: String
        var position = 0

        var current: Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

        func peek(_ offset: Int) -> Unicode.Scalar? {
            position + offset < scalars.count ? scalars[position + offset] : nil
        }

        func refusal(_ construct: String, _ why: String = "") -> PostgreSQLPatternError {
            PostgreSQLPatternError(
                message: "PostgreSQL cannot match the regular expression '\(pattern)' as pq does: it has \(construct)"
                    + (why.isEmpty ? "" : " (\(why))")
                    + "; write it with literal characters, '.', brackets of characters and ranges, groups, '|' and quantifiers",
                construct: construct)
        }

        mutating func alternation(depth: Int) throws(PostgreSQLPatternError) -> String {
            var branches = [try sequence(depth: depth)]
            while current == "|" {
                position += 1
                branches.append(try sequence(depth: depth))
            }
            return branches.joined(separator: "|")
        }

        mutating func sequence(depth: Int) throws(PostgreSQLPatternError) -> String {
            var out = ""
            while let scalar = current, scalar != "|", scalar != ")" {
                var quantifiable = true
                let atom: String
                switch scalar {
                case "(":
                    atom = try group(depth: depth)
                case "[":
                    atom = try bracket()
                case ".":
                    position += 1
                    atom = ICURegexTranslation.dot
                case "^":
                    position += 1
                    atom = "^"
                    quantifiable = false
                case "$":
                    position += 1
                    guard depth == 0, current == nil || current == "|" else {
                        throw refusal("'$' before the end", "ICU's '$' also matches before a final line break")
                    }
                    atom = "$"
                    quantifiable = false
                case "*", "+", "?", "{", "}":
                    throw refusal("a quantifier '\(scalar)' with nothing before it")
                case "\\":
                    if peek(1) == "Q" {
                        position += 2
                        var literal = ""
                        while let next = current, !(next == "\\" && peek(1) == "E") {
                            literal += PostgreSQLFoldPattern.literal(next.value)
                            position += 1
                        }
                        if current != nil { position += 2 }
                        out += literal.isEmpty ? "" : "(?:" + literal + ")"
                        continue
                    }
                    if peek(1) == "A" || peek(1) == "z" {
                        atom = peek(1) == "A" ? "^" : "$"
                        position += 2
                        quantifiable = false
                    } else {
                        atom = PostgreSQLFoldPattern.literal(try escape(inBracket: false).value)
                    }
                default:
                    position += 1
                    atom = PostgreSQLFoldPattern.literal(scalar.value)
                }
                let quantifier = try self.quantifier()
                if !quantifier.isEmpty, !quantifiable { throw refusal("a quantified anchor") }
                out += quantifier.isEmpty ? atom : "(?:" + atom + ")" + quantifier
            }
            return out
        }

        mutating func group(depth: Int) throws(PostgreSQLPatternError) -> String {
            position += 1
            guard depth < 100 else { throw refusal("groups nested more than 100 deep") }
            if current == "?" {
                switch peek(1) {
                case ":": position += 2
                case "<" where peek(2) != "=" && peek(2) != "!":
                    // A named group: a plain group, as nothing refers back to it.
                    while let next = current, next != ">" { position += 1 }
                    position += 1
                case "=", "!": throw refusal("a look-ahead '(?\(peek(1) ?? " "))'")
                case "<": throw refusal("a look-behind '(?<\(peek(2) ?? " "))'")
                case ">": throw refusal("an atomic group '(?>'")
                case "#": throw refusal("a comment '(?#'")
                default: throw refusal("inline flags '(?\(peek(1) ?? " ")'", "pq has [c] for case")
                }
            }
            let body = try alternation(depth: depth + 1)
            guard current == ")" else { throw refusal("an unclosed '('") }
            position += 1
            return "(?:" + body + ")"
        }

        /// `*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}`, maybe lazy; "" when none follows.
        mutating func quantifier() throws(PostgreSQLPatternError) -> String {
            var out: String
            switch current {
            case "*", "+", "?":
                out = String(current ?? "*")
                position += 1
            case "{":
                position += 1
                let low = number()
                var high: Int? = low
                if current == "," {
                    position += 1
                    high = current == "}" ? nil : number()
                }
                guard let low, current == "}" else { throw refusal("a '{' that is not a repetition count") }
                position += 1
                if low > 255 || (high ?? 0) > 255 {
                    throw refusal("a repetition count above 255", "PostgreSQL's limit")
                }
                out = "{\(low)," + (high.map(String.init) ?? "") + "}"
            default:
                return ""
            }
            if current == "?" {
                // Lazy: the same strings as greedy, for a whole-string match.
                position += 1
            } else if current == "+" {
                throw refusal("a possessive quantifier '\(out)+'", "it can refuse matches a backtracking quantifier finds")
            }
            return out
        }

        mutating func number() -> Int? {
            var value: Int?
            while let scalar = current, let digit = Int(String(scalar)), scalar.isASCII {
                value = min((value ?? 0) * 10 + digit, 100_000)
                position += 1
            }
            return value
        }

        /// A bracket of characters and ranges, maybe negated.
        mutating func bracket() throws(PostgreSQLPatternError) -> String {
            position += 1
            var negated = false
            if current == "^" {
                negated = true
                position += 1
            }
            if current == "]" { throw refusal("a ']' first in a bracket") }
            var members: [ClosedRange<UInt32>] = []
            while let scalar = current, scalar != "]" {
                let first = try member(atStart: members.isEmpty)
                if current == "-", let after = peek(1), after != "]" {
                    guard let low = first else { throw refusal("a '-' that is not a range in a bracket") }
                    position += 1
                    guard let high = try member(atStart: false), high >= low else {
                        throw refusal("a range in a bracket that does not end in a character")
                    }
                    members.append(low...high)
                } else if let first {
                    members.append(first...first)
                } else {
                    throw refusal("'\(scalar)' in a bracket")
                }
            }
            guard current == "]" else { throw refusal("an unclosed '['") }
            position += 1
            members.sort { $0.lowerBound < $1.lowerBound }
            var merged: [ClosedRange<UInt32>] = []
            for range in members {
                if let last = merged.last, range.lowerBound <= last.upperBound + 1 {
                    merged[merged.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
                } else {
                    merged.append(range)
                }
            }
            return PostgreSQLFoldPattern.bracket(merged, negated: negated)
        }

        /// One character of a bracket; nil for a lone '-'.
        mutating func member(atStart: Bool) throws(PostgreSQLPatternError) -> UInt32? {
            guard let scalar = current else { throw refusal("an unclosed '['") }
            switch scalar {
            case "[": throw refusal("a nested set or POSIX class '[' in a bracket")
            case "&" where peek(1) == "&": throw refusal("a set intersection '&&'")
            case "\\": return try escape(inBracket: true).value
            case "-" where atStart || peek(1) == "]":
                position += 1
                return 0x2D
            case "-": return nil
            default:
                position += 1
                return scalar.value
            }
        }

        /// The character a backslash escape stands for, or a refusal naming what it is.
        mutating func escape(inBracket: Bool) throws(PostgreSQLPatternError) -> Unicode.Scalar {
            position += 1
            guard let scalar = current else { throw refusal("a '\\' at the end") }
            position += 1
            let simple: [Unicode.Scalar: UInt32] = ["t": 9, "n": 10, "r": 13, "f": 12, "a": 7, "e": 27]
            if let value = simple[scalar], let result = Unicode.Scalar(value) { return result }
            if !(scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar))) { return scalar }
            switch scalar {
            case "u": return try hex(digits: 4)
            case "U": return try hex(digits: 8)
            case "x":
                if current == "{" {
                    position += 1
                    var digits = ""
                    while let next = current, next != "}" {
                        digits.unicodeScalars.append(next)
                        position += 1
                    }
                    position += 1
                    guard let value = UInt32(digits, radix: 16), let result = Unicode.Scalar(value) else {
                        throw refusal("an invalid '\\x{…}'")
                    }
                    return result
                }
                return try hex(digits: 2)
            default: break
            }
            let names: [Unicode.Scalar: String] = [
                "w": "a word-character class '\\w'", "W": "a class '\\W'", "d": "a digit class '\\d'",
                "D": "a class '\\D'", "s": "a white-space class '\\s'", "S": "a class '\\S'",
                "b": "a word boundary '\\b'", "B": "a non-boundary '\\B'", "p": "a Unicode property class '\\p'",
                "P": "a Unicode property class '\\P'", "X": "a grapheme cluster '\\X'", "h": "a class '\\h'",
                "H": "a class '\\H'", "v": "a class '\\v'", "V": "a class '\\V'", "R": "a line break '\\R'",
                "G": "a previous-match anchor '\\G'", "Z": "an end anchor '\\Z'", "k": "a named back-reference '\\k'",
                "N": "a named character '\\N'", "c": "a control character '\\c'", "0": "an octal escape '\\0'",
                "A": "an anchor '\\A' in a bracket", "z": "an anchor '\\z' in a bracket",
            ]
            if let name = names[scalar] { throw refusal(name, "ICU's and PostgreSQL's differ") }
            if ("1"..."9").contains(scalar) { throw refusal("a back-reference '\\\(scalar)'") }
            throw refusal("the escape '\\\(scalar)'")
        }

        mutating func hex(digits: Int) throws(PostgreSQLPatternError) -> Unicode.Scalar {
            var text = ""
            for _ in 0..<digits {
                guard let next = current, next.properties.isASCIIHexDigit else { throw refusal("a short hexadecimal escape") }
                text.unicodeScalars.append(next)
                position += 1
            }
            guard let value = UInt32(text, radix: 16), let result = Unicode.Scalar(value) else {
                throw refusal("an escape that is not a character")
            }
            return result
        }
    }
}
