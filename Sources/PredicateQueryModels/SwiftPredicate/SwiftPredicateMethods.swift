// The app's own methods that take a `Predicate` of a generic model type, so
// `pq lint` can tell the model of `#Predicate { … }` passed to them, as the
// compiler infers it from the receiver:
//
//     struct Query<T: PersistentModel> { func include(_ p: Predicate<T>) -> Self }
//     extension PersistentModel { static func include(_ p: Predicate<Self>) -> Query<Self> }
//
//     Query<Person>().include(#Predicate { … })     // T is Person
//     Person.include(#Predicate { … }).exclude(#Predicate { … })   // Self is Person, then Query<Person>
//
// Only these shapes are read: methods of a generic type whose predicate's type
// argument is the type's generic parameter, and methods of an extension of
// `PersistentModel` whose argument is `Self`; a receiver that is a model type, a
// `Type<Model>(…)` construction, or a chain of such methods whose return types
// (`Self`, `Type<T>`, `Type<Self>`) carry the model along. Anything else (a
// variable, a method pq does not know, a return type it cannot follow) gives no
// type, and the site is skipped.

import PredicateQuery

/// The methods of the app that take a `Predicate<T>` for a generic `T`, or return the model's type or
/// a generic value of it (so a chain of calls can be followed), by name.
struct SwiftPredicateMethods {
    /// Where a method is declared.
    enum Owner: Equatable {
        /// In a generic type (or an extension of it): its name and the generic parameter's name.
        case generic(type: String, parameter: String)
        /// In an extension of `PersistentModel`: `Self` is the model.
        case persistentModel
    }

    /// What a method returns, as far as the model goes.
    enum Returns: Equatable {
        /// `Self`.
        case sameType
        /// `Type<X>` where X is the owner's parameter (or `Self`).
        case generic(String)
        case other
    }

    struct Method: Equatable {
        var owner: Owner
        var isStatic: Bool
        /// The type argument of the `Predicate<…>` parameter as written (`T`, `Self`), if it takes one.
        var predicateArgument: String?
        var returns: Returns
    }

    /// The model type or the generic value a receiver expression has.
    enum Receiver: Equatable {
        /// `Person`: a model type, for static methods.
        case metatype(String)
        /// `Query<Person>`.
        case generic(type: String, argument: String)
    }

    /// One parameter of an initializer, as far as the model goes.
    struct Parameter: Equatable {
        /// The argument label (`nil` for `_`).
        var label: String?
        var hasDefault: Bool
        /// `Model.Type`: an argument `X.self` binds the type's parameter to X.
        var isMetatype: Bool
        /// `Predicate<Model>` (or `Predicate<Model>?`).
        var isPredicate: Bool
    }

    /// An initializer of a generic type: the type's parameter and the initializer's parameters.
    struct Initializer: Equatable {
        var parameter: String
        var parameters: [Parameter]
    }

    private(set) var methods: [String: [Method]] = [:]
    /// The initializers of the app's generic types that take a `Predicate` of the type's parameter, by type name.
    private(set) var initializers: [String: [Initializer]] = [:]

    var isEmpty: Bool { methods.isEmpty && initializers.isEmpty }

    /// Reads the methods of every file's tokens.
    init(files tokens: [[SwiftToken]]) {
        // The generic types' parameters, for the methods and initializers their extensions declare (a name declared
        // generic with different parameter names in two places is left out).
        var generic: [String: String?] = [:]
        for fileTokens in tokens {
            var index = 0
            while index + 3 < fileTokens.count {
                defer { index += 1 }
                // `struct Name<P`: the `<` first, the cheapest test.
                guard fileTokens[index + 2].isPunctuation("<"), fileTokens[index].kind == .identifier else { continue }
                switch fileTokens[index].text {
                case "struct", "class", "enum", "actor": break
                default: continue
                }
                guard !fileTokens[index].isEscaped,
                    case .generic(let type, let parameter)? = Self.owner(declaredAt: index, in: fileTokens, generic: [:])
                else { continue }
                if let known = generic[type], known != parameter { generic[type] = .some(nil) } else { generic[type] = parameter }
            }
        }
        let generics = generic.compactMapValues { $0 }
        for fileTokens in tokens { read(fileTokens, generics: generics) }
    }

    /// The model a predicate argument of `name` has when called on `receiver`, and the receiver of what the
    /// call returns.
    func apply(_ name: String, to receiver: Receiver) -> (model: String?, result: Receiver?) {
        for method in methods[name] ?? [] {
            switch (method.owner, receiver) {
            case (.persistentModel, .metatype(let model)) where method.isStatic:
                let taken = method.predicateArgument == "Self" ? model : nil
                if case .generic(let type) = method.returns { return (taken, .generic(type: type, argument: model)) }
                return (taken, nil)
            case (.generic(let type, let parameter), .generic(let receiverType, let argument))
            where !method.isStatic && type == receiverType:
                let taken = method.predicateArgument == parameter ? argument : nil
                switch method.returns {
                case .sameType: return (taken, receiver)
                case .generic(let returned): return (taken, .generic(type: returned, argument: argument))
                case .other: return (taken, nil)
                }
            default:
                continue
            }
        }
        return (nil, nil)
    }

