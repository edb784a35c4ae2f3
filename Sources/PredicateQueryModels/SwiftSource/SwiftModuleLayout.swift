// Which module each Swift file belongs to, for resolving type names as the
// compiler would: a test target's mock `User` must not stand in for the app's
// `@Model class User`, and one package's model must not shadow another's.
//
// A file belongs to the SwiftPM target whose folder holds it: the targets are
// read from the `Package.swift` files among the files (`.target(name:path:)`,
// `.testTarget`, `.executableTarget`, `.macro`; without `path:`, `Sources/Name`
// or `Tests/Name`). Else to the Xcode target that compiles it, read from the
// `*.xcodeproj/project.pbxproj` files given (`XcodeProject`; a file in an app
// target and a test target is the app's). A file in no target belongs to the
// folder under the files' common root that holds it (`App/`, `Widget/`,
// `AppTests/`). A module is a test module when it is a `.testTarget` or an Xcode
// unit-test or UI-testing target, or, for a folder, when it is named `Tests` or
// ends in `Tests`. A `project.pbxproj` pq cannot parse is not used (its files
// fall back to their folders), with a warning. Reading `Package.swift` is a scan of its tokens, not an evaluation:
// targets built in loops or from variables are not seen, and their files fall
// back to their folder.

import PredicateQuery

/// The modules of a set of Swift files.
struct SwiftModuleLayout {
    /// A SwiftPM target or a folder.
    struct Module: Hashable {
        /// The folder the module's files are under (a path prefix, without the final `/`).
        var folder: String
        var name: String
        var isTest: Bool
    }

    /// The module of each file, in the order the files were given.
    let modules: [Module]
    /// The Xcode projects that could not be read, and why.
    let warnings: [SwiftModelSource.Warning]

    /// The modules of the Swift files at `paths` (their `texts`), with the Xcode projects' `project.pbxproj` files.
    init(paths: [String], texts: [String], projects: [SwiftModelSource.File] = []) {
        var targets: [Module] = []
        for (path, text) in zip(paths, texts) where Self.lastComponent(path) == "Package.swift" {
            targets += Self.targets(inManifest: text, folder: Self.folder(of: path))
        }
        // The deepest folder first, so a nested package's target wins over its parent's.
        targets.sort { $0.folder.count > $1.folder.count }
        var xcodeTargets: [(module: Module, target: XcodeProject.Target)] = []
        var warnings: [SwiftModelSource.Warning] = []
        for project in projects {
            switch XcodeProject.read(path: project.path, text: project.text) {
            case .success(let read):
                let folder = XcodeProject.normalized(Self.folder(of: Self.folder(of: project.path)))
                for target in read.targets {
                    xcodeTargets.append((Module(folder: folder, name: target.name, isTest: target.isTest), target))
                }
            case .failure(let problem):
                warnings.append(
                    SwiftModelSource.Warning(
                        file: project.path, line: problem.line,
                        message: "pq cannot read this Xcode project (\(problem.message)): its files' modules are their folders"))
            }
        }
        // An app's target before a test target, for a file both compile.
        xcodeTargets = xcodeTargets.filter { !$0.module.isTest } + xcodeTargets.filter { $0.module.isTest }
        let root = Self.commonFolder(paths)
        modules = paths.map { path in
            if let target = targets.first(where: { path.hasPrefix($0.folder + "/") }) { return target }
            if !xcodeTargets.isEmpty {
                let normalized = XcodeProject.normalized(path)
                if let target = xcodeTargets.first(where: { $0.target.contains(normalized) }) { return target.module }
            }
            return Self.folderModule(of: path, root: root)
        }
        self.warnings = warnings
    }

    /// Whether `path` is an Xcode project's `Name.xcodeproj/project.pbxproj`.
    static func isXcodeProject(_ path: String) -> Bool {
        lastComponent(path) == "project.pbxproj" && folder(of: path).hasSuffix(".xcodeproj")
    }

    /// The module of a file in no target: the first folder under `root` on its path.
    static func folderModule(of path: String, root: String) -> Module {
        let relative = root.isEmpty ? path : String(path.dropFirst(root.count + 1))
        let components = relative.split(separator: "/").map(String.init)
        guard components.count > 1 else { return Module(folder: root, name: root, isTest: false) }
        let name = components[0]
        let isTest = name == "Tests" || name.hasSuffix("Tests") || components.dropLast().contains("Tests")
        return Module(folder: root.isEmpty ? name : root + "/" + name, name: name, isTest: isTest)
    }

    /// The targets a manifest declares, with the folders their sources are in.
    static func targets(inManifest text: String, folder: String) -> [Module] {
        let tokens = SwiftSourceScanner.scan(Array(text.utf8)).tokens
        var found: [Module] = []
        let kinds: Set<String> = ["target", "testTarget", "executableTarget", "macro", "plugin"]
        for index in tokens.indices where index + 1 < tokens.count && index > 0 {
            guard tokens[index - 1].isPunctuation("."), kinds.contains(tokens[index].text), tokens[index + 1].isPunctuation("(")
            else { continue }
            let isTest = tokens[index].text == "testTarget"
            guard let name = stringArgument("name", after: index + 1, in: tokens) else { continue }
            let path = stringArgument("path", after: index + 1, in: tokens) ?? (isTest ? "Tests/" : "Sources/") + name
            let base = folder.isEmpty ? path : folder + "/" + path
            found.append(Module(folder: trimmed(base), name: name, isTest: isTest))
        }
        return found
    }

    /// The string literal after `label:` among the call's arguments starting at `open`, at its top level.
    static func stringArgument(_ label: String, after open: Int, in tokens: [SwiftToken]) -> String? {
        var level = 0
        var index = open
        while index + 2 < tokens.count {
            let token = tokens[index]
            if token.isPunctuation("(") || token.isPunctuation("[") { level += 1 }
            if token.isPunctuation(")") || token.isPunctuation("]") {
                level -= 1
                if level == 0 { return nil }
            }
            if level == 1, token.isWord(label), tokens[index + 1].isPunctuation(":"), tokens[index + 2].kind == .string {
                return tokens[index + 2].text
            }
            index += 1
        }
        return nil
    }

    static func lastComponent(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[..<slash])
    }

    static func trimmed(_ path: String) -> String {
        var result = path
        while result.hasSuffix("/") { result.removeLast() }
        if result.hasPrefix("./") { result.removeFirst(2) }
        return result.replacingOccurrences(of: "/./", with: "/")
    }

    /// The longest folder that holds every path.
    static func commonFolder(_ paths: [String]) -> String {
        guard var common = paths.first.map({ folder(of: $0).split(separator: "/", omittingEmptySubsequences: false) })
        else { return "" }
        for path in paths.dropFirst() {
            let parts = folder(of: path).split(separator: "/", omittingEmptySubsequences: false)
            var count = 0
            while count < common.count, count < parts.count, common[count] == parts[count] { count += 1 }
            common = Array(common.prefix(count))
        }
        return common.joined(separator: "/")
    }
}
