// `pq lint --format github`: GitHub Actions workflow commands, which the runner
// turns into annotations on the pull request's diff:
//
//     ::error file=Sources/App/Trips.swift,line=16,col=73,endLine=16,endColumn=82,title=pq lint enum-compared-as-itself::SwiftData cannot …
//
// Errors are `::error`, warnings `::warning`, notes `::notice`. The message
// (the data) has `%`, CR and LF escaped as `%25`, `%0D` and `%0A` (so the notes
// follow on lines of their own); the properties have `:` and `,` escaped too,
// as `%3A` and `%2C`, since they delimit the command. The file is relative to
// the folder pq ran in (the workspace, in a workflow).

import PredicateQuery
import PredicateQueryModels

enum GitHubReporter {
    static func report(_ run: LintRun) -> String {
        var out = ""
        for finding in run.findings {
            let command: String
            switch finding.severity {
            case .error: command = "error"
            case .warning: command = "warning"
            case .note: command = "notice"
            }
            var properties = [
                ("file", LintPaths.relative(finding.file)), ("line", "\(finding.line)"),
            ]
            if finding.span != nil {
                properties += [
                    ("col", "\(finding.column)"), ("endLine", "\(finding.endLine)"), ("endColumn", "\(finding.endColumn)"),
                ]
            }
            properties.append(("title", "pq lint \(finding.rule)"))
            var message = finding.message
            for note in finding.notes { message += "\n" + note.message }
            let written = properties.map { "\($0.0)=\(escapeProperty($0.1))" }.joined(separator: ",")
            out += "::\(command) \(written)::\(escapeData(message))\n"
        }
        return out + LintOutput.summary(run)
    }

    /// A command's data: `%`, CR and LF escaped.
    static func escapeData(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "%": out += "%25"
            case "\r": out += "%0D"
            case "\n": out += "%0A"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// A property's value: as data, and `:` and `,` escaped.
    static func escapeProperty(_ text: String) -> String {
        var out = ""
        for scalar in escapeData(text).unicodeScalars {
            switch scalar {
            case ":": out += "%3A"
            case ",": out += "%2C"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
