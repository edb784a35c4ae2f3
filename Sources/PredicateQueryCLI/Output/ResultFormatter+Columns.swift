// Choosing the columns shown: `--columns name,limit,budget.name` or `.columns
// name limit` names them, in the order given; `#` is the object's key, and a
// path through to-one relationships (`budget.name`) shows that attribute. A name
// the entity does not have is an error with a did-you-mean, before anything is
// printed.

import PredicateQuery

extension ResultFormatter {
    /// The columns shown: the chosen ones in the order given, or all of them.
    var columns: [Column] {
        let all = allColumns
        guard let chosenColumns else { return all }
        return chosenColumns.compactMap { name in
            if let column = all.first(where: { $0.title == name }) { return column }
            guard let path = displayPaths[name] else { return nil }
            let numeric: Bool =
                switch path.attribute.type {
                case .integer, .double, .float, .decimal: true
                default: false
                }
            return Column(title: name, source: .path(path), isNumeric: numeric)
        }
    }

    /// The chosen columns that are paths (`budget.name`), checked against `entity`
    /// and keyed by the name as written.
    static func displayPaths(
        _ chosen: [String]?, of entity: Entity, schema: Schema
    ) throws(CLIError) -> [String: AttributePath] {
        var paths: [String: AttributePath] = [:]
        for name in chosen ?? [] where name.contains(".") {
            switch TypeChecker.checkDisplayPath(name, of: entity, schema: schema) {
            case .success(let path): paths[name] = path
            case .failure(let diagnostic):
                let notes = diagnostic.notes.map { "; " + $0.message }.joined()
                throw CLIError.query("--columns '\(name)': \(diagnostic.message)\(notes)")
            }
        }
        return paths
    }

    /// Why the chosen columns cannot be shown (a name the entity does not have),
    /// or nil if they can.
    var columnProblem: String? {
        guard let chosenColumns else { return nil }
        let titles = allColumns.map(\.title)
        for name in chosenColumns where !titles.contains(name) && displayPaths[name] == nil {
            var message = "\(entity.name) has no column named '\(name)'"
            if let suggestion = NameSuggestion.closest(to: name, among: titles) {
                message += "; did you mean '\(suggestion)'?"
            } else {
                message += " (its columns: \(titles.joined(separator: ", ")))"
            }
            return message
        }
        return nil
    }

    /// Column names as a person writes them: separated by commas and/or spaces.
    static func columnList(_ text: String) -> [String] {
        text.split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init)
    }
}
