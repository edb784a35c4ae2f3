// Xcode data models: an `.xcdatamodeld` folder holds one `.xcdatamodel` folder
// per model version and names the current one in `.xccurrentversion` (an XML
// property list); each `.xcdatamodel` keeps the model as XML in its `contents`
// file. `+Contents` reads that XML into a `CoreDataModel`.

import Foundation
import PredicateQuery

/// Reads Xcode data models (`.xcdatamodeld` and `.xcdatamodel` folders).
public enum XcodeModel {
    /// The schema of an `.xcdatamodeld` folder: its current version, or the version named.
    public static func schema(bundleAt path: String, version: String? = nil) throws(ModelSourceError) -> (Schema, [ModelWarning])
    {
        let versionPath = try self.versionPath(bundleAt: path, version: version)
        return try schema(modelAt: versionPath)
    }

    /// The schema of one `.xcdatamodel` folder (or its `contents` file).
    public static func schema(modelAt path: String) throws(ModelSourceError) -> (Schema, [ModelWarning]) {
        try model(at: path).schema(source: path)
    }

    /// The Core Data model in an `.xcdatamodel` folder.
    static func model(at path: String) throws(ModelSourceError) -> CoreDataModel {
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
        let contentsPath = isDirectory.boolValue ? (path as NSString).appendingPathComponent("contents") : path
        guard exists, let data = FileManager.default.contents(atPath: contentsPath) else {
            throw ModelSourceError(
                isDirectory.boolValue
                    ? "'\(path)' is not a readable Xcode model: it has no 'contents' file"
                    : "cannot read the Xcode model '\(path)'")
        }
        return try model(fromContents: data, source: contentsPath)
    }

    /// The path of the version folder to read from an `.xcdatamodeld`.
    static func versionPath(bundleAt path: String, version: String?) throws(ModelSourceError) -> String {
        let versions = ModelVersions(path: path, versionExtension: "xcdatamodel", currentVersionFile: ".xccurrentversion")
        return try versions.path(requested: version, current: version == nil ? try currentVersion(bundleAt: path) : nil)
    }

    /// The current version named in the bundle's `.xccurrentversion`, without its extension; nil when there is no such file.
    static func currentVersion(bundleAt path: String) throws(ModelSourceError) -> String? {
        let file = (path as NSString).appendingPathComponent(".xccurrentversion")
        guard let data = FileManager.default.contents(atPath: file) else { return nil }
        let root: XMLTree
        do {
            root = try XMLTree.parse(String(decoding: data, as: UTF8.self))
        } catch {
            throw ModelSourceError("\(file):\(error.line): the current version is not readable: \(error.message)")
        }
        guard let dictionary = root.children(named: "dict").first else {
            throw ModelSourceError("\(file): the current version is not readable: no <dict>")
        }
        let items = dictionary.children
        for (index, item) in items.enumerated()
        where item.name == "key" && item.text == "_XCCurrentVersionName" && index + 1 < items.count {
            let name = items[index + 1].text.trimmingCharacters(in: .whitespacesAndNewlines)
            return name.hasSuffix(".xcdatamodel") ? String(name.dropLast(".xcdatamodel".count)) : name
        }
        throw ModelSourceError("\(file): the current version is not readable: no _XCCurrentVersionName")
    }
}
