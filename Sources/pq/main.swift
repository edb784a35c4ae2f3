// pq: query SwiftData, Core Data and SQLite stores with predicates.
// The command itself lives in PredicateQueryCLI so it can be tested.

import Foundation
import PredicateQueryCLI

let status = CommandLineTool.main(Array(CommandLine.arguments.dropFirst()))
// Standard output's reader went away (`pq … | head -1`): end as `cat` does there.
if status == CommandLineTool.closedPipeStatus { CommandLineTool.endAsClosedPipe() }
exit(status)
