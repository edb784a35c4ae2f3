// The `#Predicate` bridge's predicates, written as source text: the Swift front
// end reads each `#Predicate<…> { … }` of FrontEndTripleTests.swift (the same
// file the compiled macro is tested from) and must give the tree the text
// spelling gives there. FrontEndTripleTests proves the text and the compiled
// macro agree, so the source text and the compiled macro agree too.

import Foundation
import PredicateQuery
import PredicateQueryExamples
import PredicateQueryModels
import Testing

struct SwiftPredicateTripleTests {
    struct Pair: CustomTestStringConvertible {
        var text: String
        var swift: String
        var line: Int
        var testDescription: String { "line \(line): \(swift)" }
    }

    static let sourcePath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("PredicateQueryTests/FoundationBridge/FrontEndTripleTests.swift")
        .path

    /// Every triple's text and the source of its `#Predicate`, read from the bridge's test file.
    static let pairs: [Pair] = {
        guard let source = try? String(contentsOfFile: sourcePath, encoding: .utf8) else { return [] }
        var pairs: [Pair] = []
        let chunks = source.components(separatedBy: "FrontEndTriple(\n").flatMap {
            $0.components(separatedBy: "FrontEndTriple(\"")
        }
        var consumedLines = 0
        for chunk in chunks.dropFirst() {
            let body = chunk.hasPrefix("\"") || chunk.hasPrefix(" ") ? chunk.trimmingCharacters(in: .whitespaces) : "\"" + chunk
            guard body.hasPrefix("\""), let close = body.dropFirst().firstIndex(of: "\"") else { continue }
            let text = String(body[body.index(after: body.startIndex)..<close])
            guard let pound = body.range(of: "#Predicate<") else { continue }
            // The closure: from `#Predicate` to its balanced closing brace.
            var level = 0
            var end = pound.lowerBound
            var seenBrace = false
            for index in body[pound.lowerBound...].indices {
                let character = body[index]
                if character == "{" { level += 1; seenBrace = true }
                if character == "}" { level -= 1 }
                if seenBrace, level == 0 { end = body.index(after: index); break }
            }
            consumedLines += 1
            pairs.append(Pair(text: text, swift: String(body[pound.lowerBound..<end]), line: consumedLines))
        }
        return pairs
    }()

    /// The captured constants of the bridge's test file (`private let action = Genre.action`), read as Swift.
    static let constants: [String: Expr] = {
        guard let source = try? String(contentsOfFile: sourcePath, encoding: .utf8) else { return [:] }
        var values: [String: Expr] = [:]
        for line in source.split(separator: "\n") where line.hasPrefix("private let ") {
            let parts = line.dropFirst("private let ".count).split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { continue }
            let pieces = parts[1].components(separatedBy: "//")
            let name = parts[0].trimmingCharacters(in: .whitespaces)
            if let expr = SwiftPredicate.parse(pieces[0]).query?.predicate {
                values[name] = expr
            } else if pieces.count == 2 {
                // A `Date` with its ISO 8601 spelling in the comment: the text's `date('…')`.
                let iso = pieces[1].trimmingCharacters(in: .whitespaces)
                values[name] = Expr(.call(.date, [Expr(.literal(.string(iso)))]))
            }
        }
        return values
    }()

    @Test func theBridgeTestsAreRead() {
        #expect(Self.pairs.count >= 60, "read \(Self.pairs.count) #Predicate sources from \(Self.sourcePath)")
        #expect(Self.constants["rentOrTravel"] != nil && Self.constants["action"] != nil)
    }

    @Test(arguments: pairs)
    func sourceTextGivesTheBridgesTree(_ pair: Pair) throws {
        let text = try #require(Parser.parse(pair.text).query, "the text does not parse")
        let read = SwiftPredicate.parse(pair.swift, constants: Self.constants)
        let swift = try #require(read.query, "\(read.diagnostics.map(\.message))")
        #expect(swift.entity?.text == text.entity?.text)
        let expected = Query(predicate: text.predicate).syntaxDump
        let actual = Query(predicate: swift.predicate).syntaxDump
        #expect(read.capturedNames.isEmpty)
        #expect(actual == expected)
    }
}
