// Model sources → Schema: the one entry point for every kind of model a Core
// Data or SwiftData user has. Each path is read by what it is: a Swift file or a
// folder of them (`@Model` classes), an Xcode model (`.xcdatamodeld` with its
// versions, or one `.xcdatamodel`), a compiled model (`.momd` with its versions,
// or one `.mom`). The entities of all paths make one schema; Swift files are read
// together, since a model may use a type declared in another file.

import Foundation
import PredicateQuery

/// Reads a schema from model files and folders, whatever their format.
public enum ModelSources {
    /// What a path holds.
    public enum Kind: Sendable, Equatable {
        /// Swift source files, or a folder of them, holding `@Model` classes.
        case swiftSources
        /// An Xcode model: `xcodeModelBundle` an `.xcdatamodeld` with its versions, `xcodeModel` one `.xcdatamodel`.
        case xcodeModelBundle, xcodeModel
        /// A compiled model an app ships: `compiledModelBundle` a `.momd` with its versions, `compiledModel` one `.mom`.
        case compiledModelBundle, compiledModel
    }

    /// The kind of model at `path`, by its extension and, for other files, their first bytes
    /// (a binary plist is a compiled model, XML an Xcode model's `contents`).
    public static func kind(of path: String) throws(ModelSourceError) -> Kind {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ModelSourceError("cannot read model file '\(path)': no such file or folder")
        }
        let trimmed = path.hasSuffix("/") && path.count > 1 ? String(path.dropLast()) : path
        switch (trimmed as NSString).pathExtension {
        case "xcdatamodeld": return .xcodeModelBundle
        case "xcdatamodel": return .xcodeModel
        case "momd": return .compiledModelBundle
        case "mom": return .compiledModel
        default: break
        }
        if isDirectory.boolValue { return .swiftSources }
        if let handle = FileHandle(forReadingAtPath: path) {
            defer { try? handle.close() }
            let head = (try? handle.read(upToCount: 64)) ?? Data()
            if BinaryPropertyList.hasSignature(head) { return .compiledModel }
            // An .xcdatamodel's `contents` file, given by itself.
            if String(decoding: head, as: UTF8.self).hasPrefix("<?xml") { return .xcodeModel }
        }
        return .swiftSources
    }

    /// The schema of the models at `paths`, and warnings about what was left out.
    ///
    /// `version` chooses a version of an `.xcdatamodeld` or `.momd` other than its
    /// current one (by name, with or without extension).
    public static func load(paths: [String], version: String? = nil) throws(ModelSourceError) -> (Schema, [ModelWarning]) {
        var swiftFiles: [SwiftModelSource.File] = []
        var swiftPaths: [String] = []
        var schemas: [(path: String, schema: Schema)] = []
        var warnings: [ModelWarning] = []
        var versioned = false
        for path in paths {
            let loaded: (Schema, [ModelWarning])
            switch try kind(of: path) {
            case .swiftSources:
                swiftFiles += try SwiftFiles.read(path)
                swiftPaths.append(path)
                continue
            case .xcodeModelBundle:
                versioned = true
                loaded = try XcodeModel.schema(bundleAt: path, version: version)
            case .xcodeModel:
                loaded = try XcodeModel.schema(modelAt: path)
            case .compiledModelBundle:
                versioned = true
                loaded = try CompiledModel.schema(bundleAt: path, version: version)
            case .compiledModel:
                loaded = try CompiledModel.schema(momAt: path)
            }
            schemas.append((path, loaded.0))
            warnings += loaded.1
        }
        if let version, !versioned {
            throw ModelSourceError("version '\(version)' was asked for, but no model given is versioned (.xcdatamodeld or .momd)")
        }
        if !swiftFiles.isEmpty {
            let (schema, swiftWarnings) = SwiftModelSource.schema(from: swiftFiles)
            guard !schema.entities.isEmpty else {
                throw ModelSourceError("no @Model classes found in \(swiftPaths.joined(separator: ", "))")
            }
            schemas.insert(("Swift sources", schema), at: 0)
            warnings = swiftWarnings.map { ModelWarning(source: "\($0.file):\($0.line)", message: $0.message) } + warnings
        }
        let merged = try merge(schemas)
        guard !merged.entities.isEmpty else {
            throw ModelSourceError("no entities found in \(paths.joined(separator: ", "))")
        }
        return (merged, warnings)
    }

    /// The schemas of several sources as one; an entity declared twice is an error.
    static func merge(_ schemas: [(path: String, schema: Schema)]) throws(ModelSourceError) -> Schema {
        guard schemas.count > 1 else { return schemas.first?.schema ?? Schema(entities: []) }
        var result = Schema(entities: [])
        var owners: [String: String] = [:]
        for (path, schema) in schemas {
            for entity in schema.entities {
                if let owner = owners[entity.name] {
                    throw ModelSourceError("the entity '\(entity.name)' is declared both in \(owner) and in \(path)")
                }
                owners[entity.name] = path
                result.entities.append(entity)
            }
            for enumType in schema.enums where result.enumType(named: enumType.name) == nil { result.enums.append(enumType) }
            for composite in schema.composites where result.composite(named: composite.name) == nil {
                result.composites.append(composite)
            }
        }
        return result
    }
}

/// Reading Swift model sources: a file, or the `.swift` files in a folder and its
/// subfolders (`SourceFolder`, as `pq lint` reads them), since an app keeps its
/// models wherever its folders put them.
enum SwiftFiles {
    static func read(_ path: String) throws(ModelSourceError) -> [SwiftModelSource.File] {
        var isDirectory: ObjCBool = false
        _ = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
        let sources: [String]
        if isDirectory.boolValue {
            sources = SourceFolder.files(under: path) { name, _ in name.hasSuffix(".swift") } ?? []
            if sources.isEmpty {
                throw ModelSourceError("the folder '\(path)' holds no .swift files, in it or in its subfolders")
            }
        } else {
            sources = [path]
        }
        var files: [SwiftModelSource.File] = []
        for source in sources {
            guard let data = FileManager.default.contents(atPath: source) else {
                throw ModelSourceError("cannot read model file '\(source)'")
            }
            files.append(SwiftModelSource.File(path: source, text: String(decoding: data, as: UTF8.self)))
        }
        return files
    }
}
