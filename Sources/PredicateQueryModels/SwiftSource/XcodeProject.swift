// The targets of an Xcode project and the Swift files each compiles, read from
// its `project.pbxproj`, so `SwiftModuleLayout` can put a file in the module
// Xcode builds it in: a test target's mock `User` must not stand in for the
// app's `@Model class User` (as a SwiftPM test target's does not).
//
// Only what target membership needs is read, tolerantly:
//   - `PBXNativeTarget` → `buildPhases` → `PBXSourcesBuildPhase` → `files` →
//     `PBXBuildFile` → `fileRef` → `PBXFileReference`'s `path`, resolved through
//     the `PBXGroup` (and `PBXVariantGroup`) parents' paths and `sourceTree`
//     (`<group>`, `SOURCE_ROOT`, `<absolute>`; a file under `BUILT_PRODUCTS_DIR`
//     or an SDK is no source of the project's);
//   - Xcode 16's folders (`PBXFileSystemSynchronizedRootGroup`, listed in a
//     target's `fileSystemSynchronizedGroups`): every file under the folder is the
//     target's, but for its `PBXFileSystemSynchronizedBuildFileExceptionSet`'s
//     `membershipExceptions` for that target; an exception set for a target that
//     does not list the folder adds those files to that target.
// A test target is one whose `productType` is a unit-test or UI-testing bundle.
// The file is an old-style (OpenStep) property list; one pq cannot parse is not
// used (its files fall back to their folders, as without it) and `read` says why.

import PredicateQuery

/// The targets of one Xcode project.
struct XcodeProject: Equatable {
    struct Target: Equatable {
        var name: String
        var isTest: Bool
        /// The source files the target compiles, as paths joined to the project's folder (normalized).
        var files: Set<String>
        /// Xcode 16 folders whose files the target compiles: the folder's path, and the paths under it
        /// (relative to it) that are not the target's.
        var folders: [(path: String, exceptions: Set<String>)]

        static func == (lhs: Target, rhs: Target) -> Bool {
            lhs.name == rhs.name && lhs.isTest == rhs.isTest && lhs.files == rhs.files
                && lhs.folders.map(\.path) == rhs.folders.map(\.path)
                && lhs.folders.map(\.exceptions) == rhs.folders.map(\.exceptions)
        }

        /// Whether the target compiles the file at `path` (normalized).
        func contains(_ path: String) -> Bool {
            if files.contains(path) { return true }
            for folder in folders where folder.path.isEmpty || path.hasPrefix(folder.path + "/") {
                let relative = folder.path.isEmpty ? path : String(path.dropFirst(folder.path.count + 1))
                let excluded = folder.exceptions.contains { relative == $0 || relative.hasPrefix($0 + "/") }
                if !excluded { return true }
            }
            return false
        }
    }

    /// The path of the `project.pbxproj` file.
    var path: String
    var targets: [Target]

    /// Why a `project.pbxproj` could not be read: the line and what was wrong.
    struct Problem: Error, Equatable {
        var line: Int
        var message: String
    }

