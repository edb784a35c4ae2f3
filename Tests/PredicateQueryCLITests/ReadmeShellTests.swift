// Every `pq` command the README and the articles under Documentation/ print pastes
// into a shell and runs (issue 27):
// ReadmeTests splits a command into words itself, so a `$0` inside double quotes
// passed there while bash turned it into the shell's own name. Here each command
// line of a ```console, ```sh, ```bash or plain block is given to `bash -c`
// exactly as printed:
//
// - with a stand-in `pq` (and `swift`) on the PATH that prints the arguments it
//   gets, which must be the words as printed, quotes removed: nothing expanded,
//   split or dropped by the shell;
// - without quoting that an interactive bash or zsh would still act on (`!` history
//   expansion inside double quotes, unquoted glob characters);
// - and, where every file it names exists here (no `postgresql://` URL, no user's
//   store), with the built `pq` on the PATH in the repository's root: it must print
//   what the document shows after it (a line `…` stands for any lines), or, where
//   the document shows nothing, succeed.

import Foundation
import PredicateQueryTestSupport
import Testing

struct ReadmeShellTests {
    struct Command: CustomTestStringConvertible, Sendable {
        /// The document it is in, as `README.md` or `Documentation/Stores.md`.
        var document = "README.md"
        /// The line it is on, from 1.
        var line: Int
        /// The command as printed, without a `$ ` prompt.
        var text: String
        /// What the document prints after it; nil where it shows no output.
        var expected: String?
        var testDescription: String { "\(document):\(line): \(text)" }
    }

    static let fences: Set<String> = ["", "console", "sh", "bash", "shell", "zsh"]

    /// The commands that run `pq`, bare or as `swift run pq`, possibly after `NAME=value`.
    static var commands: [Command] {
        ReadmeTests.documents.flatMap { commands(in: $0.text, document: $0.path) }
    }

