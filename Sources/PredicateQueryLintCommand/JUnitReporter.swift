// `pq lint --format junit`: JUnit XML, which GitLab (artifacts:reports:junit),
// Jenkins, Azure Pipelines, CircleCI, Bitrise and GitHub test-report actions
// all read, where Checkstyle XML is read mostly by Jenkins' warnings plugin and
// reviewdog. JUnit's model is tests that pass or fail, so:
//
//   - each file with query sites or findings is a `<testsuite>`;
//   - each query site is a `<testcase>`: it fails with one `<failure>` a finding
//     that fails the run (an error, or a warning with `--strict`); the other
//     findings are in its `<system-out>`; a site pq could not check is `<skipped>`
//     with the reason;
//   - a finding of no site (the model reader's notes, a superfluous suppression)
//     is a `<testcase>` of its own, failing or not by the same measure.

import PredicateQuery
import PredicateQueryModels

enum JUnitReporter {
    struct Case {
        var name: String
        var line: Int
        var failures: [LintFinding] = []
        var others: [LintFinding] = []
        var skipped: String?
    }

    static func report(_ run: LintRun, strict: Bool) -> String {
        let report = run.report
        var order: [String] = []
        var cases: [String: [Case]] = [:]
        var siteCase: [Int: (file: String, index: Int)] = [:]
        func add(_ file: String, _ testCase: Case) -> Int {
            if cases[file] == nil {
                order.append(file)
                cases[file] = []
            }
            cases[file, default: []].append(testCase)
            return (cases[file]?.count ?? 1) - 1
        }
        var texts = LintOutput.Texts(report.files)
        for (index, site) in report.sites.enumerated() {
            guard let text = texts[site.file] else { continue }
            let location = text.location(of: site.span.start)
            let position = add(
                site.file,
                Case(name: "\(site.kind) at \(location.line):\(location.column)", line: location.line, skipped: site.skipped))
            siteCase[index] = (site.file, position)
        }
        func fails(_ finding: LintFinding) -> Bool {
            finding.severity == .error || (strict && finding.severity == .warning)
        }
        for finding in run.findings {
            if let site = finding.site, let place = siteCase[site], cases[place.file] != nil {
                if fails(finding) {
                    cases[place.file]?[place.index].failures.append(finding)
                } else {
                    cases[place.file]?[place.index].others.append(finding)
                }
            } else {
                var testCase = Case(name: "\(finding.rule) at \(finding.line):\(finding.column)", line: finding.line)
                if fails(finding) { testCase.failures.append(finding) } else { testCase.others.append(finding) }
                _ = add(finding.file, testCase)
            }
        }
        let all = order.flatMap { cases[$0] ?? [] }
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuites name=\"pq lint\" tests=\"\(all.count)\" failures=\"\(all.filter { !$0.failures.isEmpty }.count)\""
        out += " skipped=\"\(all.filter { $0.skipped != nil }.count)\">\n"
        for file in order {
            let suite = cases[file] ?? []
            let path = escape(LintPaths.relative(file))
            out +=
                "  <testsuite name=\"\(path)\" tests=\"\(suite.count)\" failures=\"\(suite.filter { !$0.failures.isEmpty }.count)\""
            out += " skipped=\"\(suite.filter { $0.skipped != nil }.count)\">\n"
            for testCase in suite {
                out +=
                    "    <testcase classname=\"\(path)\" name=\"\(escape(testCase.name))\" file=\"\(path)\" line=\"\(testCase.line)\""
                guard !testCase.failures.isEmpty || !testCase.others.isEmpty || testCase.skipped != nil else {
                    out += "/>\n"
                    continue
                }
                out += ">\n"
                if let reason = testCase.skipped { out += "      <skipped message=\"\(escape(reason))\"/>\n" }
                for finding in testCase.failures {
                    out += "      <failure type=\"\(finding.rule)\" message=\"\(escape(finding.message))\">"
                    out += escape(line(finding), inAttribute: false) + "</failure>\n"
                }
                if !testCase.others.isEmpty {
                    out +=
                        "      <system-out>" + escape(testCase.others.map(line).joined(separator: "\n"), inAttribute: false)
                        + "</system-out>\n"
                }
                out += "    </testcase>\n"
            }
            out += "  </testsuite>\n"
        }
        return out + "</testsuites>\n"
    }

    /// `file:line:column: error: message [rule]` and the notes.
    static func line(_ finding: LintFinding) -> String {
        var text =
            "\(finding.file):\(finding.line):\(finding.column): \(finding.severity.rawValue): \(finding.message) [\(finding.rule)]"
        for note in finding.notes { text += "\nnote: \(note.message)" }
        return text
    }

    /// Text for an XML attribute (line breaks as character references) or element: the five entities
    /// escaped, characters XML 1.0 does not allow dropped.
    static func escape(_ text: String, inAttribute: Bool = true) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\n": out += inAttribute ? "&#10;" : "\n"
            case "\r": out += "&#13;"
            case "\t": out.unicodeScalars.append(scalar)
            default:
                if scalar.value >= 0x20, scalar.value != 0xFFFE, scalar.value != 0xFFFF { out.unicodeScalars.append(scalar) }
            }
        }
        return out
    }
}
