// Diagnostics as JSON, for editors, servers and scripts.
//
// The shape is stable: severity, code, message, the byte range and the 1-based
// line/column of its start, and notes with the same fields.

import Foundation

extension Diagnostic {
    /// The JSON form of one diagnostic, with locations resolved against the input.
    public struct JSONForm: Codable, Hashable, Sendable {
        public struct Range: Codable, Hashable, Sendable {
            public var start: Int
            public var end: Int
        }
        public struct Note: Codable, Hashable, Sendable {
            public var message: String
            public var range: Range?
            public var line: Int?
            public var column: Int?
        }
        public var severity: Severity
        public var code: String
        public var message: String
        public var range: Range
        public var line: Int
        public var column: Int
        public var notes: [Note]
    }

    /// This diagnostic with its range resolved to a line and column of `text`.
    public func jsonForm(in text: SourceText) -> JSONForm {
        jsonForm(in: text, positions: text.locations(of: offsets))
    }

    func jsonForm(in text: SourceText, positions: [Int: SourcePosition]) -> JSONForm {
        func position(_ offset: Int) -> SourcePosition {
            positions[min(max(0, offset), text.bytes.count)] ?? text.location(of: offset)
        }
        let location = position(span.start)
        return JSONForm(
            severity: severity, code: code.rawValue, message: message,
            range: .init(start: span.start, end: span.end),
            line: location.line, column: location.column,
            notes: notes.map { note in
                let noteLocation = note.span.map { position($0.start) }
                return JSONForm.Note(
                    message: note.message,
                    range: note.span.map { .init(start: $0.start, end: $0.end) },
                    line: noteLocation?.line, column: noteLocation?.column)
            })
    }
}

extension DiagnosticRenderer {
    /// Renders diagnostics as a JSON array, one object per diagnostic.
    public func renderJSON(_ diagnostics: [Diagnostic], in source: String) -> String {
        let text = SourceText(source)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let positions = text.locations(of: diagnostics.flatMap(\.offsets))
        guard let data = try? encoder.encode(diagnostics.map { $0.jsonForm(in: text, positions: positions) }) else {
            return "[]"
        }
        return String(decoding: data, as: UTF8.self)
    }
}
