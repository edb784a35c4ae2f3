// Suppression comments, as SwiftLint users write them:
//
//     // pq-lint:disable:next nil-inequality      the next line
//     let p = #Predicate<Trip> { $0.note != "x" } // pq-lint:disable:this nil-inequality
//     // pq-lint:disable:previous nil-inequality  the line before
//     // pq-lint:disable nil-inequality count-through-optional   from this line …
//     // pq-lint:enable nil-inequality            … to the line before this one
//     // pq-lint:disable all                      every rule (`enable all` ends it)
//
// Several rules may follow one command; anything after ` - ` is a reason and is
// ignored. `enable RULE` ends `disable RULE`, `enable all` ends every disable; a
// `disable` with no `enable` lasts to the end of the file. `enable:next` (`:this`,
// `:previous`) turns rules back on for one line inside a disabled block. The comment must be a
// `//` comment (a `pq-lint:` inside a string on the line is not read as one, but
// one inside a multi-line string literal is).
//
// A suppression that hides nothing, names a rule pq does not have, or is not a
// command pq knows is itself a finding (`superfluous-disable`), at the comment.
// Rules the run does not check (disabled in the configuration, or opt-in and
// not asked for) cannot make a suppression superfluous.

import PredicateQuery

/// The suppression comments of one file.
struct LintSuppression {
    /// One rule (or `all`) suppressed over a range of lines, by the comment at `offset`.
    struct Entry {
        var rule: String
        var lines: ClosedRange<Int>
        /// Where the rule's name (or the command, when it names none) is written: byte range and line.
        var span: SourceSpan
        var line: Int
        var command: String
        var used = false
    }

    /// A comment that is no command pq knows, or names no rule.
    struct Problem {
        var message: String
        var span: SourceSpan
        var line: Int
    }

    var entries: [Entry] = []
    var problems: [Problem] = []
    /// Lines where `enable:next`, `:this` or `:previous` turned a rule (or `all`) back on.
    var enabled: [(rule: String, lines: ClosedRange<Int>)] = []

    static let prefix = "pq-lint:"

    /// No comments.
    init() {}

    /// Reads the `// pq-lint:` comments of a file.
    init(text: String) {
        let bytes = Array(text.utf8)
        var lineStart = 0
        var line = 1
        var open: [Int] = []  // indexes into `entries` of block disables not yet ended
        let lineCount = bytes.reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
        while lineStart <= bytes.count {
            var lineEnd = lineStart
            while lineEnd < bytes.count, bytes[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
            if let comment = Self.commentStart(bytes, lineStart..<lineEnd) {
                read(bytes, comment..<lineEnd, line: line, lineCount: lineCount, open: &open)
            }
            lineStart = lineEnd + 1
            line += 1
        }
    }

    /// Where a `// pq-lint:` comment's `pq-lint:` starts on the line, outside string literals.
    static func commentStart(_ bytes: [UInt8], _ range: Range<Int>) -> Int? {
        var inString = false
        var index = range.lowerBound
        while index < range.upperBound {
            let byte = bytes[index]
            if inString {
                if byte == UInt8(ascii: "\\") { index += 1 } else if byte == UInt8(ascii: "\"") { inString = false }
            } else if byte == UInt8(ascii: "\"") {
                inString = true
            } else if byte == UInt8(ascii: "/"), index + 1 < range.upperBound, bytes[index + 1] == UInt8(ascii: "/") {
                var start = index + 2
                while start < range.upperBound, bytes[start] == UInt8(ascii: "/") || bytes[start] == UInt8(ascii: " ") {
                    start += 1
                }
                let prefix = Array(prefix.utf8)
                guard start + prefix.count <= range.upperBound, Array(bytes[start..<start + prefix.count]) == prefix else {
                    return nil
                }
                return start
            }
            index += 1
        }
        return nil
    }

    /// A space, a tab, or the CR of a CRLF line end.
    static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
    }

