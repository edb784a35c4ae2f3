// Compiled models on disk: a `.mom` file is one archived model; a `.momd` folder
// holds one `.mom` per version and names the current one in `VersionInfo.plist`
// (`NSManagedObjectModel_CurrentVersionName`, a binary or XML property list).

import Foundation
import PredicateQuery

extension CompiledModel {
    /// The schema of a `.mom` file.
    public static func schema(momAt path: String) throws(ModelSourceError) -> (Schema, [ModelWarning]) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ModelSourceError("cannot read the compiled model '\(path)'")
        }
        return try schema(fromArchive: data, source: path)
    }

    /// The schema of a `.momd` folder: its current version, or the version named.
    public static func schema(bundleAt path: String, version: String? = nil) throws(ModelSourceError) -> (Schema, [ModelWarning])
    {
        try schema(momAt: try versionPath(bundleAt: path, version: version))
    }

    /// The `.mom` file to read from a `.momd` folder.
    static func versionPath(bundleAt path: String, version: String?) throws(ModelSourceError) -> String {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        let versions = names.filter { $0.hasSuffix(".mom") }.map { String($0.dropLast(".mom".count)) }
            .sorted { $0.compare($1, options: .numeric) == .orderedAscending }
        let bundleName = (path as NSString).lastPathComponent
        guard !versions.isEmpty else { throw ModelSourceError("'\(path)' holds no compiled models (.mom files)") }
        let list = versions.joined(separator: ", ")
        let chosen: String
        if let version {
            let wanted = version.hasSuffix(".mom") ? String(version.dropLast(".mom".count)) : version
            guard versions.contains(wanted) else {
                throw ModelSourceError("'\(bundleName)' has no version named '\(version)'; its versions are \(list)")
            }
            chosen = wanted
        } else if let current = try currentVersion(bundleAt: path) {
            guard versions.contains(current) else {
                throw ModelSourceError(
                    "'\(bundleName)' names '\(current)' as its current version, but holds no such version; its versions are \(list): choose one by name"
                )
            }
            chosen = current
        } else if versions.count == 1 {
            chosen = versions[0]
        } else {
            throw ModelSourceError(
                "'\(bundleName)' names no current version (no VersionInfo.plist); its versions are \(list): choose one by name")
        }
        return (path as NSString).appendingPathComponent(chosen + ".mom")
    }

    /// `NSManagedObjectModel_CurrentVersionName` from the folder's `VersionInfo.plist`; nil without one.
    static func currentVersion(bundleAt path: String) throws(ModelSourceError) -> String? {
        let file = (path as NSString).appendingPathComponent("VersionInfo.plist")
        guard let data = FileManager.default.contents(atPath: file) else { return nil }
        let key = "NSManagedObjectModel_CurrentVersionName"
        if BinaryPropertyList.hasSignature(data) {
            do {
                let plist = try BinaryPropertyList(data)
                guard let number = plist.dictionary(plist.top)?[key], let name = plist.string(number) else {
                    throw ModelSourceError("\(file): no \(key)")
                }
                return name
            } catch let error as BinaryPropertyList.Malformed {
                throw ModelSourceError("\(file) is not readable: \(error.description)")
            } catch {
                throw ModelSourceError("\(error)")
            }
        }
        do {
            let root = try XMLTree.parse(String(decoding: data, as: UTF8.self))
            let items = root.children(named: "dict").first?.children ?? []
            for (index, item) in items.enumerated() where item.name == "key" && item.text == key && index + 1 < items.count {
                return items[index + 1].text.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            throw ModelSourceError("\(file): no \(key)")
        } catch let error as XMLFailure {
            throw ModelSourceError("\(file):\(error.line): not readable: \(error.message)")
        } catch let error as ModelSourceError {
            throw error
        } catch {
            throw ModelSourceError("\(error)")
        }
    }
}
