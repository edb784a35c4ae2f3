// `pq lint PATH…`: the queries of a SwiftData app, checked against its models.
//
// Reads the configuration (`.pq-lint.yml`, or `--config FILE`), the Swift files
// under the paths (hidden folders, `.build` and the configuration's `excluded`
// are skipped), runs the lint (`LintRun`: rules, suppression comments, the
// baseline) and prints the findings in the format asked for: swiftc's
// `file:line:column: error: … [rule]` with the source line and a caret (text),
// one JSON object, SARIF 2.1.0, GitHub Actions annotations or JUnit XML.
// `--rules` and `--explain RULE` print the rule catalog. No store is opened.
// Exit status: 0 no errors, 1 errors (or warnings with `--strict`), 2 bad
// usage, an unreadable path, configuration or baseline.

import Foundation
import PredicateQuery
import PredicateQueryModels

/// `pq lint`, for `pq` and for `pq-lint` (the tool pq's plugins run).
package enum LintCommand {
    /// Where the report and the errors go.
    package struct Output: Sendable {
        package var write: @Sendable (String) -> Void
        package var writeError: @Sendable (String) -> Void

        package init(write: @escaping @Sendable (String) -> Void, writeError: @escaping @Sendable (String) -> Void) {
            self.write = write
            self.writeError = writeError
        }
    }

    /// Runs `pq lint` with the arguments after `lint`; returns the exit status.
    package static func run(_ arguments: [String], output: Output) -> Int32 {
        let options: LintOptions
        do {
            options = try LintOptions(arguments)
        } catch {
            output.writeError("pq lint: \(error.message)\n" + (error.showsUsage ? LintOptions.usage + "\n" : ""))
            return 2
        }
        if options.help {
            output.write(LintOptions.usage + "\n")
            return 0
        }
        if options.listRules {
            output.write(LintRulesOutput.list())
            return 0
        }
        if let id = options.explain {
            guard let rule = LintRuleCatalog.rule(id: id) else {
                output.writeError("pq lint: \(LintRuleCatalog.unknownRuleMessage(id))\n")
                return 2
            }
            output.write(LintRulesOutput.explain(rule))
            return 0
        }
        do {
            let status = try lint(options, output: output)
            if status == 0, let stamp = options.stamp {
                let written = FileManager.default.createFile(
                    atPath: stamp, contents: Data("pq lint passed\n".utf8))
                if !written {
                    output.writeError("pq lint: cannot write '\(stamp)'\n")
                    return 2
                }
            }
            return status
        } catch {
            output.writeError("pq lint: \(error.description)\n")
            return 2
        }
    }

    static func lint(_ options: LintOptions, output: Output) throws(LintConfigurationError) -> Int32 {
        var configuration = LintConfiguration()
        if let path = options.configuration {
            guard let found = try LintConfiguration.load(path: path) else {
                throw LintConfigurationError(message: "no configuration file at '\(path)'")
            }
            configuration = found
        } else if let found = try LintConfiguration.load(path: LintConfiguration.fileName) {
            configuration = found
        }
        var paths = options.paths
        if paths.isEmpty {
            let fromFile = options.configuration != nil || FileManager.default.fileExists(atPath: LintConfiguration.fileName)
            guard fromFile else {
                throw LintConfigurationError(
                    message:
                        "name the folders or Swift files to check, or write their paths in \(LintConfiguration.fileName)\n\(LintOptions.usage)"
                )
            }
            paths = configuration.included.isEmpty ? [configuration.root] : configuration.includedPaths
        }
        let files = try SwiftFiles.read(paths, excluding: configuration.excludes)
        var baseline: LintBaseline?
        if let path = options.baseline { baseline = try LintBaseline.load(path: path) }
        // The same inputs as an earlier run: its result (writing a baseline always runs).
        var cacheKey: String?
        if options.usesCache, options.writeBaseline == nil {
            let configurationPath: String = options.configuration ?? LintConfiguration.fileName
            let configurationText = try? String(contentsOfFile: configurationPath, encoding: .utf8)
            let baselineText = options.baseline.flatMap { try? String(contentsOfFile: $0, encoding: .utf8) }
            let key = LintCache.key(
                files: files.map { ($0.path, Array($0.text.utf8)) }, options: options, configuration: configurationText,
                baseline: baselineText)
            if let cached = LintCache.result(for: key) {
                output.write(cached.output)
                return cached.status
            }
            cacheKey = key
        }
        var run = LintRun(
            files, configuration: configuration, sql: options.sql, engineDifferences: options.engineDifferences,
            baseline: baseline)
        if let path = options.writeBaseline {
            // Every finding is written, those an old baseline hid too; they are accepted, so hidden from
            // this run as from the next.
            let written = LintBaseline(run.unbaselined)
            do {
                try written.json.write(toFile: path, atomically: true, encoding: String.Encoding.utf8)
            } catch {
                throw LintConfigurationError(message: "cannot write the baseline '\(path)': \(error.localizedDescription)")
            }
            run.baselined = run.unbaselined.count
            run.findings = []
        }
        let strict = options.strict || configuration.strict
        let text: String
        switch options.format {
        case .text: text = LintOutput.text(run)
        case .json: text = LintOutput.json(run)
        case .sarif: text = SARIFReporter.report(run)
        case .github: text = GitHubReporter.report(run)
        case .junit: text = JUnitReporter.report(run, strict: strict)
        }
        output.write(text)
        let status: Int32 = run.fails(strict: strict) ? 1 : 0
        if let cacheKey { LintCache.store(text, status: status, for: cacheKey) }
        return status
    }
}

/// The Swift files under some paths, and the Xcode projects' `project.pbxproj` files.
enum SwiftFiles {
    static func read(
        _ paths: [String], excluding excluded: (String) -> Bool = { _ in false }
    ) throws(LintConfigurationError)
        -> [SwiftModelSource.File]
    {
        var found: [String] = []
        let manager = FileManager.default
        for path in paths {
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw LintConfigurationError(message: "no file or folder at '\(path)'")
            }
            guard isDirectory.boolValue else {
                if !excluded(path) { found.append(path) }
                continue
            }
            // An Xcode project's targets tell which module each Swift file is in.
            let inFolder = SourceFolder.files(under: path, excluding: excluded) { name, full in
                name.hasSuffix(".swift") || (name == "project.pbxproj" && full.hasSuffix(".xcodeproj/project.pbxproj"))
            }
            guard let inFolder else { throw LintConfigurationError(message: "cannot list '\(path)'") }
            found += inFolder
        }
        var files: [SwiftModelSource.File] = []
        for path in found {
            guard let data = manager.contents(atPath: path) else { throw LintConfigurationError(message: "cannot read '\(path)'") }
            files.append(SwiftModelSource.File(path: path, text: String(decoding: data, as: UTF8.self)))
        }
        return files
    }
}
