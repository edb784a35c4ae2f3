// Choosing a version of a versioned model: an `.xcdatamodeld` holds one
// `.xcdatamodel` folder per version, a `.momd` one `.mom` file per version, and
// each names its current one. A version asked for by name wins; errors list the
// versions there are.

import Foundation

/// The versions of a versioned model bundle, and which one to read.
struct ModelVersions {
    /// The bundle's path.
    var path: String
    /// The extension of each version's file or folder: `xcdatamodel` or `mom`.
    var versionExtension: String
    /// The file that names the current version, for messages: `.xccurrentversion`.
    var currentVersionFile: String

    /// The version names in the bundle, in natural order.
    func versions() -> [String] {
        let suffix = "." + versionExtension
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.filter { $0.hasSuffix(suffix) }.map { String($0.dropLast(suffix.count)) }
            .sorted { $0.compare($1, options: .numeric) == .orderedAscending }
    }

    /// The path of the version to read: `requested` (with or without extension), else `current`,
    /// else the only version there is.
    func path(requested: String?, current: String?) throws(ModelSourceError) -> String {
        let versions = versions()
        let bundleName = (path as NSString).lastPathComponent
        guard !versions.isEmpty else {
            throw ModelSourceError(
                "'\(path)' holds no \(versionExtension == "mom" ? "compiled models (.mom files)" : "model versions (.xcdatamodel folders)")"
            )
        }
        let list = versions.joined(separator: ", ")
        let suffix = "." + versionExtension
        let chosen: String
        if let requested {
            let wanted = requested.hasSuffix(suffix) ? String(requested.dropLast(suffix.count)) : requested
            guard versions.contains(wanted) else {
                throw ModelSourceError("'\(bundleName)' has no version named '\(requested)'; its versions are \(list)")
            }
            chosen = wanted
        } else if let current {
            let wanted = current.hasSuffix(suffix) ? String(current.dropLast(suffix.count)) : current
            guard versions.contains(wanted) else {
                throw ModelSourceError(
                    "'\(bundleName)' names '\(wanted)' as its current version, but holds no such version; its versions are \(list): choose one by name"
                )
            }
            chosen = wanted
        } else if versions.count == 1 {
            chosen = versions[0]
        } else {
            throw ModelSourceError(
                "'\(bundleName)' names no current version (no \(currentVersionFile)); its versions are \(list): choose one by name"
            )
        }
        return (path as NSString).appendingPathComponent(chosen + suffix)
    }
}
