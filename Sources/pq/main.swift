// pq: query SwiftData, Core Data and SQLite stores with predicates.
// The command itself lives in PredicateQueryCLI so it can be tested.

import Foundation
import PredicateQueryCLI

exit(CommandLineTool.main(Array(CommandLine.arguments.dropFirst())))
