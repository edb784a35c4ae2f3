// Diagnostics as JSON, for editors, servers and scripts.
//
// The shape is stable: severity, code, message, the byte range and the 1-based
// line/column of its start, and notes with the same fields.

import Foundation

extension Diagnostic {
    /// The JSON form of one diagnostic, with locations resolved against the input.
    public struct JSONForm: Codable, Hashable, Sendable {
        /// A range of the input in UTF-8 byte offsets, `start` included, `end` not.
        public struct Range: Codable, Hashable, Sendable {
            /// The offset of the first byte.
            public var start: Int
            /// The offset just past the last byte.
            public var end: Int
        }
        /// A note attached to the diagnostic, with its location if it has one.
        public struct Note: Codable, Hashable, Sendable {
            /// What the note says.
            public var message: String
            /// The part of the input the note points at, if any.
            public var range: Range?
            /// The 1-based line where that range starts, if any.
            public var line: Int?
            /// The 1-based column (in characters) where that range starts, if any.
            public var column: Int?
        }
        /// `error`, `warning` or `note`.
        public var severity: Severity
        /// The stable code: `check.notOrderable`.
        public var code: String
        /// What is wrong, in one sentence.
        public var message: String
        /// The part of the input the diagnostic points at.
        public var range: Range
        /// The 1-based line where that range starts.
        public var line: Int
        /// The 1-based column (in characters) where that range starts.
        public var column: Int
        /// The notes, in order.
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
