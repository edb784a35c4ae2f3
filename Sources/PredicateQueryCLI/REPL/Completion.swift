// Tab completion in the REPL: dot-commands, entity names after `.use` and
// `.schema`, modes and on/off after their commands, and in queries the names of
// entities, attributes and relationships (following `.` through relationships),
// enum cases after a leading `.`, and the query keywords.
//
// readline calls back into C function pointers, which cannot capture context, so
// the candidates' source is a global that the REPL sets.

import Foundation
import PredicateQuery

enum Completion {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var provider: ((String, String) -> [String])?
    nonisolated(unsafe) private static var candidates: [String] = []
    nonisolated(unsafe) private static var index = 0
    nonisolated(unsafe) private static var matchesFunction: LineEditor.Matches?
    nonisolated(unsafe) private static var lineBuffer: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?

    /// Sets what completes: given the word and the whole line, the candidates.
    static func setProvider(_ function: @escaping (String, String) -> [String]) {
        lock.lock()
        provider = function
        lock.unlock()
    }

    static func install(_ handle: UnsafeMutableRawPointer) {
        guard let attempted = dlsym(handle, "rl_attempted_completion_function"),
            let matches = dlsym(handle, "rl_completion_matches") ?? dlsym(handle, "completion_matches")
        else { return }
        matchesFunction = unsafeBitCast(matches, to: LineEditor.Matches.self)
        lineBuffer = dlsym(handle, "rl_line_buffer")?.assumingMemoryBound(to: UnsafeMutablePointer<CChar>?.self)
        attempted.assumingMemoryBound(to: LineEditor.AttemptedCompletion?.self).pointee = attemptCompletion
        if let breaks = dlsym(handle, "rl_completer_word_break_characters") {
            breaks.assumingMemoryBound(to: UnsafePointer<CChar>?.self).pointee = UnsafePointer(wordBreaks)
        }
    }

    /// Characters that end a word: spaces, operators, brackets, quotes (not `.`, `$`, `@`, `?`).
    nonisolated(unsafe) private static let wordBreaks: UnsafeMutablePointer<CChar> =
        strdup(" \t\n\"'()[]{},=<>!&|+-*/%") ?? UnsafeMutablePointer.allocate(capacity: 1)

    private static let attemptCompletion: LineEditor.AttemptedCompletion = { text, _, _ in
        let word = text.map { String(cString: $0) } ?? ""
        let line = lineBuffer?.pointee.map { String(cString: $0) } ?? word
        lock.lock()
        candidates = provider?(word, line) ?? []
        index = 0
        lock.unlock()
        return matchesFunction?(text, generate)
    }

    private static let generate: LineEditor.Generator = { _, _ in
        lock.lock()
        defer { lock.unlock() }
        guard index < candidates.count else { return nil }
        index += 1
        return strdup(candidates[index - 1])
    }

    // MARK: - Candidates

    static let commands = [
        ".help", ".entities", ".schema", ".use", ".sql", ".explain", ".mode", ".nullvalue", ".columns", ".timer", ".timeout",
        ".param", ".quit", ".exit",
    ]
    /// The query keywords (`Keywords.completions`: the string operators' come from their table).
    static let keywords = Keywords.completions

    /// The completions of `word`, the word under the cursor in `line`.
    static func candidates(for word: String, line: String, schema: Schema, entity: String?) -> [String] {
        let words = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        let isFirstWord = words.count <= 1 && !line.hasSuffix(" ")
        if line.hasPrefix(".") {
            if isFirstWord { return commands.filter { $0.hasPrefix(word) } }
            switch words.first {
            case ".use", ".schema": return (schema.entities.map(\.name) + ["--mermaid"]).filter { $0.hasPrefix(word) }
            case ".mode": return ["table", "json", "csv", "markdown"].filter { $0.hasPrefix(word) }
            case ".sql", ".explain", ".timer": return ["on", "off"].filter { $0.hasPrefix(word) }
            case ".timeout": return ["off"].filter { $0.hasPrefix(word) }
            case ".columns":
                let entities = entity.flatMap { schema.entity(named: $0) }.map { [$0] } ?? schema.entities
                // The columns tables show: stored attributes and relationships.
                let names = Set(
                    entities.flatMap { candidate in
                        schema.allProperties(of: candidate).filter { property in
                            switch property {
                            case .attribute(let attribute): !attribute.isTransient
                            case .relationship: true
                            default: false
                            }
                        }.map(\.name)
                    })
                return (["#"] + names.sorted()).filter { $0.hasPrefix(word) }
            case ".param": return ["set", "unset", "list", "clear"].filter { $0.hasPrefix(word) }
            default: return []
            }
        }
        if word.hasPrefix(".") {
            return Set(schema.enums.flatMap { $0.cases.map { "." + $0.name } }).filter { $0.hasPrefix(word) }.sorted()
        }
        let lineEntity = entity ?? words.first.flatMap { schema.entity(named: $0)?.name }
        if let dot = word.lastIndex(where: { $0 == "." }) {
            let path = word[..<dot].replacingOccurrences(of: "?", with: "").split(separator: ".").map(String.init)
            let stem = String(word[...dot])
            let partial = String(word[word.index(after: dot)...])
            return memberNames(after: path, from: lineEntity, schema: schema).filter { $0.hasPrefix(partial) }.map { stem + $0 }
        }
        var names = Set(schema.entities.map(\.name)).union(keywords)
        let entities = lineEntity.flatMap { schema.entity(named: $0) }.map { [$0] } ?? schema.entities
        for candidate in entities {
            names.formUnion(
                schema.allProperties(of: candidate).filter { property in
                    if case .computed = property { return false }
                    return true
                }.map(\.name))
        }
        return names.filter { $0.hasPrefix(word) }.sorted()
    }

    /// The property names of the entity reached by following `path` from `entity` (or any entity).
    private static func memberNames(after path: [String], from entity: String?, schema: Schema) -> [String] {
        let starts = entity.flatMap { schema.entity(named: $0) }.map { [$0] } ?? schema.entities
        var names: Set<String> = []
        for start in starts {
            var current: Entity? = start
            for component in path {
                guard let entity = current, case .relationship(let relationship)? = schema.property(named: component, of: entity)
                else {
                    current = nil
                    break
                }
                current = schema.entity(named: relationship.destination)
            }
            if let current { names.formUnion(schema.allProperties(of: current).map(\.name)) }
        }
        return names.sorted()
    }
}
