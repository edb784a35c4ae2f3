// `swift package pq-lint [--target NAME]… [pq lint options]`: runs `pq lint` over
// the Swift sources of the package's targets (those named, else all), printing its
// findings as the compiler prints diagnostics. Fails when `pq lint` fails.

import Foundation
import PackagePlugin

@main
struct PQLintCommand: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        let names = extractor.extractOption(named: "target")
        let targets = names.isEmpty ? context.package.targets : try context.package.targets(named: names)
        let folders = targets.filter { $0 is SourceModuleTarget }.map(\.directoryURL.path)
        try PQLint.run(try context.tool(named: "pq-lint").url, extractor.remainingArguments + folders)
    }
}

enum PQLint {
    /// Runs `pq-lint` (`pq lint`) with `arguments`; its output goes to this process's output.
    static func run(_ pqLint: URL, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = pqLint
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            Diagnostics.error("pq lint found errors (exit status \(process.terminationStatus))")
            throw PQLintFailed()
        }
    }

    struct PQLintFailed: Error, CustomStringConvertible {
        var description: String { "pq lint found errors" }
    }
}

#if canImport(XcodeProjectPlugin)
    import XcodeProjectPlugin

    extension PQLintCommand: XcodeCommandPlugin {
        func performCommand(context: XcodePluginContext, arguments: [String]) throws {
            var extractor = ArgumentExtractor(arguments)
            let names = Set(extractor.extractOption(named: "target"))
            let targets = context.xcodeProject.targets.filter { names.isEmpty || names.contains($0.displayName) }
            let files = targets.flatMap { $0.inputFiles.filter { $0.url.pathExtension == "swift" }.map(\.url.path) }
            try PQLint.run(try context.tool(named: "pq-lint").url, extractor.remainingArguments + files)
        }
    }
#endif
