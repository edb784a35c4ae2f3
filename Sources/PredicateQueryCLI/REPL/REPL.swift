// The interactive loop: a prompt naming the entity in use, line editing and
// history (StatePaths.history), tab completion, dot-commands, and queries run
// through the session. Ctrl-C stops a running query; Ctrl-D leaves.

import Foundation
import PredicateQuery
import PredicateQueryLintCommand

struct REPL {
    let session: Session

    func run() -> Int32 {
        let commands = DotCommands(session: session)
        let editor = LineEditor(historyPath: Self.historyPath)
        let session = self.session
        Completion.setProvider { word, line in
            Completion.candidates(for: word, line: line, schema: session.schema, entity: session.defaultEntity)
        }
        Interruption.install(idle: {})
        session.output.write(
            """
            \(PQVersion.text) — \(session.open.path)
            \(session.schema.entities.count) entities; .help for help, .quit or Ctrl-D to leave.

            """)
        while true {
            let prompt = (session.defaultEntity ?? "pq") + "> "
            let read = editor.readLine(prompt: prompt)
            Interruption.reassert()  // the line editor may have put back a handler of its own choosing
            guard let line = read else {
                session.output.write("\n")
                break
            }
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty { continue }
            editor.remember(trimmed)
            if trimmed.hasPrefix(".") {
                if commands.run(trimmed) == .quit { break }
            } else {
                session.run(trimmed)
            }
            // Output to a pipe whose reader has gone: nothing more can be shown.
            if session.output.isClosed() { break }
        }
        editor.save()
        return 0
    }

    /// The history file (see `StatePaths.history`), its folder made if missing.
    static var historyPath: String? {
        guard let path = StatePaths.history() else { return nil }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return path
    }
}