    // MARK: - Reading

    /// Records the methods of one file, tracking the type declarations that enclose them (innermost last).
    private mutating func read(_ tokens: [SwiftToken], generics: [String: String]) {
        var owners: [(brace: Int, owner: Owner?)] = []
        var depth = 0
        var pending: Owner??
        var index = 0
        while index < tokens.count {
            let token = tokens[index]
            if token.isPunctuation("{") {
                depth += 1
                if let owner = pending {
                    owners.append((depth, owner))
                    pending = nil
                }
            } else if token.isPunctuation("}") {
                if owners.last?.brace == depth { owners.removeLast() }
                depth -= 1
            } else if token.kind == .identifier, ["struct", "class", "enum", "actor", "extension"].contains(token.text),
                index + 1 < tokens.count, tokens[index + 1].kind == .identifier
            {
                pending = Self.owner(declaredAt: index, in: tokens, generic: generics)
            } else if token.isWord("func"), index + 1 < tokens.count, let owner = owners.last?.owner ?? nil {
                if let (name, method) = Self.method(at: index, in: tokens, owner: owner) {
                    methods[name, default: []].append(method)
                }
            } else if token.isWord("init"), let owner = owners.last?.owner ?? nil, case .generic(let type, let parameter) = owner,
                let initializer = Self.initializer(at: index, in: tokens, parameter: parameter)
            {
                initializers[type, default: []].append(initializer)
            }
            index += 1
        }
    }

    /// `struct Query<T: PersistentModel>` or `extension PersistentModel`: the owner its methods have.
    /// `extension Publisher` of a generic type in `generic` (its parameter by name): the type's parameter.
    private static func owner(declaredAt index: Int, in tokens: [SwiftToken], generic: [String: String]) -> Owner? {
        let name = tokens[index + 1].text
        if tokens[index].text == "extension" {
            if name == "PersistentModel" { return .persistentModel }
            // `extension Publisher {` or `extension Publisher where …`, not `extension Publisher.Inner`.
            guard let parameter = generic[name], index + 2 >= tokens.count || !tokens[index + 2].isPunctuation(".") else {
                return nil
            }
            return .generic(type: name, parameter: parameter)
        }
        guard index + 3 < tokens.count, tokens[index + 2].isPunctuation("<"), tokens[index + 3].kind == .identifier
        else { return nil }
        return .generic(type: name, parameter: tokens[index + 3].text)
    }

    /// `static func include(_ p: Predicate<T>) -> Self` at `index` (the `func`).
    private static func method(at index: Int, in tokens: [SwiftToken], owner: Owner) -> (String, Method)? {
        guard index + 1 < tokens.count, tokens[index + 1].kind == .identifier else { return nil }
        let name = tokens[index + 1].text
        let isStatic = index > 0 && (tokens[index - 1].isWord("static") || tokens[index - 1].isWord("class"))
        var argument: String?
        var returns = Returns.other
        var position = index + 2
        while position + 3 < tokens.count, !tokens[position].isPunctuation("{"), !tokens[position].isPunctuation("}") {
            if argument == nil, tokens[position].isWord("Predicate"), tokens[position + 1].isPunctuation("<"),
                tokens[position + 2].kind == .identifier, tokens[position + 3].isPunctuation(">")
            {
                argument = tokens[position + 2].text
            }
            if tokens[position].isPunctuation("-"), tokens[position + 1].isPunctuation(">") {
                returns = returnType(at: position + 2, in: tokens, owner: owner)
            }
            position += 1
        }
        guard argument != nil || returns != .other else { return nil }
        return (name, Method(owner: owner, isStatic: isStatic, predicateArgument: argument, returns: returns))
    }

