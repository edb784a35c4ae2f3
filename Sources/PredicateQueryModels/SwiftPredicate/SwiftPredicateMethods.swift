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

    private(set) var methods: [String: [Method]] = [:]

    var isEmpty: Bool { methods.isEmpty }

    /// Reads the methods of every file's tokens.
    init(files tokens: [[SwiftToken]]) {
        for fileTokens in tokens { read(fileTokens) }
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
    private mutating func read(_ tokens: [SwiftToken]) {
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
                pending = Self.owner(declaredAt: index, in: tokens)
            } else if token.isWord("func"), index + 1 < tokens.count, let owner = owners.last?.owner ?? nil {
                if let (name, method) = Self.method(at: index, in: tokens, owner: owner) {
                    methods[name, default: []].append(method)
                }
            }
            index += 1
        }
    }

    /// `struct Query<T: PersistentModel>` or `extension PersistentModel`: the owner its methods have.
    private static func owner(declaredAt index: Int, in tokens: [SwiftToken]) -> Owner? {
        let name = tokens[index + 1].text
        if tokens[index].text == "extension" {
            return name == "PersistentModel" ? .persistentModel : nil
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
