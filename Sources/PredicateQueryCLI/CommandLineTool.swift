// The `pq` command: parse the options, open the store, then run one query, read
// queries from a pipe, or open the REPL on a terminal.

import Foundation
import PredicateQuery
import PredicateQueryLintCommand

/// The entry point of the `pq` executable.
public enum CommandLineTool {
    /// The status `main` returns when standard output's reader went away (a closed
    /// pipe, as in `pq … | head -1`): the caller ends the process with
    /// `endAsClosedPipe()`, as `cat` or `seq` end there.
    public static let closedPipeStatus: Int32 = 128 + SIGPIPE

    /// Ends the process quietly as killed by SIGPIPE, which shells report as
    /// status 141 and do not complain about; for when `main` returned `closedPipeStatus`.
    public static func endAsClosedPipe() -> Never {
        StandardStream.endAsClosedPipe()
    }

    /// Runs pq with the arguments after the program name; returns the exit status,
    /// `closedPipeStatus` if standard output's reader went away (the query stopped
    /// when it found so).
    public static func main(_ arguments: [String]) -> Int32 {
        // A write to a closed pipe fails with EPIPE instead of ending pq, which then
        // stops its query (and cancels it on a PostgreSQL server) before it ends.
        StandardStream.ignoreBrokenPipeSignal()
        let status = run(arguments)
        switch StandardStream.output.state {
        case .open: return status
        case .readerGone: return closedPipeStatus
        case .failed(let code):
            StandardStream.error.write("pq: cannot write the output: \(String(cString: strerror(code)))\n")
            return 1
        }
    }

    private static func run(_ arguments: [String]) -> Int32 {
        let output = Output.standard
        if arguments.first == "lint" {
            return LintCommand.run(
                Array(arguments.dropFirst()), output: LintCommand.Output(write: output.write, writeError: output.writeError))
        }
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
            output.write(PQVersion.text + "\n")
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
            if options.swift {
                Interruption.install(idle: { exit(130) })
                return session.run(swift: try SwiftQueryInput.read(options.query)) ? 0 : 1
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
            // Output to a pipe whose reader has gone: nothing more can be shown.
            if session.output.isClosed() { break }
        }
        return failed ? 1 : 0
    }
}
