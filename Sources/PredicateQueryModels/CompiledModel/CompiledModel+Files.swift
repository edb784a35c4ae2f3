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
        let versions = ModelVersions(path: path, versionExtension: "mom", currentVersionFile: "VersionInfo.plist")
        return try versions.path(requested: version, current: version == nil ? try currentVersion(bundleAt: path) : nil)
    }

    /// `NSManagedObjectModel_CurrentVersionName` from the folder's `VersionInfo.plist`; nil without one.
    static func currentVersion(bundleAt path: String) throws(ModelSourceError) -> String? {
        let file = (path as NSString).appendingPathComponent("VersionInfo.plist")
        guard let data = FileManager.default.contents(atPath: file) else { return nil }
        let key = "NSManagedObjectModel_CurrentVersionName"
        if BinaryPropertyList.hasSignature(data) {
            let plist: BinaryPropertyList
            do {
                plist = try BinaryPropertyList(data)
            } catch {
                throw ModelSourceError("\(file) is not readable: \(error.description)")
            }
            guard let number = plist.dictionary(plist.top)?[key], let name = plist.string(number) else {
                throw ModelSourceError("\(file): no \(key)")
            }
            return name
        }
        let root: XMLTree
        do {
            root = try XMLTree.parse(String(decoding: data, as: UTF8.self))
        } catch {
            throw ModelSourceError("\(file):\(error.line): not readable: \(error.message)")
        }
        let items = root.children(named: "dict").first?.children ?? []
        for (index, item) in items.enumerated() where item.name == "key" && item.text == key && index + 1 < items.count {
            return items[index + 1].text.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        throw ModelSourceError("\(file): no \(key)")
    }
}
