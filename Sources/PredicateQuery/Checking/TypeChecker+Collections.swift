// To-many relationships: quantifiers (`any tags.name == 'x'`), element tests
// (`tags.contains { … }`, `allSatisfy`), filters (`filter`, SUBQUERY), aggregates
// (`count`, `@sum.amount`, …) and `isEmpty`.
//
// A quantifier is rewritten into an element test over the one to-many path in its
// condition, so both forms reach the typed IR as the same `quantified` node. A
// path through several to-many relationships (`any folder.snippets.tags.name …`)
// becomes nested quantifiers, one per relationship.

extension TypeChecker {
    // MARK: - Quantifiers

    mutating func checkQuantified(_ quantifier: Quantifier, _ body: Expr, at span: SourceSpan) -> TypedExpr? {
        syntheticVariables += 1
        let variable = "#\(syntheticVariables)"
        var found: [ToManyPath] = []
        let rewritten = rewriteToManyPaths(in: body, variable: variable, found: &found)
        guard found.count == 1, let target = found.first else {
            if found.isEmpty {
                // An unknown name (`any foo.bar == 1`) is the error to report, not the
                // missing to-many relationship that follows from it.
                let before = diagnostics.count
                _ = check(body, expecting: .bool)
                if diagnostics[before...].contains(where: { $0.severity == .error }) { return nil }
                diagnostics.removeSubrange(before...)
                return error(
                    .quantifierWithoutToMany,
                    "'\(quantifier.rawValue)' needs a key path through a to-many relationship", at: span,
                    notes: [
                        DiagnosticNote(
                            "without a quantifier, compare the value directly; with one, write a path such as 'any tags.name == …'"
                        )
                    ])
            }
            let names = found.map { "'\(Printer.print(Expr(.keyPath($0.path))))'" }.joined(separator: " and ")
            return error(
                .quantifierAmbiguous,
                "'\(quantifier.rawValue)' applies to one to-many key path, but this condition has \(found.count): \(names)",
                at: span,
                notes: [
                    DiagnosticNote(
                        "to relate several fields of one element, write 'xs.contains(where: { $0.a == … && $0.b == … })'")
                ])
        }
        var innerBody = rewritten
        if let remainder = Self.remainder(of: target.path, after: target.prefix),
            crossesToMany(remainder, fromElementOf: target.element)
        {
            innerBody = Expr(.quantified(quantifier == .none ? .any : quantifier, rewritten), span: span)
        }
        let closure = Closure(variable: variable, body: innerBody)
        let collection = Expr(.keyPath(target.prefix), span: target.prefix.span)
        let test: Expr
        switch quantifier {
        case .any: test = Expr(.elementTest(.any, collection, closure), span: span)
        case .all: test = Expr(.elementTest(.all, collection, closure), span: span)
        case .none: test = Expr(.not(Expr(.elementTest(.any, collection, closure), span: span)), span: span)
        }
        return check(test, expecting: .bool)
    }

    private static func remainder(of path: PropertyPath, after prefix: PropertyPath) -> [PathComponent]? {
        Array(path.components.dropFirst(prefix.components.count))
    }

    /// Whether following `components` from an element of `entity` crosses another to-many.
    private func crossesToMany(_ components: [PathComponent], fromElementOf entity: Entity) -> Bool {
        var entity = entity
        for component in components {
            guard case .relationship(let relationship)? = schema.property(named: component.name, of: entity),
                let destination = schema.entity(named: relationship.destination)
            else { return false }
            if relationship.isToMany { return true }
            entity = destination
        }
        return false
    }

    /// A key path through a to-many relationship, found by `rewriteToManyPaths`: the
    /// path, its part up to the to-many relationship, and the entity of its elements.
    struct ToManyPath {
        var path: PropertyPath
        var prefix: PropertyPath
        var element: Entity
    }

