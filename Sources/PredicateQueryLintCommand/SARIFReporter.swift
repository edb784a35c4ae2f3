// `pq lint --format sarif`: SARIF 2.1.0, the format GitHub code scanning
// (`github/codeql-action/upload-sarif`) and other CI tools read.
//
// One run; `tool.driver.rules` holds every rule of the catalog with its
// description and help text; each result names its rule (id and index), its
// level, message and one physical location: the file's path relative to the
// folder pq ran in (under the base id `%SRCROOT%`, which `originalUriBaseIds`
// gives as that folder), percent-encoded, and a region whose columns count
// UTF-16 code units, SARIF's default, with an exclusive end column.

import Foundation
import PredicateQuery
import PredicateQueryModels

enum SARIFReporter {
    struct Text: Encodable { var text: String }
    struct Help: Encodable {
        var text: String
        var markdown: String
    }
    struct Configuration: Encodable { var level: String }
    struct Rule: Encodable {
        var id: String
        var name: String
        var shortDescription: Text
        var fullDescription: Text
        var help: Help
        var defaultConfiguration: Configuration
    }
    struct Driver: Encodable {
        var name: String
        var rules: [Rule]
    }
    struct Tool: Encodable { var driver: Driver }
    struct ArtifactLocation: Encodable {
        var uri: String
        var uriBaseId: String?
    }
    struct Region: Encodable {
        var startLine: Int
        var startColumn: Int?
        var endLine: Int?
        var endColumn: Int?
    }
    struct PhysicalLocation: Encodable {
        var artifactLocation: ArtifactLocation
        var region: Region
    }
    struct Location: Encodable { var physicalLocation: PhysicalLocation }
    struct Result: Encodable {
        var ruleId: String
        var ruleIndex: Int
        var level: String
        var message: Text
        var locations: [Location]
    }
    struct BaseURI: Encodable { var uri: String }
    struct Run: Encodable {
        var tool: Tool
        var originalUriBaseIds: [String: BaseURI]
        var results: [Result]
    }
    struct Log: Encodable {
        var schema = "https://json.schemastore.org/sarif-2.1.0.json"
        var version = "2.1.0"
        var runs: [Run]
        enum CodingKeys: String, CodingKey {
            case schema = "$schema"
            case version, runs
        }
    }

    static let baseID = "%SRCROOT%"

    static func level(_ severity: Severity) -> String {
        switch severity {
        case .error: "error"
        case .warning: "warning"
        case .note: "note"
        }
    }

    /// `nil-inequality` → `NilInequality`, the rule's SARIF name.
    static func name(_ id: String) -> String {
        id.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    static func report(_ run: LintRun) -> String {
        let catalog = LintRuleCatalog.all
        var index: [String: Int] = [:]
        for (position, rule) in catalog.enumerated() { index[rule.id] = position }
        let rules = catalog.map { rule in
            Rule(
                id: rule.id, name: name(rule.id), shortDescription: Text(text: rule.summary),
                fullDescription: Text(text: rule.explanation),
                help: Help(
                    text: "\(rule.explanation)\n\nEvidence: \(rule.evidence)",
                    markdown:
                        "\(rule.explanation)\n\n**Evidence:** \(rule.evidence)\n\n`pq lint --explain \(rule.id)` shows examples."),
                defaultConfiguration: Configuration(level: level(rule.severity)))
        }
        var texts: [String: String] = [:]
        for file in run.report.files { texts[file.path] = file.text }
        let results = run.findings.map { finding in
            var message = finding.message
            for note in finding.notes { message += "\n" + note.message }
            return Result(
                ruleId: finding.rule, ruleIndex: index[finding.rule] ?? 0, level: level(finding.severity),
                message: Text(text: message),
                locations: [
                    Location(
                        physicalLocation: PhysicalLocation(
                            artifactLocation: artifact(finding.file), region: region(finding, texts[finding.file])))
                ])
        }
        let folder = LintPaths.workingFolder
        let base = "file://" + percentEncoded(folder.hasSuffix("/") ? folder : folder + "/")
        let log = Log(
            runs: [
                Run(
                    tool: Tool(driver: Driver(name: "pq lint", rules: rules)),
                    originalUriBaseIds: [baseID: BaseURI(uri: base)], results: results)
            ])
        return LintOutput.encode(log)
    }

    /// The file relative to the folder pq ran in, or a `file://` URI when it is outside it.
    static func artifact(_ path: String) -> ArtifactLocation {
        let relative = LintPaths.relative(path)
        if relative.hasPrefix("/") { return ArtifactLocation(uri: "file://" + percentEncoded(relative), uriBaseId: nil) }
        return ArtifactLocation(uri: percentEncoded(relative), uriBaseId: baseID)
    }

    /// A path as a URI reference: every byte but unreserved characters and `/` percent-encoded.
    static func percentEncoded(_ path: String) -> String {
        var out = ""
        for byte in path.utf8 {
            let scalar = Unicode.Scalar(byte)
            if (byte < 0x80 && (scalar.properties.isASCIIHexDigit || Character(scalar).isLetter))
                || "-._~/".unicodeScalars.contains(scalar)
            {
                out.unicodeScalars.append(scalar)
            } else {
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return out
    }

    /// The finding's region, its columns in UTF-16 code units (1-based, the end exclusive).
    static func region(_ finding: LintFinding, _ text: String?) -> Region {
        guard let span = finding.span, let text else { return Region(startLine: finding.line) }
        let bytes = Array(text.utf8)
        func column(_ offset: Int) -> Int {
            let offset = min(max(0, offset), bytes.count)
            var start = offset
            while start > 0, bytes[start - 1] != UInt8(ascii: "\n") { start -= 1 }
            return String(decoding: bytes[start..<offset], as: UTF8.self).utf16.count + 1
        }
        return Region(
            startLine: finding.line, startColumn: column(span.start), endLine: finding.endLine,
            endColumn: max(column(span.end), finding.endLine == finding.line ? column(span.start) + 1 : 1))
    }
}

extension String {
    /// Padded with zeros on the left to `width` characters.
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
