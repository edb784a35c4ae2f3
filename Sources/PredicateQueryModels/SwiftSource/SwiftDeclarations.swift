// What the model reader takes from a Swift file: the type declarations, with
// their attributes, inheritance, stored and computed properties and enum cases.
//
// These are syntax, not meaning: a property's type is as written (`[Tag]?`), an
// attribute keeps its argument tokens. `SwiftSchemaBuilder` gives them meaning
// once every file has been read, since a model may use types declared elsewhere.

import PredicateQuery

/// A type as written in a declaration.
indirect enum SwiftTypeSyntax: Sendable, Hashable {
    /// `Date`, `Foundation.Date`, `Set<String>`: the path and any generic arguments.
    case named([String], arguments: [SwiftTypeSyntax])
    /// `T?`, `T!` or `Optional<T>`.
    case optional(SwiftTypeSyntax)
    /// `[T]` or `Array<T>`.
    case array(SwiftTypeSyntax)
    /// `[K: V]` or `Dictionary<K, V>`.
    case dictionary(SwiftTypeSyntax, SwiftTypeSyntax)
    /// Tuples, functions, `some P`, `any P`, metatypes: nothing SwiftData stores.
    case other

    /// The type without any levels of optionality, and whether there were any.
    var unwrapped: (base: SwiftTypeSyntax, optional: Bool) {
        var base = self
        var optional = false
        while case .optional(let wrapped) = base {
            base = wrapped
            optional = true
        }
        return (base, optional)
    }
}

/// An attribute on a declaration: `@Attribute(.unique)`.
struct SwiftAttributeUse: Sendable {
    /// The name without `@` (the last component of `@SwiftData.Model`).
    var name: String
    /// The tokens between the parentheses, if there are any.
    var arguments: [SwiftToken]
    var line: Int
}

/// A `var` or `let` of a type or an extension.
struct SwiftPropertyDecl: Sendable {
    var name: String
    var line: Int
    var isStatic: Bool
    var attributes: [SwiftAttributeUse]
    var type: SwiftTypeSyntax?
    /// The type as written (for `= [Tag]()`, `[Tag]`).
    var typeText: String?
    /// The default value as written, trimmed.
    var defaultText: String?
    /// The default value's tokens, when there are few (for type inference).
    var defaultTokens: [SwiftToken]
    /// Without a type annotation, the type a default like `[Tag]()` spells out.
    var initializerType: SwiftTypeSyntax?
    /// A getter (or accessors other than observers): not stored.
    var isComputed: Bool
    /// The identifiers the getter uses, in order of first use (not members of other
    /// values, not argument labels).
    var getterIdentifiers: [String]
}

/// A case of an enum.
struct SwiftEnumCaseDecl: Sendable {
    /// A raw value as written.
    enum RawValue: Sendable {
        case none
        case int(Int64)
        case string(String)
        /// Anything else (a float, an interpolated string), as written.
        case unreadable(String)
    }

    var name: String
    var line: Int
    var rawValue: RawValue
    var hasAssociatedValues: Bool
}

/// A `class`, `struct`, `enum`, `actor`, `protocol` or `extension`.
struct SwiftTypeDecl: Sendable {
    enum Kind: String, Sendable {
        case `class`, `struct`, `enum`, actor, `protocol`, `extension`
    }

    var kind: Kind
    /// The declared name; for an extension, the last component of the extended type.
    var name: String
    /// The enclosing types' names and this one's (`["Movie", "Kind"]`); for an
    /// extension, the extended type as written.
    var path: [String]
    var file: String
    /// The line of the declaration's first attribute or keyword, and of its closing brace.
    var line: Int
    var endLine: Int
    /// How many types enclose it (0 at the top level of its file).
    var depth: Int
    var attributes: [SwiftAttributeUse]
    /// The inheritance clause: superclass, raw type, protocols.
    var inherits: [SwiftTypeSyntax]
    var properties: [SwiftPropertyDecl] = []
    var cases: [SwiftEnumCaseDecl] = []
    /// Members the reader skipped, reported only if the type matters to the schema.
    var notes: [SwiftModelSource.Warning] = []

    /// `@Model` is among its attributes.
    var isModel: Bool { attributes.contains { $0.name == "Model" } }
}

/// `typealias Name = Type`, at the top level or inside a type (`enum SchemaV2 { typealias Trip = … }`).
struct SwiftTypeAliasDecl: Sendable {
    var name: String
    /// The enclosing types' names and this one's, as for a type declaration.
    var path: [String]
    var target: SwiftTypeSyntax
    var file: String
    var line: Int
}

/// `import Module` at the top level of a file (`@testable`, `public`, `import struct Module.Type` alike).
struct SwiftImportDecl: Sendable, Equatable {
    /// The module's name: the first component of the imported path.
    var module: String
    /// `@_exported import`: a file that imports this file's module sees `module` too.
    var isExported: Bool
}

/// Everything read from one file.
struct SwiftFileDeclarations: Sendable {
    var file: String
    var types: [SwiftTypeDecl]
    var aliases: [SwiftTypeAliasDecl] = []
    /// The file's top-level imports, in source order.
    var imports: [SwiftImportDecl] = []
    var skippedBranches: [SwiftConditionalFilter.SkippedBranch]
    /// Lexical and structural problems, always reported.
    var problems: [SwiftModelSource.Warning]
}
