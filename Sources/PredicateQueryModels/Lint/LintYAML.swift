// The subset of YAML `.pq-lint.yml` is written in, read without a YAML library.
//
// A file is a map of top-level keys. A key's value is one of:
//   - a scalar on the same line: `strict: true`, `key: "quoted value"`;
//   - a list: `key: [a, b]` on one line, or `- item` lines indented under it;
//   - a map of scalars: `key: value` lines indented under it (one level).
// Comments start with `#` (at a line's start or after a space); blank lines and
// a leading `---` are allowed. Scalars may be plain or quoted with '…' (where
// '' is a quote) or "…" (where \" and \\ are escapes). Anything else — tabs for
// indentation, anchors and aliases, block scalars (`|`, `>`), `{…}` maps, deeper
// nesting, a key given twice — is an error that names its line.

import Foundation

/// A value of the YAML subset.
enum LintYAMLValue: Equatable {
    case scalar(String)
    case list([LintYAMLItem])
    case map([(key: LintYAMLItem, value: LintYAMLItem)])

    static func == (lhs: LintYAMLValue, rhs: LintYAMLValue) -> Bool {
        switch (lhs, rhs) {
        case (.scalar(let a), .scalar(let b)): a == b
        case (.list(let a), .list(let b)): a == b
        case (.map(let a), .map(let b)): a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: false
        }
    }
}

/// A scalar and the line it is on.
struct LintYAMLItem: Equatable {
    var text: String
    var line: Int
}

/// An error in a configuration file, with its 1-based line.
public struct LintConfigurationError: Error, Sendable, CustomStringConvertible {
    /// The 1-based line of the configuration file the error is on, when it is on one.
    public var line: Int?
    /// What is wrong, in one sentence.
    public var message: String
    public var description: String { line.map { "line \($0): \(message)" } ?? message }

    /// An error saying `message` about `line`, if given.
    public init(line: Int? = nil, message: String) {
        self.line = line
        self.message = message
    }
}

