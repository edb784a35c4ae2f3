// Display paths: an attribute reached through to-one relationships, written as in
// a query (`budget.name`), that a result row carries for display beside the
// object's own values (the CLI's `--columns budget.name`).

extension TypeChecker {
    /// The attribute path `text` names from `entity`, or the error that says why
    /// it names none (an unknown name, with a did-you-mean; a to-many relationship
    /// on the way; a relationship rather than an attribute).
    public static func checkDisplayPath(
        _ text: String, of entity: Entity, schema: Schema
    ) -> Swift.Result<AttributePath, Diagnostic> {
        let parsed = Parser.parseSortKeys(text)
        guard let keys = parsed.query?.sortKeys, keys.count == 1, let key = keys.first, key.isAscending,
            key.options.isEmpty
        else {
            return .failure(
                parsed.diagnostics.first
                    ?? .error(.unknownProperty, "'\(text)' is not a property path, such as 'budget.name'", at: .point(0)))
        }
        var checker = TypeChecker(schema: schema, root: entity)
        guard let target = checker.resolve(key.path) else {
            return .failure(
                checker.diagnostics.first
                    ?? .error(.unknownProperty, "'\(text)' names no property of '\(entity.name)'", at: key.span))
        }
        switch target {
        case .attribute(let path):
            return .success(path)
        case .collection(_, _, let relationship, _, _):
            return .failure(
                .error(
                    .sortByToMany,
                    "'\(text)' goes through the to-many relationship '\(relationship.relationship.name)', which has no one value per object",
                    at: key.span))
        case .object:
            return .failure(
                .error(
                    .invalidMemberAccess, "'\(text)' is a relationship; name one of its attributes, as in '\(text).name'",
                    at: key.span))
        case .enumConstant:
            return .failure(.error(.invalidMemberAccess, "'\(text)' is a constant, not a property", at: key.span))
        }
    }
}
