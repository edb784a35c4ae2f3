// Schema building: the declarations read from all files, given meaning.
//
// The builder finds the `@Model` classes and the extensions of them, resolves
// the type names their properties use (builtin types, other models, enums and
// Codable structs, looked up from the innermost enclosing type outwards, as Swift
// does), builds the entities (`+Entities`), the enums and structs they use
// (`+ValueTypes`), reads `@Attribute`/`@Relationship` options (`+Options`) and
// pairs relationships with their inverses (`+Inverses`). Warnings about a type's
// members are only given for types the schema uses, so the SwiftUI views and
// other code beside the models stay silent.

import PredicateQuery

/// Builds a `Schema` from the declarations of a set of files.
struct SwiftSchemaBuilder {
    /// Everything that was skipped or read differently from how it was written.
    var warnings: [SwiftModelSource.Warning] = []

    let files: [SwiftFileDeclarations]
    /// Every type declaration of every file, and the index of its file.
    let declarations: [SwiftTypeDecl]
    let declarationFiles: [Int]
    /// Declarations other than extensions, by dotted path and by name.
    var byPath: [String: Int] = [:]
    var byName: [String: Int] = [:]
    /// Every `typealias` of every file, and their indices by dotted path and by name.
    let aliases: [SwiftTypeAliasDecl]
    /// The index of the file of each alias.
    let aliasFiles: [Int]
    var aliasByPath: [String: Int] = [:]
    var aliasByName: [String: Int] = [:]
    /// Model declarations to take over same-named ones (a version a site names: `SchemaV1.Trip`); when
    /// empty, aliases and `VersionedSchema` nesting decide.
    var preferred: Set<Int> = []
    /// The stored properties of each model and Codable struct that pq could not read (their type is unknown
    /// to it), by entity or struct name.
    var skippedProperties: [String: Set<String>] = [:]

    /// The `@Model` classes by entity name, and in declaration order.
    var models: [String: Int] = [:]
    var modelOrder: [Int] = []
    /// The extensions of each model.
    var extensions: [Int: [Int]] = [:]
    /// Declarations the schema uses: their notes are reported.
    var relevant: Set<Int> = []

    var enums: [EnumType] = []
    var composites: [CompositeType] = []
    /// Enums and structs already resolved: their schema name, or why they cannot be used.
    var valueTypes: [Int: Result<String, ValueTypeFailure>] = [:]
    /// Structs being resolved, to catch one that contains itself.
    var compositesInProgress: Set<Int> = []
    /// The declaration each enum or struct name of the schema came from.
    var valueTypeNames: [String: Int] = [:]

    /// Why an enum or struct cannot be an attribute type: the end of a sentence
    /// "'x' has type 'T', …".
    struct ValueTypeFailure: Error {
        var reason: String
    }

    init(files: [SwiftFileDeclarations]) {
        self.files = files
        var declarations: [SwiftTypeDecl] = []
        var declarationFiles: [Int] = []
        for (position, file) in files.enumerated() {
            declarations += file.types
            declarationFiles += Array(repeating: position, count: file.types.count)
        }
        self.declarations = declarations
        self.declarationFiles = declarationFiles
        self.aliases = files.flatMap(\.aliases)
        self.aliasFiles = files.enumerated().flatMap { position, file in Array(repeating: position, count: file.aliases.count) }
        for (position, alias) in aliases.enumerated() {
            let path = alias.path.joined(separator: ".")
            if aliasByPath[path] == nil { aliasByPath[path] = position }
            if aliasByName[alias.name] == nil { aliasByName[alias.name] = position }
        }
        for (position, declaration) in declarations.enumerated() where declaration.kind != .extension {
            let path = declaration.path.joined(separator: ".")
            if byPath[path] == nil { byPath[path] = position }
            if byName[declaration.name] == nil { byName[declaration.name] = position }
        }
    }

    mutating func warn(_ message: String, line: Int, in declaration: Int) {
        warnings.append(SwiftModelSource.Warning(file: declarations[declaration].file, line: line, message: message))
    }

    // MARK: - Building

    /// The schema of every `@Model` class.
    mutating func build() -> Schema {
        findModels()
        var entities: [Entity] = []
        var drafts: [[RelationshipDraft]] = []
        for model in modelOrder {
            let (entity, relationships) = buildEntity(model)
            entities.append(entity)
            drafts.append(relationships)
        }
        resolveInverses(&drafts, entities: entities)
        for position in entities.indices {
            entities[position].relationships = drafts[position].map(\.relationship)
        }
        reportFileWarnings()
        return Schema(entities: entities, enums: enums, composites: composites)
    }