    /// Replaces each key path that goes through a to-many relationship with a path
    /// from `variable`, and records it. A path that ends at a to-many relationship
    /// where a collection is expected (`xs.count`, `xs.contains { … }`) is left alone
    /// unless it goes through another to-many first; closure bodies and nested
    /// quantifiers are not this quantifier's business.
    private mutating func rewriteToManyPaths(
        in expr: Expr, variable: String, found: inout [ToManyPath],
        asCollection: Bool = false
    ) -> Expr {
        func rewrite(_ child: Expr) -> Expr { rewriteToManyPaths(in: child, variable: variable, found: &found) }
        func collection(_ child: Expr) -> Expr {
            rewriteToManyPaths(in: child, variable: variable, found: &found, asCollection: true)
        }
        var result = expr
        switch expr.kind {
        case .keyPath(let path):
            guard case .collection(_, let steps, _, let element, let remaining)? = resolve(path, report: false),
                !(asCollection && remaining.isEmpty)
            else { return expr }
            var prefix = path
            prefix.components = Array(path.components.prefix(steps.count + 1))
            prefix.span = SourceSpan(start: path.span.start, end: prefix.components.last?.span.end ?? path.span.end)
            found.append(ToManyPath(path: path, prefix: prefix, element: element))
            result.kind = .keyPath(PropertyPath(root: .variable(variable), remaining, span: path.span))
        case .comparison(let op, let lhs, let rhs, let options):
            result.kind = .comparison(op, rewrite(lhs), rewrite(rhs), options)
        case .stringTest(let op, let lhs, let rhs, let options):
            result.kind = .stringTest(op, rewrite(lhs), rewrite(rhs), options)
        case .membership(let element, let collection, let options):
            result.kind = .membership(rewrite(element), rewrite(collection), options)
        case .arithmetic(let op, let lhs, let rhs):
            result.kind = .arithmetic(op, rewrite(lhs), rewrite(rhs))
        case .coalesce(let lhs, let rhs): result.kind = .coalesce(rewrite(lhs), rewrite(rhs))
        case .negate(let operand): result.kind = .negate(rewrite(operand))
        case .not(let operand): result.kind = .not(rewrite(operand))
        case .and(let operands): result.kind = .and(operands.map(rewrite))
        case .or(let operands): result.kind = .or(operands.map(rewrite))
        case .list(let elements): result.kind = .list(elements.map(rewrite))
        case .range(let lower, let upper, let kind): result.kind = .range(rewrite(lower), rewrite(upper), kind)
        case .isEmpty(let operand): result.kind = .isEmpty(collection(operand))
        case .aggregate(let function, let operand, let field): result.kind = .aggregate(function, collection(operand), field)
        case .elementTest(let quantifier, let operand, let closure):
            result.kind = .elementTest(quantifier, collection(operand), closure)
        case .filter(let operand, let closure): result.kind = .filter(collection(operand), closure)
        default: break
        }
        return result
    }

    // MARK: - Element tests

    mutating func checkElementTest(
        _ quantifier: Quantifier, _ collection: Expr, _ closure: Closure, at span: SourceSpan
    ) -> TypedExpr? {
        let operation = quantifier == .all ? "allSatisfy" : "contains(where:)"
        let path: CollectionPath
        let filters: [Closure]
        if case .keyPath(let keyPath) = collection.kind {
            // The key path is resolved once, here, with its diagnostics.
            let before = (kept: diagnostics.count, omitted: omittedDiagnostics)
            guard let target = resolve(keyPath) else { return nil }
            if case .collection(_, let steps, _, _, let remaining) = target, !remaining.isEmpty {
                // `a.bs.cs.contains { … }`: one element test per to-many relationship. The
                // nested tests resolve the path's parts again and report what they find.
                diagnostics.removeSubrange(before.kept...)
                omittedDiagnostics = before.omitted
                syntheticVariables += 1
                let variable = "#\(syntheticVariables)"
                var prefix = keyPath
                prefix.components = Array(keyPath.components.prefix(steps.count + 1))
                let innerCollection = Expr(
                    .keyPath(PropertyPath(root: .variable(variable), remaining, span: keyPath.span)), span: collection.span)
                let inner = Expr(.elementTest(quantifier, innerCollection, closure), span: span)
                let outer = Expr(
                    .elementTest(
                        quantifier, Expr(.keyPath(prefix), span: collection.span),
                        Closure(variable: variable, body: inner)), span: span)
                return check(outer, expecting: .bool)
            }
            guard let resolved = collectionPath(target, written: collection, operation: operation) else {
                return nil
            }
            (path, filters) = (resolved, [])
        } else {
            guard let (resolved, found) = resolveCollection(collection, operation: operation) else { return nil }
            (path, filters) = (resolved, found)
        }
        let checked = withElements(of: path, named: filters.map(\.variable) + [closure.variable]) { checker in
            (filters.map { checker.checkPredicate($0.body) }, checker.checkPredicate(closure.body))
        }
        guard let body = checked.1, let conditions = Self.allChecked(checked.0) else { return nil }
        if conditions.isEmpty { return .quantified(quantifier, path, body) }
        switch quantifier {
        case .all: return .quantified(.all, path, .or([.not(Self.conjunction(conditions)), body]))
        default: return .quantified(quantifier, path, Self.conjunction(conditions + [body]))
        }
    }

