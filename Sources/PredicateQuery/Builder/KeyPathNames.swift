// The names in a Swift key path, read from its description.
//
// Swift prints `\Transaction.budget?.name` as `\Transaction.budget?.name?` on every
// platform when the binary keeps its reflection metadata (the default). pq reads
// the property names from that text, so a model needs no table of key paths and
// names. Key paths through subscripts, or from binaries stripped of reflection
// metadata (they print offsets), cannot be named and are reported.

enum KeyPathNames {
    /// The components of `keyPath` after its root type, or why there are none. A
    /// one-step key path that prints no name (a computed property's) is looked up
    /// among its root model's declared properties.
    static func components(of keyPath: AnyKeyPath) -> Result<[PathComponent], KeyPathError> {
        let printed = printedComponents(of: keyPath)
        if case .failure = printed, let model = type(of: keyPath).rootType as? any QueryModel.Type,
            let name = model.declaredName(of: keyPath)
        {
            return .success([PathComponent(name)])
        }
        return printed
    }

    private static func printedComponents(of keyPath: AnyKeyPath) -> Result<[PathComponent], KeyPathError> {
        let description = String(describing: keyPath)
        let root = "\\" + String(describing: type(of: keyPath).rootType)
        guard description.hasPrefix(root) else { return .failure(KeyPathError(description: description)) }
        var rest = Substring(description.dropFirst(root.count))
        var components: [PathComponent] = []
        while !rest.isEmpty {
            var optionalChained = false
            if rest.hasPrefix("?.") {
                optionalChained = true
                rest = rest.dropFirst(2)
            } else if rest.hasPrefix("!.") || rest.hasPrefix(".") {
                rest = rest.dropFirst(rest.hasPrefix("!") ? 2 : 1)
            } else if rest == "?" || rest == "!" {
                break  // A trailing optional or force marker ends the path.
            } else {
                return .failure(KeyPathError(description: description))
            }
            // A computed property prints no name, but `persistentModelID` (pq's
            // `QueryModel` identity) prints its type, `<computed 0x… (ObjectKey<Budget>)>`.
            if rest.hasPrefix("<computed "), let end = rest.range(of: ")>") {
                guard rest[..<end.lowerBound].contains("(ObjectKey<") else {
                    return .failure(KeyPathError(description: description))
                }
                components.append(PathComponent("persistentModelID", optionalChained: optionalChained))
                rest = rest[end.upperBound...]
                continue
            }
            let name = rest.prefix { $0 == "_" || $0.isLetter || $0.isNumber }
            guard !name.isEmpty, name.first?.isNumber == false else { return .failure(KeyPathError(description: description)) }
            components.append(PathComponent(String(name), optionalChained: optionalChained))
            rest = rest.dropFirst(name.count)
        }
        guard !components.isEmpty else { return .failure(KeyPathError(description: description)) }
        return .success(components)
    }

    /// The one property name of a single-step key path, or nil.
    static func name(of keyPath: AnyKeyPath) -> String? {
        guard case .success(let components) = components(of: keyPath), components.count == 1 else { return nil }
        return components[0].name
    }
}

/// A key path pq cannot turn into property names.
struct KeyPathError: Error {
    var description: String

    var message: String {
        "cannot name the properties of key path \(description); pq reads stored properties by name "
            + "(no subscripts, and the binary must keep reflection metadata)"
    }
}