    private mutating func findModels() {
        let aliased = aliasedDeclarations()
        for (position, declaration) in declarations.enumerated() where declaration.isModel {
            guard declaration.kind == .class else {
                warn(
                    "@Model applies to classes, and '\(declaration.name)' is \(declaration.kind == .enum ? "an" : "a") \(declaration.kind.rawValue); skipped",
                    line: declaration.line, in: position)
                continue
            }
            if let first = models[declaration.name] {
                // `typealias Trip = SchemaV2.Trip`: of the versions of a model in VersionedSchema enums, the
                // one an alias names is the current one; a model outside every VersionedSchema is the current
                // one beside versions nested in them. Elsewhere the first declaration stays (the files come
                // in the order the caller chose: a module's own first).
                let (firstIsVersion, isVersion) = (isInVersionedSchema(first), isInVersionedSchema(position))
                let replaces =
                    preferred.isEmpty
                    ? firstIsVersion && !aliased.contains(first) && (isVersion ? aliased.contains(position) : true)
                    : preferred.contains(position) && !preferred.contains(first)
                let (kept, dropped) = replaces ? (position, first) : (first, position)
                if kept == position {
                    models[declaration.name] = position
                    modelOrder = modelOrder.map { $0 == first ? position : $0 }
                    relevant.remove(first)
                    relevant.insert(position)
                }
                if !isInVersionedSchema(dropped) {
                    warn(
                        "the model '\(declaration.name)' is declared more than once; the one at \(declarations[kept].file):\(declarations[kept].line) is used",
                        line: declarations[dropped].line, in: dropped)
                }
                continue
            }
            models[declaration.name] = position
            modelOrder.append(position)
            relevant.insert(position)
        }
        for (position, declaration) in declarations.enumerated() where declaration.kind == .extension {
            if let model = lookup(declaration.path, scope: []), models[declarations[model].name] == model {
                extensions[model, default: []].append(position)
                relevant.insert(position)
            }
        }
    }

    /// Notes of the declarations the schema uses, problems of every file, and the
    /// `#if` groups whose other branches were skipped where they might hold models.
    private mutating func reportFileWarnings() {
        for file in files { warnings += file.problems }
        for position in relevant.sorted() { warnings += declarations[position].notes }
        var topLevel = Array(repeating: [ClosedRange<Int>](), count: files.count)
        var used = Array(repeating: [ClosedRange<Int>](), count: files.count)
        for position in declarations.indices {
            let lines = declarations[position].line...declarations[position].endLine
            if declarations[position].depth == 0 { topLevel[declarationFiles[position]].append(lines) }
            if relevant.contains(position) { used[declarationFiles[position]].append(lines) }
        }
        for (fileIndex, file) in files.enumerated() where !file.skippedBranches.isEmpty {
            let usedLines = Self.merged(used[fileIndex])
            for branch in file.skippedBranches {
                // In a type the schema uses, or outside every type.
                guard Self.contains(usedLines, branch.line) || !Self.contains(topLevel[fileIndex], branch.line) else {
                    continue
                }
                warnings.append(
                    SwiftModelSource.Warning(
                        file: file.file, line: branch.line,
                        message:
                            "pq reads only the first branch of the #if at line \(branch.ifLine); skipped its #\(branch.directive) branch and any after it"
                    ))
            }
        }
    }

    /// The union of `ranges` as ordered, disjoint ranges.
    private static func merged(_ ranges: [ClosedRange<Int>]) -> [ClosedRange<Int>] {
        var result: [ClosedRange<Int>] = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = result.last, range.lowerBound <= last.upperBound {
                result[result.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
            } else {
                result.append(range)
            }
        }
        return result
    }

    /// Whether one of the ordered, disjoint `ranges` contains `line`.
    private static func contains(_ ranges: [ClosedRange<Int>], _ line: Int) -> Bool {
        var low = 0
        var high = ranges.count
        while low < high {
            let middle = (low + high) / 2
            if ranges[middle].upperBound < line { low = middle + 1 } else { high = middle }
        }
        return low < ranges.count && ranges[low].contains(line)
    }

    // MARK: - Names

    /// The builtin attribute type a path names (`Date`, `Foundation.Date`), if any.
    static func builtinType(_ path: [String]) -> AttributeType? {
        guard let name = path.last, path.count == 1 || (path.count == 2 && ["Swift", "Foundation"].contains(path[0]))
        else { return nil }
        let type = AttributeType(swiftName: name)
        if case .named = type { return nil }
        return type
    }

    /// The entity name of the model a path names from `scope`, if it names one.
    func modelName(_ path: [String], scope: [String]) -> String? {
        guard Self.builtinType(path) == nil, let found = lookup(path, scope: scope) else { return nil }
        let name = declarations[found].name
        // Another version of a model (`SchemaV1.Trip` beside `SchemaV2.Trip`) is that entity too.
        return models[name] == found || (models[name] != nil && declarations[found].isModel) ? name : nil
    }
}