    static func allChecked(_ items: [TypedExpr?]) -> [TypedExpr]? {
        let checked = items.compactMap { $0 }
        return checked.count == items.count ? checked : nil
    }

    static func conjunction(_ conditions: [TypedExpr]) -> TypedExpr {
        conditions.count == 1
            ? conditions[0]
            : .and(
                conditions.flatMap { condition -> [TypedExpr] in
                    if case .and(let inner) = condition { return inner }
                    return [condition]
                })
    }

    /// Runs `body` with the collection's elements bound, at the next level, to each of `names`.
    mutating func withElements<T>(of path: CollectionPath, named names: [String], _ body: (inout TypeChecker) -> T) -> T {
        let savedScopes = scopes
        let savedLevel = level
        level = path.elementLevel
        let entity = schema.entity(named: path.elementEntity) ?? root
        for name in names { scopes.append(Scope(name: name, level: path.elementLevel, entity: entity)) }
        defer {
            scopes = savedScopes
            level = savedLevel
        }
        return body(&self)
    }

    /// A collection operand: a key path ending at a to-many relationship, or a filter of one.
    mutating func resolveCollection(_ expr: Expr, operation: String) -> (CollectionPath, [Closure])? {
        switch expr.kind {
        case .filter(let inner, let closure):
            guard let (path, filters) = resolveCollection(inner, operation: operation) else { return nil }
            return (path, filters + [closure])
        case .keyPath(let path):
            guard let target = resolve(path) else { return nil }
            return collectionPath(target, written: expr, operation: operation).map { ($0, []) }
        default:
            return error(.notACollection, "'\(operation)' needs a to-many relationship", at: expr.span)
        }
    }

    /// The collection `target` (what the key path written as `expr` resolved to) is,
    /// or an error saying why it is not one.
    private mutating func collectionPath(_ target: PathTarget, written expr: Expr, operation: String) -> CollectionPath? {
        switch target {
        case .collection(let startLevel, let steps, let relationship, let element, let remaining):
            guard remaining.isEmpty else {
                let crosses = crossesToMany(remaining, fromElementOf: element)
                let message =
                    crosses
                    ? "'\(operation)' over a path through more than one to-many relationship is not supported"
                    : "'\(Printer.print(expr))' is not a collection; '\(relationship.relationship.name)' is"
                return error(.notACollection, message, at: expr.span)
            }
            return CollectionPath(
                level: startLevel, steps: steps, relationship: relationship,
                elementEntity: element.name, elementLevel: level + 1)
        case .attribute(let attributePath):
            let type = ValueType(attributePath.attribute.type, in: schema)
            let note =
                type == .string && operation == "count"
                ? [DiagnosticNote("string length is not supported: SQL and Swift count characters differently")] : []
            return error(
                .notACollection,
                "'\(operation)' needs a to-many relationship, but '\(attributePath.attribute.name)' is of type '\(type)'",
                at: expr.span, notes: note)
        case .object(let objectPath):
            let name = objectPath.steps.last?.relationship.name ?? "SELF"
            return error(
                .notACollection, "'\(operation)' needs a to-many relationship, but '\(name)' is to-one", at: expr.span)
        case .enumConstant:
            return error(.notACollection, "'\(operation)' needs a to-many relationship", at: expr.span)
        }
    }

    // MARK: - Aggregates

    mutating func checkAggregate(
        _ function: AggregateFunction, _ collection: Expr, _ field: [PathComponent], at span: SourceSpan
    ) -> TypedExpr? {
        let operation = function == .count ? "count" : "@\(function.rawValue)"
        guard let (path, filters) = resolveCollection(collection, operation: operation) else { return nil }
        let elementName = "#element"
        let checked = withElements(of: path, named: filters.map(\.variable) + [elementName]) {
            checker -> ([TypedExpr?], TypedExpr??) in
            let conditions = filters.map { checker.checkPredicate($0.body) }
            guard function != .count else { return (conditions, .some(nil)) }
            let fieldSpan = field.first.map { $0.span.merged(with: field.last?.span ?? $0.span) } ?? span
            let fieldPath = PropertyPath(root: .variable(elementName), field, span: fieldSpan)
            return (conditions, .some(checker.checkAggregateField(function, fieldPath, at: fieldSpan)))
        }
        guard let conditions = Self.allChecked(checked.0), case .some(let value) = checked.1 else { return nil }
        if function != .count, value == nil { return nil }
        let filter = conditions.isEmpty ? nil : Self.conjunction(conditions)
        let type: ValueType
        switch function {
        case .count: type = .int
        case .avg: type = .double
        default: type = value?.type ?? .int
        }
        return .aggregate(function, path, filter: filter, value: value, type)
    }