    /// Reads one command: `pq-lint:disable:next rule rule - reason`.
    private mutating func read(_ bytes: [UInt8], _ range: Range<Int>, line: Int, lineCount: Int, open: inout [Int]) {
        // Words with their byte offsets, up to a ` - ` reason.
        var words: [(text: String, span: SourceSpan)] = []
        var index = range.lowerBound
        while index < range.upperBound {
            while index < range.upperBound, Self.isSpace(bytes[index]) {
                index += 1
            }
            let start = index
            while index < range.upperBound, !Self.isSpace(bytes[index]) {
                index += 1
            }
            guard index > start else { break }
            let word = String(decoding: bytes[start..<index], as: UTF8.self)
            if word == "-" || word == "--" { break }
            words.append((word, SourceSpan(start: start, end: index)))
        }
        guard let first = words.first else { return }
        let command = String(first.text.dropFirst(Self.prefix.count))
        let rules = words.dropFirst().map { $0 }
        let parts = command.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        let verb = parts[0]
        let scope = parts.count == 2 ? parts[1] : parts.count == 1 ? "" : "?"
        guard verb == "disable" || verb == "enable", ["", "next", "this", "previous"].contains(scope) else {
            problems.append(
                Problem(
                    message:
                        "'\(first.text)' is not a pq-lint command: write pq-lint:disable, pq-lint:enable, or either with :next, :this or :previous",
                    span: first.span, line: line))
            return
        }
        guard !rules.isEmpty else {
            problems.append(
                Problem(
                    message: "'\(first.text)' names no rule: write the rule ids after it, or 'all'", span: first.span,
                    line: line))
            return
        }
        for rule in rules where rule.text != "all" && LintRuleCatalog.rule(id: rule.text) == nil {
            var message = LintRuleCatalog.unknownRuleMessage(rule.text)
            if NameSuggestion.closest(to: rule.text, among: ["all"]) != nil, LintRuleCatalog.suggestion(for: rule.text) == nil {
                message = "unknown rule '\(rule.text)'; did you mean 'all'?"
            }
            problems.append(Problem(message: message, span: rule.span, line: line))
        }
        let known = rules.filter { $0.text == "all" || LintRuleCatalog.rule(id: $0.text) != nil }
        let lines: ClosedRange<Int>
        switch scope {
        case "next": lines = (line + 1)...(line + 1)
        case "this": lines = line...line
        case "previous": lines = max(1, line - 1)...max(1, line - 1)
        default: lines = line...max(line, lineCount)
        }
        if verb == "enable" {
            // `enable:next` and the like turn rules back on for one line inside a disabled block.
            guard scope.isEmpty else {
                enabled += known.map { (LintRuleCatalog.currentID($0.text), lines) }
                return
            }
            for rule in known {
                let id = LintRuleCatalog.currentID(rule.text)
                for position in open where entries[position].rule == id || rule.text == "all" {
                    entries[position].lines =
                        entries[position].lines
                        .lowerBound...max(
                            entries[position].lines.lowerBound, line - 1)
                }
                open.removeAll { rule.text == "all" || entries[$0].rule == id }
            }
            return
        }
        for rule in known {
            if scope.isEmpty { open.append(entries.count) }
            entries.append(
                Entry(rule: LintRuleCatalog.currentID(rule.text), lines: lines, span: rule.span, line: line, command: first.text))
        }
    }

    /// Whether a finding of `rule` on `line` is suppressed; marks the suppressions that hide it as used.
    mutating func suppresses(rule: String, line: Int) -> Bool {
        if enabled.contains(where: { ($0.rule == rule || $0.rule == "all") && $0.lines.contains(line) }) { return false }
        var hidden = false
        for position in entries.indices
        where (entries[position].rule == rule || entries[position].rule == "all") && entries[position].lines.contains(line) {
            entries[position].used = true
            hidden = true
        }
        return hidden
    }

    /// The findings this file's comments make: problems, and suppressions that hid nothing of the
    /// rules that ran (`checked`).
    func findings(file: String, in text: LintFileText, checked: (String) -> Bool) -> [LintFinding] {
        let rule = LintRule.superfluousDisable
        var found = problems.map { problem in
            text.finding(
                file: file, rule: rule.id, code: .lintSuperfluousDisable, severity: rule.severity, message: problem.message,
                span: problem.span, notes: [],
                site: nil)
        }
        for entry in entries where !entry.used && (entry.rule == "all" || checked(entry.rule)) {
            let scope =
                entry.command.hasSuffix(":next")
                ? "the next line"
                : entry.command.hasSuffix(":this")
                    ? "this line" : entry.command.hasSuffix(":previous") ? "the line before" : "the lines it covers"
            let what = entry.rule == "all" ? "no rule fired" : "'\(entry.rule)' did not fire"
            found.append(
                text.finding(
                    file: file, rule: rule.id, code: .lintSuperfluousDisable, severity: rule.severity,
                    message: "'\(entry.command) \(entry.rule)' suppresses nothing: \(what) on \(scope)",
                    span: entry.span, notes: [DiagnosticNote("remove it, or the rule's name from it")], site: nil))
        }
        return found
    }
}
