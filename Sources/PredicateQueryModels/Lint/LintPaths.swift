// Paths as `pq lint` reports and matches them: relative to the folder it runs
// in (SARIF's and the baseline's URIs, GitHub's annotations), and patterns with
// `*` and `**` for the configuration's `excluded`.

import Foundation

package enum LintPaths {
    /// The folder pq runs in, standardized.
    public static var workingFolder: String {
        (FileManager.default.currentDirectoryPath as NSString).standardizingPath
    }

    /// `path` made absolute against `folder` (the working folder by default), standardized.
    public static func absolute(_ path: String, in folder: String? = nil) -> String {
        if path.hasPrefix("/") { return (path as NSString).standardizingPath }
        let base = folder.map { absolute($0) } ?? workingFolder
        return ((base as NSString).appendingPathComponent(path) as NSString).standardizingPath
    }

    /// `path` relative to the working folder when it is under it, with `/` separators; else absolute.
    public static func relative(_ path: String) -> String {
        let full = absolute(path)
        let base = workingFolder
        if full == base { return "." }
        let prefix = base.hasSuffix("/") ? base : base + "/"
        return full.hasPrefix(prefix) ? String(full.dropFirst(prefix.count)) : full
    }

    static func components(_ path: String) -> [Substring] {
        path.split(separator: "/")
    }

    /// Whether `pattern` matches `path` or one of its folders: `**` any number of folders, `*` and `?`
    /// within a name.
    static func matches(_ pattern: [Substring], _ path: [Substring]) -> Bool {
        guard let first = pattern.first else { return true }  // the pattern matched a folder of the path
        if first == "**" {
            let rest = Array(pattern.dropFirst())
            for start in path.indices.lowerBound...path.count where matches(rest, Array(path[start...])) { return true }
            return false
        }
        guard let name = path.first, matchesName(Array(first), Array(name)) else { return false }
        return matches(Array(pattern.dropFirst()), Array(path.dropFirst()))
    }

    /// `*` and `?` within one name.
    static func matchesName(_ pattern: [Character], _ name: [Character]) -> Bool {
        guard let first = pattern.first else { return name.isEmpty }
        if first == "*" {
            for start in 0...name.count where matchesName(Array(pattern.dropFirst()), Array(name[start...])) { return true }
            return false
        }
        guard let character = name.first, first == "?" || first == character else { return false }
        return matchesName(Array(pattern.dropFirst()), Array(name.dropFirst()))
    }
}
