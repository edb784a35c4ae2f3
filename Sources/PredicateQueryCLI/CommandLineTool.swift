// The `pq` command: parse the options, open the store, then run one query, read
// queries from a pipe, or open the REPL on a terminal.

import Foundation
import PredicateQuery

/// The entry point of the `pq` executable.
public enum CommandLineTool {
    /// Runs pq with the arguments after the program name; returns the exit status.
    public static func main(_ arguments: [String]) -> Int32 {
        let output = Output.standard
        let options: CommandLineOptions
        do {
            options = try CommandLineOptions.parse(arguments)
        } catch {
            output.writeError("pq: \(error.message)\nTry 'pq --help' for more information.\n")
            return 2
        }
        if options.showHelp {
            output.write(HelpText.usage + "\n")
            return 0
        }
        if options.showVersion {
            output.write(HelpText.version + "\n")
            return 0
        }
        do {
            if options.printStorePath {
                output.write(try StoreOpening.path(for: options) + "\n")
                return 0
            }
            let open = try StoreOpening.open(options) { output.writeError($0 + "\n") }
            let session = Session(open: open, options: options, output: output)
            if let format = options.predicateFormat {
                Interruption.install(idle: { exit(130) })
                return runFormat(format, options.formatArguments, session, output) ? 0 : 1
            }
            if let query = options.query {
                Interruption.install(idle: { exit(130) })
                return session.run(query) ? 0 : 1
            }
            if isatty(STDIN_FILENO) != 0 {
                return REPL(session: session).run()
            }
            return LineReader.runPiped(session)
        } catch {
            output.writeError("pq: \(error.message)\n")
            return error.exitCode
        }
    }
}

/// Expands a format string with its command-line arguments (typed by the query,
/// as --param values are) and runs it.
private func runFormat(_ format: String, _ arguments: [String], _ session: Session, _ output: Output) -> Bool {
    let expansion = PredicateFormat.expand(format, arguments.map { .text($0) })
    guard expansion.diagnostics.isEmpty else {
        output.writeError(DiagnosticRenderer(fileName: "<format>").render(expansion.diagnostics, in: format))
        return false
    }
    return session.run(expansion.text, from: Session.FormatSource(format: format, expansion: expansion))
}

/// Reading queries and commands from a pipe, one per line.
enum LineReader {
    /// Runs each line; returns 1 if any line failed, else 0.
    static func runPiped(_ session: Session) -> Int32 {
        let commands = DotCommands(session: session)
        var failed = false
        while let line = readLine(strippingNewline: true) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("--") || trimmed.hasPrefix("#") { continue }
            if trimmed.hasPrefix(".") {
                switch commands.run(trimmed) {
                case .quit: return failed ? 1 : 0
                case .failed: failed = true
                case .done: break
                }
            } else if !session.run(trimmed) {
                failed = true
            }
        }
        return failed ? 1 : 0
    }
}
