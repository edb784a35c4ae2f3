// `pq lint`'s output formats, from the real binary, each parsed as its reader
// would: JSON with rule ids, SARIF 2.1.0's shape, GitHub's workflow commands
// with their escapes, and JUnit XML.

import Foundation
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

struct LintFormatTests {
    /// A file name with the characters GitHub's properties and URIs escape.
    static let queryFile = "Trips, 50%: all.swift"

    @Test func textNamesTheRuleOfEachFinding() throws {
        let fixture = try LintFixture()
        defer { fixture.remove() }
        let result = try fixture.lint(["App"])
        #expect(result.output.contains("App/Queries.swift:2:28: warning: 'note' can be nil"))
        #expect(result.output.contains("[nil-inequality]\n"))
        #expect(
            result.output.contains("App/Queries.swift:3:31: error: value of type 'Trip' has no member 'nam' [unknown-property]\n")
        )
    }

    @Test func jsonGivesEachFindingItsRule() throws {
        let fixture = try LintFixture()
        defer { fixture.remove() }
        let result = try fixture.lint(["--format", "json", "App"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        let findings = try #require(object["findings"] as? [[String: Any]])
        #expect(findings.map { $0["rule"] as? String } == ["nil-inequality", "unknown-property"])
        #expect(findings.map { $0["code"] as? String } == ["swift.nilInequality", "check.unknownProperty"])
        let sites = try #require(object["sites"] as? [[String: Any]])
        let inSites = sites.flatMap { ($0["diagnostics"] as? [[String: Any]]) ?? [] }.compactMap { $0["rule"] as? String }
        #expect(inSites == ["nil-inequality", "unknown-property"])
    }

    @Test func sarifHasRulesWithHelpAndResultsWithRelativeLocations() throws {
        let fixture = try LintFixture(queryFile: Self.queryFile)
        defer { fixture.remove() }
        let result = try fixture.lint(["--format", "sarif", "App"])
        #expect(result.status == 1)
        let log = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        #expect(log["version"] as? String == "2.1.0")
        #expect((log["$schema"] as? String)?.contains("sarif-2.1.0") == true)
        let runs = try #require(log["runs"] as? [[String: Any]])
        #expect(runs.count == 1)
        let run = runs[0]
        let driver = try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
        #expect(driver["name"] as? String == "pq lint")
        let rules = try #require(driver["rules"] as? [[String: Any]])
        let ids = rules.compactMap { $0["id"] as? String }
        #expect(ids.contains("nil-inequality") && ids.contains("unknown-property"))
        for rule in rules {
            let help = try #require(rule["help"] as? [String: Any])
            #expect(!((help["text"] as? String) ?? "").isEmpty)
            #expect(((rule["shortDescription"] as? [String: Any])?["text"] as? String)?.isEmpty == false)
            let level = (rule["defaultConfiguration"] as? [String: Any])?["level"] as? String
            #expect(["error", "warning", "note"].contains(level ?? ""))
        }
        let results = try #require(run["results"] as? [[String: Any]])
        #expect(results.count == 2)
        let expected: [(rule: String, level: String, line: Int, column: Int)] = [
            ("nil-inequality", "warning", 2, 28), ("unknown-property", "error", 3, 31),
        ]
        for (result, wanted) in zip(results, expected) {
            #expect(result["ruleId"] as? String == wanted.rule)
            let index = try #require(result["ruleIndex"] as? Int)
            #expect(ids[index] == wanted.rule)
            #expect(result["level"] as? String == wanted.level)
            #expect(((result["message"] as? [String: Any])?["text"] as? String)?.isEmpty == false)
            let locations = try #require(result["locations"] as? [[String: Any]])
            let physical = try #require(locations.first?["physicalLocation"] as? [String: Any])
            let artifact = try #require(physical["artifactLocation"] as? [String: Any])
            // Relative to the folder pq ran in, as a URI reference.
            #expect(artifact["uri"] as? String == "App/Trips%2C%2050%25%3A%20all.swift")
            #expect(artifact["uriBaseId"] as? String == "%SRCROOT%")
            let region = try #require(physical["region"] as? [String: Any])
            #expect(region["startLine"] as? Int == wanted.line)
            #expect(region["startColumn"] as? Int == wanted.column)
            #expect((region["endColumn"] as? Int ?? 0) > wanted.column)
        }
        let base = (run["originalUriBaseIds"] as? [String: Any])?["%SRCROOT%"] as? [String: Any]
        #expect((base?["uri"] as? String)?.hasPrefix("file:///") == true)
        #expect((base?["uri"] as? String)?.hasSuffix("/") == true)
    }

    @Test func githubAnnotationsEscapeTheirPropertiesAndData() throws {
        // A message with '%' (the literal) and notes on further lines.
        let queries =
            "import SwiftData\nlet a = #Predicate<Trip> { $0.name == \"50% Montre\\u{301}al\" }\nlet b = #Predicate<Trip> { $0.nam == \"x\" }\n"
        let fixture = try LintFixture(queryFile: Self.queryFile, queries: queries)
        defer { fixture.remove() }
        let result = try fixture.lint(["--format", "github", "App"])
        #expect(result.status == 1)
        let commands = result.output.split(separator: "\n").filter { $0.hasPrefix("::") }
        #expect(commands.count == 2)
        let file = "file=App/Trips%2C 50%25%3A all.swift"
        #expect(commands[0].hasPrefix("::warning \(file),line=2,col="), "\(commands[0])")
        #expect(commands[0].contains(",title=pq lint decomposed-string-literal::"))
        #expect(commands[0].contains("\"50%25 Montréal\""), "the data's % is escaped")
        #expect(commands[0].contains("%0Awrite it as the stored values are spelled"), "a note on a line of its own")
        #expect(commands[1].hasPrefix("::error \(file),line=3,col=31,endLine=3,endColumn=34,title=pq lint unknown-property::"))
        #expect(commands[1].hasSuffix("no member 'nam'%0Adid you mean 'name'?"))
        // Nothing unescaped: each command is one line, and its properties split on ',' into key=value pairs.
        for command in commands {
            let properties = command.dropFirst(2).split(separator: " ", maxSplits: 1)[1].components(separatedBy: "::")[0]
            #expect(properties.split(separator: ",").allSatisfy { $0.split(separator: "=").count == 2 }, "\(properties)")
        }
    }

    @Test func junitIsWellFormedWithAFailurePerError() throws {
        let fixture = try LintFixture(queryFile: "A & <B>.swift")
        defer { fixture.remove() }
        let result = try fixture.lint(["--format", "junit", "App"])
        #expect(result.status == 1)
        final class Counter: NSObject, XMLParserDelegate {
            var elements: [String: Int] = [:]
            var failureTypes: [String] = []
            var suites: [String] = []
            func parser(
                _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]
            ) {
                elements[name, default: 0] += 1
                if name == "failure" { failureTypes.append(attributes["type"] ?? "") }
                if name == "testsuite" { suites.append(attributes["name"] ?? "") }
            }
        }
        let counter = Counter()
        let parser = XMLParser(data: Data(result.output.utf8))
        parser.delegate = counter
        #expect(parser.parse(), "\(result.output)")
        #expect(counter.elements["testsuites"] == 1)
        #expect(counter.suites == ["App/A & <B>.swift"])
        #expect(counter.elements["testcase"] == 2)
        #expect(counter.failureTypes == ["unknown-property"])
        #expect(counter.elements["system-out"] == 1, "the warning, which does not fail the run")
        // Under --strict the warning fails too.
        let strict = try fixture.lint(["--format", "junit", "--strict", "App"])
        #expect(strict.output.components(separatedBy: "<failure ").count - 1 == 2)
    }
}
