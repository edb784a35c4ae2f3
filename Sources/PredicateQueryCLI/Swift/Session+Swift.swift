// `pq --swift`: a `#Predicate` written in Swift, run like any query.
//
// The text is `#Predicate<Trip> { … }`, a closure or a closure body, given as
// the query, as the path of a file holding it, or on standard input. Captured
// values are parameters: `--param search=Vac` binds `search`, `--check` lists them.

import Foundation
import PredicateQuery
import PredicateQueryModels

extension Session {
    /// Reads Swift predicate source and runs it; false if it failed (the error is printed).
    func run(swift text: String) -> Bool {
        let renderer = DiagnosticRenderer(fileName: "<swift>")
        let read = SwiftPredicate.parse(text, entity: defaultEntity)
        guard let written = read.query else {
            output.writeError(renderer.render(read.diagnostics, in: text))
            return false
        }
        if !read.diagnostics.isEmpty { output.writeError(renderer.render(read.diagnostics, in: text)) }
        // `partner.count` after a to-one is the partner's own `count`, where its model has one.
        let query = SwiftPredicate.resolveMembers(written, schema: schema, entity: defaultEntity)
        return run(query, source: text, renderer: renderer)
    }
}

/// Where `--swift` source comes from.
enum SwiftQueryInput {
    /// The query argument, the file it names (`.swift`), or standard input when there is none or it is `-`.
    static func read(_ argument: String?) throws(CLIError) -> String {
        if let argument, argument != "-" {
            guard argument.hasSuffix(".swift") else { return argument }
            guard FileManager.default.fileExists(atPath: argument) else {
                // `$0.language == .swift` is source; `Filters.swift` or `./a/b.swift` is a
                // path, which would otherwise be read as a captured value's member.
                guard looksLikePath(argument) else { return argument }
                throw CLIError.io("no file at '\(argument)' (--swift reads a .swift file or takes the predicate itself)")
            }
            guard let text = try? String(contentsOfFile: argument, encoding: .utf8) else {
                throw CLIError.io("cannot read '\(argument)'")
            }
            return text
        }
        guard isatty(STDIN_FILENO) == 0 else {
            throw CLIError.usage("--swift needs a predicate, as in pq --swift '#Predicate<Budget> { $0.limit > 100 }'")
        }
        let data = FileHandle.standardInput.readDataToEndOfFile()
        return String(decoding: data, as: UTF8.self)
    }

    /// Whether a `.swift` argument is a file's path rather than predicate source: no
    /// spaces, and none of the characters a predicate needs beside names, dots and
    /// `+` (which Swift file names use: `Trip+Search.swift`).
    static func looksLikePath(_ argument: String) -> Bool {
        !argument.contains { " \t\n$={}()<>!&|\"'*%?:,".contains($0) }
    }
}