enum LintYAML {
    /// The top-level keys in order, each with its line and value.
    static func parse(_ text: String) throws(LintConfigurationError) -> [(key: LintYAMLItem, value: LintYAMLValue)] {
        var result: [(key: LintYAMLItem, value: LintYAMLValue)] = []
        var current: (key: LintYAMLItem, value: LintYAMLValue?)?
        var childIndent: Int?
        func finish() {
            if let open = current { result.append((open.key, open.value ?? .scalar(""))) }
            current = nil
            childIndent = nil
        }
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            var line = Substring(rawLine)
            if line.hasSuffix("\r") { line = line.dropLast() }
            let indentText = line.prefix { $0 == " " || $0 == "\t" }
            if indentText.contains("\t") { throw LintConfigurationError(line: number, message: "indent with spaces, not tabs") }
            let content = try stripComment(line.dropFirst(indentText.count), line: number)
            if content.isEmpty { continue }
            if number == 1 || result.isEmpty && current == nil, content == "---", indentText.isEmpty { continue }
            let indent = indentText.count
            if indent == 0 {
                finish()
                let (key, value) = try keyValue(content, line: number)
                for earlier in result where earlier.key.text == key {
                    throw LintConfigurationError(
                        line: number, message: "'\(key)' is given twice (first on line \(earlier.key.line))")
                }
                var inline: LintYAMLValue?
                if let value { inline = try inlineValue(value, line: number) }
                current = (LintYAMLItem(text: key, line: number), inline)
                continue
            }
            guard let open = current else {
                throw LintConfigurationError(line: number, message: "an indented line outside any key")
            }
            if let expected = childIndent, indent != expected {
                throw LintConfigurationError(
                    line: number,
                    message:
                        "indented \(indent) spaces where the lines above are indented \(expected): pq's configuration nests one level only"
                )
            }
            childIndent = indent
            if content == "-" || content.hasPrefix("- ") {
                let item = try scalar(String(content.dropFirst(1)).trimmed, line: number)
                switch open.value {
                case nil: current?.value = .list([LintYAMLItem(text: item, line: number)])
                case .list(var items):
                    items.append(LintYAMLItem(text: item, line: number))
                    current?.value = .list(items)
                default:
                    throw LintConfigurationError(
                        line: number, message: "a list item under '\(open.key.text)', which already has a value")
                }
            } else {
                let (key, value) = try keyValue(content, line: number)
                guard let value else {
                    throw LintConfigurationError(
                        line: number, message: "'\(key)' has no value: pq's configuration nests one level only")
                }
                let scalarValue = try scalar(value, line: number)
                let entry = (key: LintYAMLItem(text: key, line: number), value: LintYAMLItem(text: scalarValue, line: number))
                switch open.value {
                case nil: current?.value = .map([entry])
                case .map(var entries):
                    if let earlier = entries.first(where: { $0.key.text == key }) {
                        throw LintConfigurationError(
                            line: number, message: "'\(key)' is given twice (first on line \(earlier.key.line))")
                    }
                    entries.append(entry)
                    current?.value = .map(entries)
                default:
                    throw LintConfigurationError(
                        line: number, message: "'\(key):' under '\(open.key.text)', which already has a value")
                }
            }
        }
        finish()
        return result
    }

    /// The line without its comment and trailing spaces.
    static func stripComment(_ line: Substring, line number: Int) throws(LintConfigurationError) -> String {
        var quote: Character?
        var previous: Character = " "
        var end = line.endIndex
        var index = line.startIndex
        while index < line.endIndex {
            let character = line[index]
            if let open = quote {
                if character == "\\", open == "\"" {
                    index = line.index(after: index)
                    if index == line.endIndex { break }
                } else if character == open {
                    quote = nil
                }
            } else if character == "\"" || character == "'" {
                if previous == " " || previous == ":" || previous == "-" || previous == "[" || previous == "," {
                    quote = character
                }
            } else if character == "#", previous == " " || index == line.startIndex {
                end = index
                break
            }
            previous = character
            index = line.index(after: index)
        }
        return String(line[line.startIndex..<end]).trimmed
    }

    /// `key: value` or `key:`, the key plain or quoted.
    static func keyValue(_ content: String, line: Int) throws(LintConfigurationError) -> (String, String?) {
        guard let colon = content.firstIndex(where: { $0 == ":" }) else {
            throw LintConfigurationError(line: line, message: "expected 'key: value', not '\(content)'")
        }
        let key = try scalar(String(content[..<colon]).trimmed, line: line)
        let rest = String(content[content.index(after: colon)...])
        guard rest.isEmpty || rest.hasPrefix(" ") else {
            throw LintConfigurationError(line: line, message: "put a space after the ':' of '\(key)'")
        }
        let value = rest.trimmed
        return (key, value.isEmpty ? nil : value)
    }

    /// A value written on the key's line: a scalar or a `[a, b]` list.
    static func inlineValue(_ text: String, line: Int) throws(LintConfigurationError) -> LintYAMLValue {
        guard text.hasPrefix("[") else { return .scalar(try scalar(text, line: line)) }
        guard text.hasSuffix("]") else {
            throw LintConfigurationError(line: line, message: "a list written on one line must end with ']' on that line")
        }
        let inner = text.dropFirst().dropLast().trimmed
        if inner.isEmpty { return .list([]) }
        var items: [LintYAMLItem] = []
        var part = ""
        var quote: Character?
        for character in inner {
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == "," {
                items.append(LintYAMLItem(text: try scalar(part.trimmed, line: line), line: line))
                part = ""
                continue
            }
            part.append(character)
        }
        items.append(LintYAMLItem(text: try scalar(part.trimmed, line: line), line: line))
        return .list(items)
    }

    /// A plain or quoted scalar.
    static func scalar(_ text: String, line: Int) throws(LintConfigurationError) -> String {
        guard let first = text.first else {
            throw LintConfigurationError(line: line, message: "expected a value")
        }
        if first == "'" || first == "\"" {
            guard text.count >= 2, text.last == first else {
                throw LintConfigurationError(line: line, message: "the quoted value \(text) is not closed on its line")
            }
            let inner = text.dropFirst().dropLast()
            if first == "'" { return inner.replacingOccurrences(of: "''", with: "'") }
            var out = ""
            var escaped = false
            for character in inner {
                if escaped {
                    switch character {
                    case "\"", "\\", "/": out.append(character)
                    case "n": out.append("\n")
                    case "t": out.append("\t")
                    default:
                        throw LintConfigurationError(
                            line: line, message: "pq's configuration does not read the escape '\\\(character)'")
                    }
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else {
                    out.append(character)
                }
            }
            return out
        }
        if let unsupported = ["&", "*", "!", "|", ">", "{", "[", "%", "@", "`"].first(where: { text.hasPrefix($0) }) {
            throw LintConfigurationError(
                line: line,
                message: "'\(unsupported)' starts YAML that pq's configuration does not read (see Documentation/Lint.md)")
        }
        return text
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces.
    var trimmed: String {
        var slice = self[...]
        while slice.first == " " { slice = slice.dropFirst() }
        while slice.last == " " { slice = slice.dropLast() }
        return String(slice)
    }
}