    /// Reads the `project.pbxproj` at `path` (inside `Name.xcodeproj/`), or says why it cannot.
    static func read(path: String, text: String) -> Result<XcodeProject, Problem> {
        var parser = PropertyListParser(bytes: Array(text.utf8))
        let root: PropertyListParser.Value
        do throws(Problem) {
            root = try parser.document()
        } catch {
            return .failure(error)
        }
        guard let objects = root["objects"]?.dictionary else {
            return .failure(Problem(line: 1, message: "it has no 'objects'"))
        }
        // The project's folder: the one holding `Name.xcodeproj`.
        let projectFolder = SwiftModuleLayout.folder(of: SwiftModuleLayout.folder(of: path))
        let resolver = PathResolver(objects: objects, projectFolder: projectFolder)
        var targets: [Target] = []
        var targetIndex: [String: Int] = [:]
        for (id, value) in objects.sorted(by: { $0.key < $1.key }) where value["isa"]?.string == "PBXNativeTarget" {
            let productType = value["productType"]?.string ?? ""
            var target = Target(
                name: value["name"]?.string ?? id,
                isTest: productType.hasSuffix(".unit-test") || productType.hasSuffix(".ui-testing"),
                files: [], folders: [])
            for phase in value["buildPhases"]?.strings ?? [] where objects[phase]?["isa"]?.string == "PBXSourcesBuildPhase" {
                for buildFile in objects[phase]?["files"]?.strings ?? [] {
                    guard let reference = objects[buildFile]?["fileRef"]?.string, let file = resolver.path(of: reference) else {
                        continue
                    }
                    target.files.insert(file)
                }
            }
            for group in value["fileSystemSynchronizedGroups"]?.strings ?? [] {
                guard let folder = resolver.path(of: group) else { continue }
                var exceptions: Set<String> = []
                for set in objects[group]?["exceptions"]?.strings ?? [] where objects[set]?["target"]?.string == id {
                    for name in objects[set]?["membershipExceptions"]?.strings ?? [] { exceptions.insert(normalized(name)) }
                }
                target.folders.append((folder, exceptions))
            }
            targetIndex[id] = targets.count
            targets.append(target)
        }
        // An exception set for a target that does not list the folder: its files are that target's.
        for (id, value) in objects.sorted(by: { $0.key < $1.key })
        where value["isa"]?.string == "PBXFileSystemSynchronizedRootGroup" {
            guard let folder = resolver.path(of: id) else { continue }
            for set in value["exceptions"]?.strings ?? [] {
                guard let targetID = objects[set]?["target"]?.string, let position = targetIndex[targetID],
                    !(objects[targetID]?["fileSystemSynchronizedGroups"]?.strings ?? []).contains(id)
                else { continue }
                for name in objects[set]?["membershipExceptions"]?.strings ?? [] {
                    targets[position].files.insert(normalized(join(folder, name)))
                }
            }
        }
        return .success(XcodeProject(path: path, targets: targets))
    }

    /// The paths of `project.pbxproj` objects: a file's or group's path joined to its parents'.
    struct PathResolver {
        let objects: [String: PropertyListParser.Value]
        let projectFolder: String
        /// The group each object is a child of.
        let parents: [String: String]

        init(objects: [String: PropertyListParser.Value], projectFolder: String) {
            self.objects = objects
            self.projectFolder = projectFolder
            var parents: [String: String] = [:]
            for (id, value) in objects {
                for child in value["children"]?.strings ?? [] { parents[child] = id }
            }
            self.parents = parents
        }

        /// The path of the object `id`, or nil when it is not under the project's folder tree (a product, an SDK).
        func path(of id: String, depth: Int = 0) -> String? {
            guard depth < 64, let object = objects[id] else { return nil }
            let own = object["path"]?.string
            switch object["sourceTree"]?.string ?? "<group>" {
            case "<group>":
                let base: String
                if let parent = parents[id] {
                    guard let parentPath = path(of: parent, depth: depth + 1) else { return nil }
                    base = parentPath
                } else {
                    base = projectFolder
                }
                return normalized(own.map { join(base, $0) } ?? base)
            case "SOURCE_ROOT":
                return normalized(own.map { join(projectFolder, $0) } ?? projectFolder)
            case "<absolute>":
                return own.map(normalized)
            default:
                return nil
            }
        }
    }

    static func join(_ folder: String, _ path: String) -> String {
        if path.hasPrefix("/") || folder.isEmpty { return path }
        return folder + "/" + path
    }

    /// `path` without `.` components, `..` applied, and no trailing `/`.
    static func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == "..", let last = parts.last, last != ".." {
                parts.removeLast()
                continue
            }
            parts.append(part)
        }
        let joined = parts.joined(separator: "/")
        return path.hasPrefix("/") ? "/" + joined : joined
    }
}

/// An old-style (OpenStep) property list, as `project.pbxproj` is written: `{ key = value; }`, `( a, b )`,
/// strings quoted or not, `/* */` and `//` comments.
struct PropertyListParser {
    indirect enum Value: Equatable {
        case string(String)
        case array([Value])
        case dictionary([String: Value])

        subscript(key: String) -> Value? {
            if case .dictionary(let entries) = self { return entries[key] }
            return nil
        }
        var string: String? {
            if case .string(let text) = self { return text }
            return nil
        }
        var dictionary: [String: Value]? {
            if case .dictionary(let entries) = self { return entries }
            return nil
        }
        /// The strings of an array (other elements left out).
        var strings: [String]? {
            if case .array(let elements) = self { return elements.compactMap(\.string) }
            return nil
        }
    }