    static func commands(in text: String, document: String) -> [Command] {
        var commands: [Command] = []
        var fence: String?
        var current: Command?
        func finish() {
            if let command = current { commands.append(command) }
            current = nil
        }
        for (index, raw) in text.components(separatedBy: "\n").enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("```") {
                finish()
                fence = fence == nil ? String(line.dropFirst(3)) : nil
                continue
            }
            guard let kind = fence, fences.contains(kind) else { continue }
            let prompted = line.hasPrefix("$ ")
            let command = prompted ? String(line.dropFirst(2)) : line
            if runsPQ(command) {
                finish()
                current = Command(document: document, line: index + 1, text: command, expected: prompted ? "" : nil)
                if !prompted { finish() }
            } else if prompted {
                finish()
            } else if current?.expected != nil {
                current?.expected? += raw + "\n"
            }
        }
        finish()
        return commands
    }

    static func runsPQ(_ command: String) -> Bool {
        let words = programWords(CommandLineTests.words(command))
        return words.first == "pq" || words.prefix(3) == ["swift", "run", "pq"]
    }

    /// The words from the program on, after any `NAME=value` assignments.
    static func programWords(_ words: [String]) -> [String] {
        Array(words.drop { $0.contains("=") && $0.first?.isUppercase == true })
    }

    /// At least as many commands as README.md held before its manual moved into
    /// Documentation/ (35, of which 20 run here): moving text never loses one.
    @Test func theReadmeAndTheArticlesHaveShellCommands() {
        let commands = Self.commands
        #expect(commands.count >= 35)
        #expect(commands.contains { $0.document == "README.md" })
        #expect(commands.contains { $0.text.contains("$0.name") }, "the example with a closure is found")
        #expect(commands.contains { $0.text.hasPrefix("pq --model") && $0.expected == nil })
        #expect(commands.contains { $0.text.hasPrefix("pq lint") && $0.expected?.contains("…") == true })
    }

    /// A folder with stand-ins for `pq` and `swift` that print their arguments, one per
    /// line as `[argument]`, so an argument holding a line break still shows.
    static let standIns: URL = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "pq-readme-shell-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in ["pq", "swift"] {
            let path = folder.appendingPathComponent(name).path
            let script = "#!/bin/sh\nfor a in \"$@\"; do printf '[%s]\\n' \"$a\"; done\n"
            _ = FileManager.default.createFile(
                atPath: path, contents: Data(script.utf8), attributes: [.posixPermissions: 0o755])
        }
        return folder
    }()

    static var path: String { ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin" }

    @Test("bash passes every documented command's words to pq as printed", arguments: commands)
    func theShellPassesTheWordsAsPrinted(_ command: Command) throws {
        let result = try PQProcess.capture(
            URL(fileURLWithPath: "/bin/bash"), ["-c", command.text],
            environment: ["PATH": Self.standIns.path + ":" + Self.path, "HOME": "/home/reader"], input: nil,
            directory: GoldenFile.repositoryRoot)
        let printed = Self.programWords(CommandLineTests.words(command.text)).dropFirst().map { "[\($0)]\n" }.joined()
        #expect(result.status == 0, "\(result.error)")
        let expected = printed.replacingOccurrences(of: "[~/", with: "[/home/reader/")
        #expect(result.output == expected, "the shell changed the words")
    }

    @Test("no documented command quotes what an interactive bash or zsh would expand", arguments: commands)
    func nothingAnInteractiveShellExpands(_ command: Command) {
        #expect(Self.interactiveHazards(command.text).isEmpty, "\(Self.interactiveHazards(command.text))")
    }

    /// What an interactive shell would still act on: `!` (history expansion) other
    /// than in `!=` or before a space, outside single quotes; `$`, a backquote or a
    /// backslash inside double quotes; glob and control characters unquoted.
    static func interactiveHazards(_ text: String) -> [String] {
        var hazards: [String] = []
        var quote: Character?
        let characters = Array(text)
        for (index, character) in characters.enumerated() {
            let next = index + 1 < characters.count ? characters[index + 1] : " "
            switch quote {
            case "'":
                if character == "'" { quote = nil }
            case "\"":
                if character == "\"" {
                    quote = nil
                } else if "$`\\".contains(character) {
                    hazards.append("'\(character)' in double quotes")
                } else if character == "!", next != "=", next != " " {
                    hazards.append("'!\(next)' in double quotes")
                }
            default:
                if character == "'" || character == "\"" {
                    quote = character
                } else if "$`\\*?[]{}()<>|;&#!".contains(character) {
                    hazards.append("unquoted '\(character)'")
                }
            }
        }
        if quote != nil { hazards.append("an unclosed quote") }
        return hazards
    }

    /// Commands whose files all exist here, so that they can really run.
    static var runnable: [Command] {
        commands.filter { command in
            let words = programWords(CommandLineTests.words(command.text))
            guard words.first == "pq", !command.text.contains("postgresql://") else { return false }
            var files: [String] = []
            for (index, word) in words.enumerated().dropFirst() {
                if ["--store", "--model"].contains(words[index - 1]) { files.append(word) }
                if words[index - 1] == "lint" { files.append(word) }
            }
            return files.allSatisfy {
                FileManager.default.fileExists(atPath: GoldenFile.repositoryRoot.appendingPathComponent($0).path)
            }
        }
    }

    @Test func mostCommandsCanRunHere() {
        #expect(Self.runnable.count >= 20)
        #expect(Self.runnable.contains { $0.text.contains("--model Examples/Models/Budgets --sql") })
    }

    @Test("the documented commands run in bash with the built pq and print what they show", arguments: runnable)
    func theCommandRuns(_ command: Command) throws {
        let result = try PQProcess.capture(
            URL(fileURLWithPath: "/bin/bash"), ["-c", command.text],
            environment: [
                "PATH": PQProcess.executable.deletingLastPathComponent().path + ":" + Self.path,
                "PQ_CACHE_DIR": PQProcess.cacheDirectory.path,
            ],
            input: nil, directory: GoldenFile.repositoryRoot)
        // CSV ends lines with CRLF (RFC 4180); the documents show plain line ends.
        let printed = (result.output + result.error).replacingOccurrences(of: "\r\n", with: "\n")
        if let expected = command.expected, !expected.isEmpty {
            #expect(Self.matches(printed, expected), "printed:\n\(printed)")
        } else {
            #expect(result.status == 0, "\(printed)")
            #expect(!result.error.contains("error"), "\(result.error)")
        }
    }

    /// Whether `text` is `expected`, where a line `…` in `expected` stands for any lines.
    static func matches(_ text: String, _ expected: String) -> Bool {
        let lines = text.components(separatedBy: "\n")
        let wanted = expected.components(separatedBy: "\n")
        func match(_ line: Int, _ want: Int) -> Bool {
            guard want < wanted.count else { return line == lines.count }
            if wanted[want] == "…" {
                return (line...lines.count).contains { match($0, want + 1) }
            }
            return line < lines.count && lines[line] == wanted[want] && match(line + 1, want + 1)
        }
        return match(0, 0)
    }
}
