// Choosing the columns shown: `--columns name,limit` or `.columns name limit`
// names them, in the order given; `#` is the object's key. A name the entity does
// not have is an error with a did-you-mean, before anything is printed.

import PredicateQuery

extension ResultFormatter {
    /// The columns shown: the chosen ones in the order given, or all of them.
    var columns: [Column] {
        let all = allColumns
        guard let chosenColumns else { return all }
        return chosenColumns.compactMap { name in all.first { $0.title == name } }
    }

    /// Why the chosen columns cannot be shown (a name the entity does not have),
    /// or nil if they can.
    var columnProblem: String? {
        guard let chosenColumns else { return nil }
        let titles = allColumns.map(\.title)
        for name in chosenColumns where !titles.contains(name) {
            var message = "\(entity.name) has no column named '\(name)'"
            if name.contains(".") {
                message += "; --columns takes the entity's own attributes and relationships"
            }
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