    let bytes: [UInt8]
    var index = 0
    var line = 1

    init(bytes: [UInt8]) { self.bytes = bytes }

    /// The whole file: one value, then nothing but comments and spaces.
    mutating func document() throws(XcodeProject.Problem) -> Value {
        let value = try self.value(depth: 0)
        try skipTrivia()
        guard index == bytes.count else { throw problem("text after the end of the property list") }
        return value
    }

    func problem(_ message: String) -> XcodeProject.Problem { XcodeProject.Problem(line: line, message: message) }

    mutating func skipTrivia() throws(XcodeProject.Problem) {
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n") {
                line += 1
                index += 1
            } else if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r") {
                index += 1
            } else if byte == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "/") {
                while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
            } else if byte == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "*") {
                let start = line
                index += 2
                while index + 1 < bytes.count, !(bytes[index] == UInt8(ascii: "*") && bytes[index + 1] == UInt8(ascii: "/")) {
                    if bytes[index] == UInt8(ascii: "\n") { line += 1 }
                    index += 1
                }
                guard index + 1 < bytes.count else {
                    throw XcodeProject.Problem(line: start, message: "a comment that is never closed")
                }
                index += 2
            } else {
                return
            }
        }
    }

    /// Expects the punctuation `character` next.
    mutating func expect(_ character: Character) throws(XcodeProject.Problem) {
        try skipTrivia()
        guard index < bytes.count, let ascii = character.asciiValue, bytes[index] == ascii else {
            throw problem("'\(character)' expected")
        }
        index += 1
    }

    mutating func value(depth: Int) throws(XcodeProject.Problem) -> Value {
        guard depth < 64 else { throw problem("nested too deeply") }
        try skipTrivia()
        guard index < bytes.count else { throw problem("the file ends where a value is expected") }
        switch bytes[index] {
        case UInt8(ascii: "{"):
            index += 1
            var entries: [String: Value] = [:]
            while true {
                try skipTrivia()
                if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                    index += 1
                    return .dictionary(entries)
                }
                let key = try string()
                try expect("=")
                entries[key] = try value(depth: depth + 1)
                try expect(";")
            }
        case UInt8(ascii: "("):
            index += 1
            var elements: [Value] = []
            while true {
                try skipTrivia()
                if index < bytes.count, bytes[index] == UInt8(ascii: ")") {
                    index += 1
                    return .array(elements)
                }
                elements.append(try value(depth: depth + 1))
                try skipTrivia()
                if index < bytes.count, bytes[index] == UInt8(ascii: ",") {
                    index += 1
                } else {
                    try expect(")"); return .array(elements)
                }
            }
        default:
            return .string(try string())
        }
    }

    /// A quoted string (with `\"`, `\\`, `\n`, `\t` escapes) or an unquoted one.
    mutating func string() throws(XcodeProject.Problem) -> String {
        try skipTrivia()
        guard index < bytes.count else { throw problem("the file ends where a string is expected") }
        if bytes[index] == UInt8(ascii: "\"") {
            let start = line
            index += 1
            var text: [UInt8] = []
            while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                var byte = bytes[index]
                if byte == UInt8(ascii: "\n") { line += 1 }
                if byte == UInt8(ascii: "\\"), index + 1 < bytes.count {
                    index += 1
                    switch bytes[index] {
                    case UInt8(ascii: "n"): byte = UInt8(ascii: "\n")
                    case UInt8(ascii: "t"): byte = UInt8(ascii: "\t")
                    default: byte = bytes[index]
                    }
                }
                text.append(byte)
                index += 1
            }
            guard index < bytes.count else { throw XcodeProject.Problem(line: start, message: "a string that is never closed") }
            index += 1
            return String(decoding: text, as: UTF8.self)
        }
        let stops: Set<UInt8> = Set("{}()=;,\" \t\r\n".utf8)
        let start = index
        while index < bytes.count, !stops.contains(bytes[index]) {
            if bytes[index] == UInt8(ascii: "/"), index + 1 < bytes.count,
                bytes[index + 1] == UInt8(ascii: "*") || bytes[index + 1] == UInt8(ascii: "/")
            {
                break
            }
            index += 1
        }
        guard index > start else { throw problem("a value expected, found '\(Character(Unicode.Scalar(bytes[index])))'") }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }
}
