// Type names for the schema builder: what a name written in a declaration or a
// query refers to, as Swift looks it up.
//
// A name is looked up from the innermost enclosing type outwards, then among all
// types of that name. A `typealias` on the way is followed (chains of them too,
// `typealias Current = ServerModel`, `typealias ServerModel = SchemaV1.Server`),
// from the scope it was declared in; an alias that leads back to itself gives
// nothing. Generic aliases are never read (`SwiftModelReader.readTypeAlias`).

import PredicateQuery

extension SwiftSchemaBuilder {
    /// The declaration (not an extension) a type name refers to from inside the
    /// type at `scope`: the innermost enclosing type's nested type first, then
    /// outwards, then any type of that name; aliases followed.
    func lookup(_ path: [String], scope: [String]) -> Int? {
        var visited: Set<Int> = []
        return lookup(path, scope: scope, visited: &visited)
    }

    private func lookup(_ path: [String], scope: [String], visited: inout Set<Int>) -> Int? {
        guard let name = path.last else { return nil }
        if path.count > 1 {
            let joined = path.joined(separator: ".")
            if let found = byPath[joined] { return found }
            if let alias = aliasByPath[joined], !visited.contains(alias) { return follow(alias, visited: &visited) }
            // `Schema.Trip` where `Schema` is itself an alias or a nested type.
            if let head = lookup([path[0]], scope: scope, visited: &visited) {
                let full = (declarations[head].path + path.dropFirst()).joined(separator: ".")
                if let found = byPath[full] { return found }
                if let alias = aliasByPath[full], !visited.contains(alias) { return follow(alias, visited: &visited) }
            }
            return lookup([name], scope: [], visited: &visited)
        }
        var prefix = scope
        while true {
            let key = (prefix + [name]).joined(separator: ".")
            if let found = pick(byPath[key], aliasByPath[key], visited: &visited) { return found }
            if prefix.isEmpty { break }
            prefix.removeLast()
        }
        return pick(byName[name], aliasByName[name], visited: &visited)
    }

    /// A type and an alias of the same name: the one in the earlier file (the files come in the order the
    /// caller chose, a module's own first), the type when both are in one file.
    private func pick(_ type: Int?, _ alias: Int?, visited: inout Set<Int>) -> Int? {
        guard let alias, !visited.contains(alias) else { return type }
        if let type, declarationFiles[type] <= aliasFiles[alias] { return type }
        return follow(alias, visited: &visited) ?? type
    }

    /// The declaration the alias at `index` names, looked up from where the alias is declared.
    private func follow(_ index: Int, visited: inout Set<Int>) -> Int? {
        visited.insert(index)
        let alias = aliases[index]
        guard case .named(let target, let arguments) = alias.target.unwrapped.base, arguments.isEmpty else { return nil }
        return lookup(target, scope: Array(alias.path.dropLast()), visited: &visited)
    }

    /// The `@Model` classes some typealias names: with several versions of a model, the current one.
    func aliasedDeclarations() -> Set<Int> {
        var found: Set<Int> = []
        for index in aliases.indices {
            var visited: Set<Int> = []
            if let target = follow(index, visited: &visited), declarations[target].isModel { found.insert(target) }
        }
        return found
    }

    /// Whether the declaration at `position` is nested in a `VersionedSchema` (an earlier or later
    /// version of a model, expected to share its name).
    func isInVersionedSchema(_ position: Int) -> Bool {
        let path = declarations[position].path
        guard path.count > 1, let owner = byPath[path.dropLast().joined(separator: ".")] else { return false }
        return declarations[owner].inherits.contains { type in
            if case .named(let name, _) = type { return name.last == "VersionedSchema" }
            return false
        }
    }

    /// The entity a type name written at a query site names (`Trip`, `SchemaV2.Trip`, an alias
    /// of either), if it is a model of the schema.
    func entityName(written path: [String], scope: [String] = []) -> String? {
        guard Self.builtinType(path) == nil, let found = lookup(path, scope: scope) else { return nil }
        let name = declarations[found].name
        return models[name] != nil && declarations[found].isModel ? name : nil
    }

    /// The `@Model` class a type written at a site names, if it is one.
    func modelDeclaration(written path: [String]) -> Int? {
        guard Self.builtinType(path) == nil, let found = lookup(path, scope: []), declarations[found].isModel else {
            return nil
        }
        return found
    }

    /// Whether the model declaration at `position` is the one its entity was built from.
    func isChosen(_ position: Int) -> Bool { models[declarations[position].name] == position }

    /// The `@Model` classes declared beside the one at `position` in the same enclosing type (the other
    /// models of its `VersionedSchema`), itself included.
    func siblingModels(of position: Int) -> Set<Int> {
        let owner = declarations[position].path.dropLast()
        guard !owner.isEmpty else { return [position] }
        return Set(declarations.indices.filter { declarations[$0].isModel && declarations[$0].path.dropLast() == owner })
    }
}
