// "Did you mean …?": the closest candidate within a third of the name's length,
// and the shortcut that skips candidates whose length alone puts them too far off
// (a megabyte-long name used to fill a million-row table per candidate).

import Testing

@testable import PredicateQuery

struct NameSuggestionTests {
    @Test func typosFindTheirName() {
        let names = ["name", "limit", "transactions", "hasReceipt", "creationDate", "größe"]
        #expect(NameSuggestion.closest(to: "nmae", among: names) == "name")
        #expect(NameSuggestion.closest(to: "LIMIT", among: names) == "limit")
        #expect(NameSuggestion.closest(to: "transactoins", among: names) == "transactions")
        #expect(NameSuggestion.closest(to: "hasreciept", among: names) == "hasReceipt")
        #expect(NameSuggestion.closest(to: "grösse", among: names) == "größe")
        #expect(NameSuggestion.closest(to: "colour", among: names) == nil)
        #expect(NameSuggestion.closest(to: "n", among: names) == nil)
    }

    /// What `closest` answered before the length shortcut: every candidate's distance worked out.
    static func closestWithoutShortcut(to name: String, among candidates: [String]) -> String? {
        let lowered = name.lowercased()
        if let same = candidates.first(where: { $0.lowercased() == lowered }) { return same }
        let threshold = max(1, name.count / 3)
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let distance = NameSuggestion.editDistance(lowered, candidate.lowercased())
            if distance <= threshold, distance < (best?.distance ?? .max) { best = (candidate, distance) }
        }
        return best?.name
    }

    @Test func theLengthShortcutNeverChangesTheAnswer() {
        var random = SystemRandomNumberGenerator()
        let alphabet = Array("abcdeABé_")
        func word(_ length: Int) -> String {
            String((0..<length).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &random)] })
        }
        var suggested = 0
        for _ in 0..<3_000 {
            let name = word(Int.random(in: 1...12, using: &random))
            let candidates = (0..<6).map { _ in word(Int.random(in: 1...14, using: &random)) }
            let expected = Self.closestWithoutShortcut(to: name, among: candidates)
            #expect(NameSuggestion.closest(to: name, among: candidates) == expected, "\(name) among \(candidates)")
            if expected != nil { suggested += 1 }
        }
        // The comparison covered names that get a suggestion, not only ones that do not.
        #expect(suggested > 100)
    }

    @Test func aMegabyteNameGetsNoSuggestion() {
        let name = String(repeating: "Vac'--%_\\*", count: 100_000)
        #expect(NameSuggestion.closest(to: name, among: ["Budget", "Transaction", "name", "limit"]) == nil)
        // A long candidate of about the same length is still compared.
        let long = String(repeating: "ab", count: 150)
        #expect(NameSuggestion.closest(to: long + "x", among: ["Budget", long]) == long)
    }
}
