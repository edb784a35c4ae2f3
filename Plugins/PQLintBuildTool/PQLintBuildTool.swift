// The build tool plugin: `pq lint` runs as part of building a target, over the
// target's Swift files and those of the targets it depends on (where its models may
// live), and its findings appear in `swift build`'s and Xcode's output as the
// compiler's do (`file:line:column: error: … [rule]`). An error fails the build. The
// command declares an output (a stamp `pq lint` writes when it passes), so it runs
// again only when a source file changed.

import Foundation
import PackagePlugin

@main
struct PQLintBuildTool: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        var files = target.sourceFiles(withSuffix: "swift").map(\.url)
        for case let dependency as SourceModuleTarget in target.recursiveTargetDependencies {
            files += dependency.sourceFiles(withSuffix: "swift").map(\.url)
        }
        return [
            Self.command(
                pqLint: try context.tool(named: "pq-lint").url, files: files, target: target.name,
                stamp: context.pluginWorkDirectoryURL.appendingPathComponent("pq-lint-\(target.name).stamp"))
        ]
    }

    /// `pq-lint --stamp STAMP FILE…` (`pq lint`), run when any of the files changed.
    static func command(pqLint: URL, files: [URL], target: String, stamp: URL) -> Command {
        .buildCommand(
            displayName: "pq lint \(target)", executable: pqLint,
            arguments: ["--no-cache", "--stamp", stamp.path] + files.map(\.path),
            inputFiles: files, outputFiles: [stamp])
    }
}

#if canImport(XcodeProjectPlugin)
    import XcodeProjectPlugin

    extension PQLintBuildTool: XcodeBuildToolPlugin {
        func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
            let files = target.inputFiles.filter { $0.url.pathExtension == "swift" }.map(\.url)
            return [
                Self.command(
                    pqLint: try context.tool(named: "pq-lint").url, files: files, target: target.displayName,
                    stamp: context.pluginWorkDirectoryURL.appendingPathComponent("pq-lint-\(target.displayName).stamp"))
            ]
        }
    }
#endif
