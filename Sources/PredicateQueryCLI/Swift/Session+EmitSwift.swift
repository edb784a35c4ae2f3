// `pq --emit swift` and `.emit swift`: the query as the `#Predicate` and
// `[SortDescriptor]` a developer pastes into an app, built from the model's
// Swift type (the example models' on the example store), so the printed
// `#Predicate` expands to the nodes `ModelQuery.foundationPredicate()` builds.

import Foundation
import PredicateQuery
import PredicateQueryExamples

extension Session {
    /// Prints `query` as Swift source; false (with the reason printed) when it has none.
    func emitSwift(_ query: Query, _ checked: CheckedQuery, _ values: [String: ParameterValue]) throws -> Bool {
        let entity = checked.entity.name
        guard let model = ExampleSchemas.modelTypes[entity], preferredEntity != nil else {
            throw CLIError.query(
                "--emit swift needs the Swift type of '\(entity)', and pq knows only its example models' types; "
                    + "in your app, 'ModelQuery<\(entity)>(parsing: text).foundationSource()' prints the same")
        }
        var named = query
        named.entity = Name(entity)
        let text = Printer.print(named)
        func source<M: QueryModel>(_: M.Type) throws(ModelQueryError) -> PredicateSource {
            try ModelQuery<M>(parsing: text).binding(values).foundationSource()
        }
        do {
            let emitted = try source(model)
            output.write("// pq: \(text)\n\(emitted.text)\n")
            if let limit = checked.limit { output.write("// fetchLimit: \(Self.countText(limit))\n") }
            if let offset = checked.offset { output.write("// fetchOffset: \(Self.countText(offset))\n") }
            return true
        } catch {
            output.writeError(error.description)
            return false
        }
    }

    private static func countText(_ count: CheckedCount) -> String {
        switch count {
        case .literal(let value): String(value)
        case .parameter(let name): "$\(name)"
        }
    }
}
