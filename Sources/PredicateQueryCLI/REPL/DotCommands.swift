// The REPL's commands, in the style of sqlite3: `.help`, `.entities`,
// `.schema [Entity] [--mermaid]`, `.use [Entity]`, `.sql on|off`, `.explain on|off`, `.emit swift|off`,
// `.mode table|json|csv|markdown`, `.nullvalue TEXT`, `.columns [NAMES]`, `.timer on|off`, `.timeout SECONDS|off`, `.param set|unset|list|clear`,
// `.quit`. Piped input accepts them too.

import Foundation
import PredicateQuery
import PredicateQueryPostgres

final class DotCommands {
    enum Outcome { case done, failed, quit }

    private let session: Session

    init(session: Session) {
        self.session = session
    }

    static let help = """
        .help                       this help
        .entities                   the entities and how many objects each has
        .schema [ENTITY]            attributes, enums, relationships (computed and transient marked)
        .schema --mermaid           the model as a Mermaid ER diagram
        .use [ENTITY]               query ENTITY when a query names none (no ENTITY: infer it again)
        .sql on|off                 print the SQL and its bound values before each result
        .explain on|off             print SQLite's query plan before each result
        .emit swift|off             print each query as Swift (#Predicate, SortDescriptor) instead of running it
        .mode table|json|csv|markdown
        .nullvalue TEXT             print TEXT for nil in tables (default: nil)
        .columns [NAMES]            show only these columns, as in .columns note,budget.name (none: all)
        .timer on|off               print how long each query took
        .timeout SECONDS|off        stop queries that run longer (Ctrl-C stops one too)
        .param set NAME VALUE       bind $NAME (lists: comma-separated); .param unset NAME
        .param list | clear         show or forget the bound parameters
        .quit                       leave (Ctrl-D works too)
        Anything else is a query, such as: limit > 100 && name contains 'Vac'

        """

    func run(_ line: String) -> Outcome {
        let words = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        guard let command = words.first else { return .done }
        let arguments = Array(words.dropFirst())
        switch command {
        case ".help": session.output.write(Self.help)
        case ".quit", ".exit": return .quit
        case ".entities": return entities()
        case ".schema": return schema(arguments)
        case ".use": return use(arguments)
        case ".sql": return toggle(arguments, command) { self.session.showSQL = $0 }
        case ".explain": return toggle(arguments, command) { self.session.explain = $0 }
        case ".emit":
            guard arguments.count == 1, arguments[0] == "swift" || arguments[0] == "off" else {
                return fail("usage: .emit swift|off")
            }
            session.emitsSwift = arguments[0] == "swift"
        case ".timer": return toggle(arguments, command) { self.session.timer = $0 }
        case ".mode":
            guard arguments.count == 1, let format = CommandLineOptions.Format(rawValue: arguments[0]) else {
                return fail("usage: .mode table|json|csv|markdown")
            }
            session.format = format
        case ".nullvalue":
            // The text is the rest of the line, spaces and all (empty: print nothing).
            session.nullText = String(line.drop { $0 == " " }.dropFirst(command.count).drop { $0 == " " })
        case ".columns":
            session.columns = arguments.isEmpty ? nil : ResultFormatter.columnList(arguments.joined(separator: " "))
        case ".timeout": return timeout(arguments)
        case ".param": return parameter(arguments, line: line)
        default:
            return fail("unknown command '\(command)'; .help lists the commands")
        }
        return .done
    }

    private func fail(_ message: String) -> Outcome {
        session.output.writeError("error: \(message)\n")
        return .failed
    }

    private func toggle(_ arguments: [String], _ command: String, _ set: (Bool) -> Void) -> Outcome {
        guard arguments.count == 1, arguments[0] == "on" || arguments[0] == "off" else {
            return fail("usage: \(command) on|off")
        }
        set(arguments[0] == "on")
        return .done
    }

