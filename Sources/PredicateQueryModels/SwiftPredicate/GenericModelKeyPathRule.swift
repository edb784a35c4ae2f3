// A `#Predicate` over a generic parameter (`#Predicate<Row> { $0.fingerprint == f }`
// inside `RecordCache<Row: CacheRow>`) that reads a property of it.
//
// What SwiftData does: it turns each key path of a predicate into a column by
// matching it against the metadata the `@Model` macro generates for the concrete
// class. A key path written on a generic parameter goes through the protocol's
// requirement, a different (computed) key path, so nothing matches and SwiftData
// stops the process with a fatal error, which no `try` catches. Seen in a shipped
// app: kasianov-mikhail/scout#1152 ("Run the iOS test matrix in Release and fix
// the SwiftData predicate trap it exposes"): a TestFlight build on iOS 27 trapped
// in `PersistentModel.graph_keyPathToString` with "Couldn't find
// \IndexedCachedRecord.<computed …>"; the report reproduces it only in optimized
// builds. One report, so a warning.
//
// Generic code that reads nothing of its model (it evaluates predicates it was
// given) is checked as it is (`SwiftAppLint.modelFree`); `persistentModelID`,
// which the checker reads as the object's identity, is not flagged: nothing seen
// shows it trapping.

import PredicateQuery

extension DiagnosticCode {
    /// A `#Predicate` over a generic parameter reads a property through the parameter's protocol.
    public static let swiftGenericModelKeyPath: DiagnosticCode = "swift.genericModelKeyPath"
}

enum GenericModelKeyPathRule {
    /// A warning at the first property `predicate` reads of its object, whose type is the generic
    /// parameter `parameter` of `declaration` (`Cache<Row>`), or nil.
    static func check(_ predicate: Expr, parameter: String, declaration: String) -> Diagnostic? {
        // The parameter as an entity with no properties: every path from the object reads through its protocol.
        let root = Entity(parameter)
        let schema = Schema(entities: [root])
        var first: PathComponent?
        MemberResolver(schema: schema, root: root).forEachNode(of: predicate) { node, resolver in
            guard first == nil, case .keyPath(let path) = node.kind, let component = path.components.first,
                resolver.start(of: path)?.name == parameter, component.name != "persistentModelID"
            else { return }
            first = component
        }
        guard let component = first else { return nil }
        return .warning(
            .swiftGenericModelKeyPath,
            "'\(component.name)' is read through the generic parameter '\(parameter)' (of \(declaration)): SwiftData matches a predicate's key paths against the concrete model's properties, finds none for this one, and stops the app",
            at: component.span,
            notes: [
                DiagnosticNote(
                    "write the #Predicate where the model type is concrete (on each model, or at the call site) and pass it in")
            ])
    }
}
