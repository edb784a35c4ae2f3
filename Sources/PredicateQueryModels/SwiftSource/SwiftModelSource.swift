// Model metadata from Swift source: the `@Model` classes a SwiftData user
// already has, read without compiling them and without swift-syntax.
//
// Each file is scanned (`SwiftSourceScanner`), its `#if` groups cut to their
// first branch (`SwiftConditionalFilter`) and its declarations read
// (`SwiftModelReader`); then `SwiftSchemaBuilder` turns the declarations of all
// files together into a `Schema`, since a model may use an enum or a struct from
// another file. Nothing here fails: what the reader does not understand is
// skipped, with a warning naming the file and line.

import PredicateQuery

/// Reads model metadata from Swift source files.
public struct SwiftModelSource: Sendable {
    /// A Swift source file: its path (used in warnings) and its text.
    public struct File: Sendable {
        /// The file's path, as warnings name it.
        public var path: String
        /// The file's Swift source.
        public var text: String

        /// The file at `path` holding `text`.
        public init(path: String, text: String) {
            self.path = path
            self.text = text
        }
    }

    /// Something in the source that was skipped or could not be read as written.
    public struct Warning: Sendable, Hashable, CustomStringConvertible {
        /// The path of the file, as given in `File.path`.
        public var file: String
        /// The 1-based line.
        public var line: Int
        /// What was skipped or read differently, and why.
        public var message: String

        /// A warning about `line` of `file` saying `message`.
        public init(file: String, line: Int, message: String) {
            self.file = file
            self.line = line
            self.message = message
        }

        /// `path:line: warning: message`, as compilers print them.
        public var description: String { "\(file):\(line): warning: \(message)" }
    }

    /// How many warnings one file may produce before the rest are summarized.
    static let warningsPerFile = 100

    /// Reads every `@Model` class in `files`, with the enums and Codable structs
    /// their attributes use (they may be declared in other files of `files`).
    ///
    /// Entities come in declaration order, files in the order given; enums and
    /// structs in order of first use. The warnings list, by file and line,
    /// everything that was skipped.
    public static func schema(from files: [File]) -> (schema: Schema, warnings: [Warning]) {
        var builder = SwiftSchemaBuilder(files: files.map(SwiftModelReader.read))
        let schema = builder.build()
        return (schema, limited(builder.warnings, fileOrder: files.map(\.path)))
    }

    /// The warnings by file (in the given order) and line, at most
    /// `warningsPerFile` for each file.
    static func limited(_ warnings: [Warning], fileOrder: [String]) -> [Warning] {
        var rank: [String: Int] = [:]
        for (position, path) in fileOrder.enumerated() where rank[path] == nil { rank[path] = position }
        let sorted = warnings.enumerated().sorted {
            (rank[$0.element.file] ?? 0, $0.element.line, $0.offset) < (rank[$1.element.file] ?? 0, $1.element.line, $1.offset)
        }.map(\.element)
        var seen: Set<Warning> = []
        let unique = sorted.filter { seen.insert($0).inserted }
        var totals: [String: Int] = [:]
        for warning in unique { totals[warning.file, default: 0] += 1 }
        var result: [Warning] = []
        var counts: [String: Int] = [:]
        for warning in unique {
            let count = counts[warning.file, default: 0]
            counts[warning.file] = count + 1
            if count < warningsPerFile {
                result.append(warning)
            } else if count == warningsPerFile {
                let more = totals[warning.file, default: 0] - warningsPerFile
                result.append(Warning(file: warning.file, line: warning.line, message: "\(more) more warnings in this file"))
            }
        }
        return result
    }
}