    private mutating func checkAggregateField(
        _ function: AggregateFunction, _ path: PropertyPath, at span: SourceSpan
    ) -> TypedExpr? {
        guard let typed = checkValuePath(path, at: span) else { return nil }
        guard case .attribute = typed else {
            return error(.invalidAggregate, "'@\(function.rawValue)' needs an attribute of the elements", at: span)
        }
        let type = typed.type
        if type.isOpaque { return unqueryable(type, span) }
        let allowed = function == .sum || function == .avg ? type.isNumeric : type.isNumeric || type == .date || type == .string
        guard allowed else {
            let needs = function == .sum || function == .avg ? "numbers" : "numbers, dates or strings"
            return error(.invalidAggregate, "'@\(function.rawValue)' needs \(needs), but this is of type '\(type)'", at: span)
        }
        return typed
    }

    /// `xs.isEmpty` (no elements, or none passing the filter); `name.isEmpty` (the empty string).
    mutating func checkIsEmpty(_ operand: Expr, at span: SourceSpan) -> TypedExpr? {
        if case .keyPath(let path) = operand.kind, case .attribute(let attributePath)? = resolve(path, report: false),
            ValueType(attributePath.attribute.type, in: schema).isTextual
        {
            guard let typed = check(operand, expecting: nil) else { return nil }
            return .compare(.equal, typed, .constant(.string(""), typed.type), [])
        }
        if !Self.isWrittenAsCollection(operand) {
            // A string worked out (`(note ?? "").isEmpty`): empty when it equals "". The operand's own
            // errors are the ones to report.
            let before = diagnostics.count
            guard let typed = check(operand, expecting: nil),
                !diagnostics[before...].contains(where: { $0.severity == .error })
            else { return nil }
            guard typed.type == .string else {
                return error(
                    .notACollection,
                    "'isEmpty' needs a to-many relationship or a string, but this is of type '\(typed.type)'",
                    at: operand.span)
            }
            return .compare(.equal, typed, .constant(.string(""), typed.type), [])
        }
        guard let (path, filters) = resolveCollection(operand, operation: "isEmpty") else { return nil }
        let conditions = withElements(of: path, named: filters.map(\.variable)) { checker in
            filters.map { checker.checkPredicate($0.body) }
        }
        guard let checked = Self.allChecked(conditions) else { return nil }
        return .quantified(.none, path, checked.isEmpty ? .constant(.bool(true), .bool) : Self.conjunction(checked))
    }

    /// Whether `expr` has a collection's form: a key path, or a filter of one.
    private static func isWrittenAsCollection(_ expr: Expr) -> Bool {
        switch expr.kind {
        case .keyPath, .filter: true
        default: false
        }
    }

    // MARK: - Sorting

    mutating func checkSortKey(_ key: SortKey) -> CheckedSortKey? {
        guard let target = resolve(key.path) else { return nil }
        // The key as written, for the messages only: printing it is dearer than the check.
        var name: String { Printer.print(Expr(.keyPath(key.path))) }
        switch target {
        case .attribute(let path):
            let type = ValueType(path.attribute.type, in: schema)
            if type.isOpaque {
                return error(.unsortableKey, "cannot sort by '\(name)': values of type '\(type)' have no order", at: key.span)
            }
            if !key.options.isEmpty, !type.isTextual {
                return error(
                    .modifierNotApplicable, "'\(key.options.modifier)' applies only to strings, not to '\(type)'", at: key.span)
            }
            return CheckedSortKey(path: path, type: type, isAscending: key.isAscending, options: key.options)
        case .collection(_, _, let relationship, _, _):
            return error(
                .sortByToMany, "cannot sort by '\(name)': '\(relationship.relationship.name)' is a to-many relationship",
                at: key.span,
                notes: [
                    DiagnosticNote(
                        "a sort key must have one value per object; sort by an attribute reached through to-one relationships")
                ])
        case .object(let path):
            let relationship = path.steps.last?.relationship.name ?? name
            return error(
                .unsortableKey, "cannot sort by the relationship '\(relationship)'", at: key.span,
                notes: [DiagnosticNote("sort by one of its attributes, as in '\(name).name'")])
        case .enumConstant:
            return error(.unsortableKey, "cannot sort by a constant", at: key.span)
        }
    }
}
