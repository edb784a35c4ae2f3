// `pq lint PATH…`: the queries of a SwiftData app, checked against its models.
//
// Reads every `.swift` file under the paths (hidden folders and `.build` are
// skipped), then prints what `SwiftAppLint` found as swiftc prints
// diagnostics — `file:line:column: error: …`, the source line and a caret — or,
// with `--format json`, one JSON object for editors and CI. `--sql` adds, for
// each query that checked, the SQL pq would run; `--engine-differences` adds the
// warnings where pq's own engine would order results differently from SwiftData
// (for running an app's queries with pq; they say nothing about the app). A site
// whose model type pq cannot tell is skipped and counted in the summary. No
// store is opened. Exit
// status: 0 clean or warnings only, 1 errors, 2 bad usage or unreadable paths.

import Foundation
import PredicateQuery
import PredicateQueryModels

enum LintCommand {
    static let usage = """
        usage: pq lint [--format text|json] [--sql] [--engine-differences] PATH...
          Checks every #Predicate, @Query, FetchDescriptor and SortDescriptor in the
          Swift files under PATH against the @Model classes found there.
        """

    static func run(_ arguments: [String], output: Output) -> Int32 {
        var paths: [String] = []
        var json = false
        var sql = false
        var engineDifferences = false
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            switch argument {
            case "--help", "-h":
                output.write(usage + "\n")
                return 0
            case "--sql": sql = true
            case "--engine-differences": engineDifferences = true
            case "--format", "--format=json", "--format=text":
                var value = argument.hasPrefix("--format=") ? String(argument.dropFirst("--format=".count)) : ""
                if value.isEmpty, index < arguments.count {
                    value = arguments[index]
                    index += 1
                }
                guard value == "json" || value == "text" else {
                    output.writeError("pq lint: --format must be text or json, not '\(value)'\n")
                    return 2
                }
                json = value == "json"
            default:
                if argument.hasPrefix("-"), argument != "-" {
                    output.writeError("pq lint: unknown option '\(argument)'\n\(usage)\n")
                    return 2
                }
                paths.append(argument)
            }
        }
        guard !paths.isEmpty else {
            output.writeError("pq lint: name the folders or Swift files to check\n\(usage)\n")
            return 2
        }
        let files: [SwiftModelSource.File]
        do {
            files = try SwiftFiles.read(paths)
        } catch {
            output.writeError("pq lint: \(error.message)\n")
            return 2
        }
        let report = SwiftAppLint.lint(files, sql: sql, engineDifferences: engineDifferences)
        output.write(json ? LintOutput.json(report) : LintOutput.text(report))
        return report.diagnostics.contains { $0.diagnostic.severity == .error } ? 1 : 0
    }
}

/// The Swift files under some paths.
enum SwiftFiles {
    static func read(_ paths: [String]) throws(CLIError) -> [SwiftModelSource.File] {
        var found: [String] = []
        let manager = FileManager.default
        for path in paths {
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw CLIError.io("no file or folder at '\(path)'")
            }
            guard isDirectory.boolValue else {
                found.append(path)
                continue
            }
            guard let enumerator = manager.enumerator(atPath: path) else { throw CLIError.io("cannot list '\(path)'") }
            var inFolder: [String] = []
            while let relative = enumerator.nextObject() as? String {
                let name = (relative as NSString).lastPathComponent
                if name.hasPrefix(".") || name == ".build" {
                    enumerator.skipDescendants()
                    continue
                }
                if name.hasSuffix(".swift") { inFolder.append((path as NSString).appendingPathComponent(relative)) }
            }
            found += inFolder.sorted()
        }
        var files: [SwiftModelSource.File] = []
        for path in found {
            guard let data = manager.contents(atPath: path) else { throw CLIError.io("cannot read '\(path)'") }
            files.append(SwiftModelSource.File(path: path, text: String(decoding: data, as: UTF8.self)))
        }
        return files
    }
}
