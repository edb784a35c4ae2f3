// The README's examples are tests: every `$ pq …` line in a ```console block is
// run, and what it prints (standard output, then standard error) must be the
// lines that follow it in the README.

import Foundation
import PredicateQueryTestSupport
import Testing

struct ReadmeTests {
    struct Example: CustomTestStringConvertible {
        var command: String
        var expected: String
        var testDescription: String { command }
    }

    static var examples: [Example] {
        let url = GoldenFile.repositoryRoot.appendingPathComponent("README.md")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        var examples: [Example] = []
        var inConsole = false
        var current: Example?
        for line in text.components(separatedBy: "\n") {
            if line.hasPrefix("```") {
                if let example = current { examples.append(example) }
                current = nil
                inConsole = line == "```console"
                continue
            }
            guard inConsole else { continue }
            if line.hasPrefix("$ pq ") {
                if let example = current { examples.append(example) }
                current = Example(command: String(line.dropFirst("$ pq ".count)), expected: "")
            } else if current != nil {
                current?.expected += line + "\n"
            }
        }
        return examples
    }

    @Test func theReadmeHasExamples() {
        #expect(Self.examples.count >= 8)
    }

    @Test("README examples print what the README says", arguments: examples)
    func example(_ example: Example) throws {
        let result = try PQProcess.run(CommandLineTests.words(example.command))
        // CSV ends lines with CRLF (RFC 4180); the README shows plain line ends.
        let printed = (result.output + result.error).replacingOccurrences(of: "\r\n", with: "\n")
        #expect(printed == example.expected)
    }
}