    /// `init(_ type: Model.Type, predicate: Predicate<Model>, …)` at `index` (the `init`), if one of its parameters
    /// is a `Predicate` of the type's `parameter`.
    private static func initializer(at index: Int, in tokens: [SwiftToken], parameter: String) -> Initializer? {
        var open = index + 1
        if open < tokens.count, tokens[open].isPunctuation("?") || tokens[open].isPunctuation("!") { open += 1 }
        // `init<Related>(…)`: the initializer's own generic parameters.
        if open < tokens.count, tokens[open].isPunctuation("<") {
            var level = 0
            while open < tokens.count {
                if tokens[open].isPunctuation("<") { level += 1 }
                if tokens[open].isPunctuation(">") {
                    level -= 1
                    if level == 0 { break }
                }
                if tokens[open].isPunctuation("{") || tokens[open].isPunctuation("(") { return nil }
                open += 1
            }
            open += 1
        }
        guard open < tokens.count, tokens[open].isPunctuation("(") else { return nil }
        // The parameters, split at the commas of the list's own level.
        var parameters: [Parameter] = []
        var start = open + 1
        var level = 0
        var index = open + 1
        while index < tokens.count {
            let token = tokens[index]
            if token.isPunctuation("{") || token.isPunctuation("}") { return nil }
            let closesList = level == 0 && token.isPunctuation(")")
            if closesList || (level == 0 && token.isPunctuation(",")) {
                // `init(a: A,)`: a trailing comma ends the list.
                if closesList, start == index { break }
                guard let read = Self.parameter(tokens[start..<index], parameter: parameter) else { return nil }
                parameters.append(read)
                if closesList { break }
                start = index + 1
            } else if ["(", "[", "<"].contains(where: { token.isPunctuation($0) }) {
                level += 1
            } else if [")", "]", ">"].contains(where: { token.isPunctuation($0) }) {
                level -= 1
            }
            index += 1
        }
        guard index < tokens.count, parameters.contains(where: \.isPredicate) else { return nil }
        return Initializer(parameter: parameter, parameters: parameters)
    }

    /// `_ type: Model.Type`, `predicate: Predicate<Model>? = nil`, `label name: Type`.
    private static func parameter(_ tokens: ArraySlice<SwiftToken>, parameter: String) -> Parameter? {
        guard let colon = tokens.firstIndex(where: { $0.isPunctuation(":") }), colon > tokens.startIndex,
            tokens[tokens.startIndex].kind == .identifier
        else { return nil }
        let first = tokens[tokens.startIndex]
        let label: String? = first.isWord("_") ? nil : first.text
        let equals = tokens[colon...].firstIndex(where: { $0.isPunctuation("=") }) ?? tokens.endIndex
        let type = Array(tokens[(colon + 1)..<equals])
        let isMetatype = type.count == 3 && type[0].isWord(parameter) && type[1].isPunctuation(".") && type[2].isWord("Type")
        let isPredicate =
            type.count >= 4 && type[0].isWord("Predicate") && type[1].isPunctuation("<")
            && type[2].isWord(parameter) && type[3].isPunctuation(">")
            && (type.count == 4 || (type.count == 5 && type[4].isPunctuation("?")))
        return Parameter(label: label, hasDefault: equals < tokens.endIndex, isMetatype: isMetatype, isPredicate: isPredicate)
    }

    /// The model a `#Predicate` passed as the argument labelled `label` (nil: unlabelled) to an initializer of
    /// `type` has, from the call's arguments: their labels, and the type each `X.self` argument names (nil for
    /// another expression). `written` is the type argument written at the call (`Type<X>(…)`), if any.
    func initializerModel(
        of type: String, written: String?, arguments: [(label: String?, metatype: String?)], predicateAt position: Int
    ) -> String? {
        var models: Set<String> = []
        for initializer in initializers[type] ?? [] {
            guard let bound = Self.match(arguments, to: initializer.parameters) else { continue }
            guard position < bound.count, let predicate = bound[position], initializer.parameters[predicate].isPredicate else {
                continue
            }
            if let written {
                models.insert(written)
                continue
            }
            let given = bound.enumerated().compactMap { argument, parameter -> String? in
                guard let parameter, initializer.parameters[parameter].isMetatype else { return nil }
                return arguments[argument].metatype ?? "?"
            }
            guard let model = given.first, !model.hasPrefix("?"), Set(given).count == 1 else { return nil }
            models.insert(model)
        }
        return models.count == 1 ? models.first : nil
    }

    /// The parameter each argument goes to, matched by label in order (parameters with a default may be left
    /// out), or nil when the arguments do not fit the parameters.
    static func match(_ arguments: [(label: String?, metatype: String?)], to parameters: [Parameter]) -> [Int?]? {
        var bound: [Int?] = []
        var next = 0
        for argument in arguments {
            while next < parameters.count, parameters[next].label != argument.label {
                guard parameters[next].hasDefault else { return nil }
                next += 1
            }
            guard next < parameters.count else { return nil }
            bound.append(next)
            next += 1
        }
        guard parameters[next...].allSatisfy(\.hasDefault) else { return nil }
        return bound
    }

    /// `Self`, or `Query<T>`/`Query<Self>` carrying the owner's model along.
    private static func returnType(at index: Int, in tokens: [SwiftToken], owner: Owner) -> Returns {
        guard index < tokens.count else { return .other }
        if tokens[index].isWord("Self") { return .sameType }
        guard index + 3 < tokens.count, tokens[index].kind == .identifier, tokens[index + 1].isPunctuation("<"),
            tokens[index + 3].isPunctuation(">")
        else { return .other }
        let argument = tokens[index + 2].text
        switch owner {
        case .persistentModel where argument == "Self": return .generic(tokens[index].text)
        case .generic(_, let parameter) where argument == parameter: return .generic(tokens[index].text)
        default: return .other
        }
    }
}
