// Renders diagnostics the way swiftc and clang do.
//
//     <input>:1:1: error: 'genre' is a computed property of 'Movie'; only stored properties can be queried [check.computedProperty]
//     genre == .kids
//     ^~~~~
//     <input>:1:1: note: 'genre' is computed from the stored property 'genreId'
//
// The source line is shown once per diagnostic with a caret under the first
// character of the span and tildes under the rest. Very long lines are shown as a
// window around the span so a 1 MB input does not produce a 1 MB message.

/// Turns diagnostics into the text a terminal user reads.
public struct DiagnosticRenderer: Sendable {
    /// The name printed before the location, `<input>` for a query typed by hand.
    public var fileName: String
    /// Whether to append the stable code, as in `[check.computedProperty]`.
    public var showsCodes: Bool
    /// Source lines wider than this many characters are shown as a window around the span.
    public var maxLineWidth: Int

    /// A renderer that names the input `fileName` in each location, shows each
    /// diagnostic's code in brackets when `showsCodes`, and shortens input lines
    /// longer than `maxLineWidth` around the caret.
    public init(fileName: String = "<input>", showsCodes: Bool = true, maxLineWidth: Int = 120) {
        self.fileName = fileName
        self.showsCodes = showsCodes
        self.maxLineWidth = max(20, maxLineWidth)
    }

    /// Renders every diagnostic, each followed by its notes, in the order given.
    /// Lines and columns are found in one pass over the input, and each snippet reads
    /// only a bounded window of its line, so the time is linear in the input and the output.
    public func render(_ diagnostics: [Diagnostic], in source: String) -> String {
        let text = SourceText(source)
        let positions = text.locations(of: diagnostics.flatMap(\.offsets))
        var out = ""
        for diagnostic in diagnostics { render(diagnostic, in: text, positions: positions, into: &out) }
        return out
    }

    /// Renders one diagnostic and its notes; the result ends with a newline.
    public func render(_ diagnostic: Diagnostic, in text: SourceText) -> String {
        var out = ""
        render(diagnostic, in: text, positions: text.locations(of: diagnostic.offsets), into: &out)
        return out
    }

    private func render(
        _ diagnostic: Diagnostic, in text: SourceText, positions: [Int: SourcePosition], into out: inout String
    ) {
        let code = showsCodes ? " [\(diagnostic.code)]" : ""
        out += header(diagnostic.severity, diagnostic.message + code, at: diagnostic.span, in: text, positions)
        out += snippet(for: diagnostic.span, in: text)
        for note in diagnostic.notes {
            if let span = note.span {
                out += header(.note, note.message, at: span, in: text, positions)
                if span != diagnostic.span { out += snippet(for: span, in: text) }
            } else {
                out += "note: \(note.message)\n"
            }
        }
    }

    private func header(
        _ severity: Severity, _ message: String, at span: SourceSpan, in text: SourceText,
        _ positions: [Int: SourcePosition]
    ) -> String {
        let location = positions[min(max(0, span.start), text.bytes.count)] ?? text.location(of: span.start)
        return "\(fileName):\(location.line):\(location.column): \(severity.rawValue): \(message)\n"
    }

    /// The source line holding the span's start, and the caret line under it.
    private func snippet(for span: SourceSpan, in text: SourceText) -> String {
        let lineIndex = text.lineIndex(of: span.start)
        let wholeLine = text.lineRange(at: lineIndex)
        // Only the bytes around the span are decoded, so rendering each of many
        // diagnostics on a megabyte-long line costs the same as on a short one.
        let reach = 4 * maxLineWidth
        let lineBytes = text.scalarAligned(
            max(wholeLine.lowerBound, span.start - reach)..<min(wholeLine.upperBound, max(span.end, span.start + 1) + reach))
        let clippedBefore = lineBytes.lowerBound > wholeLine.lowerBound
        let clippedAfter = lineBytes.upperBound < wholeLine.upperBound
        var characters: [Character] = []
        var startColumn = 0
        var endColumn = 0
        var offset = lineBytes.lowerBound
        for character in text.text(lineBytes) {
            if offset < span.start { startColumn += 1 }
            if offset < span.end { endColumn += 1 }
            characters.append(character)
            offset += character.utf8.count
        }
        startColumn = min(startColumn, characters.count)
        endColumn = max(startColumn + 1, endColumn)

        var window = 0..<characters.count
        if characters.count > maxLineWidth {
            let lower = max(0, startColumn - maxLineWidth / 3)
            window = lower..<min(characters.count, lower + maxLineWidth)
        }
        var line = window.lowerBound > 0 || clippedBefore ? "…" : ""
        var caret = window.lowerBound > 0 || clippedBefore ? " " : ""
        for column in window {
            let shown = Self.printable(characters[column])
            line.append(shown)
            if column < startColumn {
                caret += shown == "\t" ? "\t" : String(repeating: " ", count: shown.displayWidth)
            } else if column < endColumn {
                let mark: Character = column == startColumn ? "^" : "~"
                caret += String(repeating: mark, count: max(1, shown.displayWidth))
                if column == startColumn, shown.displayWidth > 1 {
                    caret.removeLast(shown.displayWidth - 1)
                    caret += String(repeating: "~", count: shown.displayWidth - 1)
                }
            }
        }
        if window.upperBound < characters.count || clippedAfter { line += "…" }
        if startColumn >= characters.count { caret += "^" }
        return line + "\n" + caret + "\n"
    }

    /// Control characters are drawn as their Unicode control pictures so the caret stays aligned.
    private static func printable(_ character: Character) -> Character {
        guard character.unicodeScalars.count == 1, let scalar = character.unicodeScalars.first else {
            return character
        }
        if scalar == "\t" { return "\t" }
        if scalar.value < 0x20, let picture = Unicode.Scalar(0x2400 + scalar.value) {
            return Character(picture)
        }
        if scalar.value == 0x7F { return "\u{2421}" }
        return character
    }
}
