// pq-lint: `pq lint` as a command of its own, the tool pq's SwiftPM plugins run.
// `pq-lint ARGUMENTS` does what `pq lint ARGUMENTS` does (the same code, in
// PredicateQueryLintCommand); it is built without the stores, so that an app using
// the plugins, and pq's own build (SwiftPM builds a plugin's tool a second time, for
// the host), compile less.

import Foundation
import PredicateQueryLintCommand

let output = LintCommand.Output(
    write: { try? FileHandle.standardOutput.write(contentsOf: Data($0.utf8)) },
    writeError: { try? FileHandle.standardError.write(contentsOf: Data($0.utf8)) })
exit(LintCommand.run(Array(CommandLine.arguments.dropFirst()), output: output))
