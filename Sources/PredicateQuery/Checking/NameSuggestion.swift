// "Did you mean …?" for misspelt names.

package enum NameSuggestion {
    /// The candidate closest to `name`, if it is close enough to be a likely typo:
    /// equal ignoring case, or within an edit distance of a third of the name's length.
    package static func closest(to name: String, among candidates: [String]) -> String? {
        let lowered = name.lowercased()
        if let sameIgnoringCase = candidates.first(where: { $0.lowercased() == lowered }) {
            return sameIgnoringCase
        }
        let threshold = max(1, name.count / 3)
        let length = lowered.unicodeScalars.count
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let lowerCandidate = candidate.lowercased()
            // The distance is at least the difference in length (in scalars, as it is
            // measured): a candidate further off than that is not worth the table,
            // which for a megabyte-long name had a million rows.
            guard abs(lowerCandidate.unicodeScalars.count - length) <= threshold else { continue }
            let distance = editDistance(lowered, lowerCandidate)
            if distance <= threshold, distance < (best?.distance ?? .max) {
                best = (candidate, distance)
            }
        }
        return best?.name
    }

    /// Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.unicodeScalars)
        let b = Array(b.unicodeScalars)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previousPrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previousPrevious[j - 2] + 1)
                }
            }
            (previousPrevious, previous, current) = (previous, current, previousPrevious)
        }
        return previous[b.count]
    }

    /// A note suggesting `candidate`, or nil.
    static func note(for name: String, among candidates: [String]) -> DiagnosticNote? {
        closest(to: name, among: candidates).map { DiagnosticNote("did you mean '\($0)'?") }
    }
}