    private func entities() -> Outcome {
        var counts: [String: Int64] = [:]
        for entity in session.schema.entities {
            let result = QueryCompiler.compile(
                Query(entity: Name(entity.name)), schema: session.schema, mapping: session.store.mapping, count: true)
            if let compiled = result.compiled { counts[entity.name] = try? session.store.count(compiled) }
        }
        session.output.write(SchemaPrinter(schema: session.schema).entities(counts: counts))
        return .done
    }

    private func schema(_ arguments: [String]) -> Outcome {
        let printer = SchemaPrinter(schema: session.schema)
        if arguments == ["--mermaid"] {
            session.output.write(printer.mermaid())
            return .done
        }
        guard arguments.count <= 1 else { return fail("usage: .schema [ENTITY] | .schema --mermaid") }
        if let name = arguments.first, session.schema.entity(named: name) == nil {
            return fail(unknownEntity(name))
        }
        if session.store.isSchemaInferred, arguments.isEmpty {
            session.output.write("-- inferred from the store's tables (it holds no model): names and types are guesses\n")
            for note in (session.store as? PostgresStore)?.schemaNotes ?? [] { session.output.write("-- \(note)\n") }
        }
        session.output.write(printer.schemaText(only: arguments.first))
        return .done
    }

    private func unknownEntity(_ name: String) -> String {
        let suggestion = NameSuggestionText.closest(to: name, among: session.schema.entities.map(\.name))
        return "no entity named '\(name)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? "")
    }

    private func use(_ arguments: [String]) -> Outcome {
        guard let name = arguments.first else {
            session.defaultEntity = nil
            return .done
        }
        guard arguments.count == 1, session.schema.entity(named: name) != nil else {
            return fail(arguments.count == 1 ? unknownEntity(name) : "usage: .use [ENTITY]")
        }
        session.defaultEntity = name
        return .done
    }

    private func timeout(_ arguments: [String]) -> Outcome {
        guard arguments.count <= 1 else { return fail("usage: .timeout SECONDS|off") }
        guard let argument = arguments.first else {
            let current = session.store.timeout.map { "\(Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18) s" }
            session.output.write("timeout: \(current ?? "off")\n")
            return .done
        }
        if argument == "off" {
            session.store.timeout = nil
            return .done
        }
        do {
            session.store.timeout = try CommandLineOptions.duration(".timeout", argument)
        } catch {
            return fail(error.message)
        }
        return .done
    }

    private func parameter(_ arguments: [String], line: String) -> Outcome {
        switch arguments.first {
        case "set":
            guard arguments.count >= 3 else { return fail("usage: .param set NAME VALUE") }
            var name = arguments[1]
            if name.hasPrefix("$") { name.removeFirst() }
            // The value is the rest of the line after the name, spaces and all.
            guard
                let nameRange = line.range(
                    of: arguments[1], range: (line.range(of: "set")?.upperBound ?? line.startIndex)..<line.endIndex)
            else {
                return fail("usage: .param set NAME VALUE")
            }
            session.parameters[name] = line[nameRange.upperBound...].trimmingCharacters(in: .whitespaces)
        case "unset":
            guard arguments.count == 2 else { return fail("usage: .param unset NAME") }
            session.parameters[arguments[1].hasPrefix("$") ? String(arguments[1].dropFirst()) : arguments[1]] = nil
        case "list":
            let lines = session.parameters.sorted { $0.key < $1.key }.map { "$\($0.key) = \($0.value)" }
            session.output.write(lines.isEmpty ? "no parameters\n" : lines.joined(separator: "\n") + "\n")
        case "clear":
            session.parameters = [:]
        default:
            return fail("usage: .param set NAME VALUE | unset NAME | list | clear")
        }
        return .done
    }
}

/// Did-you-mean for command arguments, using the checker's rule.
enum NameSuggestionText {
    static func closest(to name: String, among candidates: [String]) -> String? {
        NameSuggestion.closest(to: name, among: candidates)
    }
}
