// The command line: `pq [options] [query]`, parsed by hand, POSIX style.
//
// Long options take their value as `--limit 5` or `--limit=5`; `--` ends the
// options; `-h` is `--help`. Anything not an option is the query (several words are
// joined with spaces, so an unquoted query works too).

/// `--param NAME=VALUE`, before the query says what type VALUE has.
struct ParameterAssignment: Equatable {
    var name: String
    var value: String
}

/// What the user asked for on the command line.
struct CommandLineOptions: Equatable {
    enum Format: String, CaseIterable {
        case table, json, csv, markdown
    }

    var query: String?
    /// `--predicate-format FORMAT`: an NSPredicate-style format; the words are its arguments.
    var predicateFormat: String?
    var formatArguments: [String] = []
    var storePath: String?
    var modelPaths: [String] = []
    /// `--model-version NAME`: a version of an .xcdatamodeld or .momd other than its current one.
    var modelVersion: String?
    var layout: String?
    var entity: String?
    var sort: String?
    var limit: Int64?
    var offset: Int64?
    /// `--timeout`: how long a query may run.
    var timeout: Duration?
    var parameters: [ParameterAssignment] = []
    var format: Format = .table
    /// `--null TEXT`: what tables and Markdown print for nil.
    var nullText: String?
    /// `--columns NAMES`: the columns shown, in order.
    var columns: [String]?
    var showSQL = false
    /// `--swift`: the query is `#Predicate` source (or a closure body) in Swift.
    var swift = false
    /// `--emit swift`: print the query as Swift source instead of running it.
    var emitSwift = false
    var explain = false
    var count = false
    var checkOnly = false
    /// With `--check`: print the checked tree (S-expressions) instead of pq's syntax with types.
    var dumpTree = false
    /// `--history`: a Core Data store's persistent-history entities (`TRANSACTION`,
    /// `CHANGE`, …) are queryable too.
    var includeHistory = false
    var printStorePath = false
    /// Create the example tables and data in the PostgreSQL database named by --store.
    var loadExamples = false
    var showVersion = false
    var showHelp = false
}

/// A mistake on the command line: one sentence, then `pq --help` is suggested.
struct UsageError: Error, Equatable {
    var message: String
}

extension CommandLineOptions {
    /// Parses the arguments after the program name.
    static func parse(_ arguments: [String]) throws(UsageError) -> CommandLineOptions {
        var options = CommandLineOptions()
        var words: [String] = []
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
                words.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            var name = argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            func value() throws(UsageError) -> String {
                if let inlineValue { return inlineValue }
                guard index < arguments.count else { throw UsageError(message: "option \(name) needs a value") }
                index += 1
                return arguments[index - 1]
            }
            func flag() throws(UsageError) -> Bool {
                if inlineValue != nil { throw UsageError(message: "option \(name) takes no value") }
                return true
            }
            switch name {
            case "--predicate-format": options.predicateFormat = try value()
            case "--store": options.storePath = try value()
            case "--model": options.modelPaths.append(try value())
            case "--model-version": options.modelVersion = try value()
            case "--layout":
                let layout = try value()
                guard layout == "coreData" || layout == "plain" else {
                    throw UsageError(message: "--layout must be coreData or plain, not '\(layout)'")
                }
                options.layout = layout
            case "--entity": options.entity = try value()
            case "--sort": options.sort = try value()
            case "--limit": options.limit = try count(name, try value())
            case "--offset": options.offset = try count(name, try value())
            case "--timeout": options.timeout = try duration(name, try value())
            case "--param":
                let assignment = try value()
                guard let equals = assignment.firstIndex(of: "="), equals != assignment.startIndex else {
                    throw UsageError(message: "--param takes NAME=VALUE, as in --param min=100")
                }
                var parameterName = String(assignment[..<equals])
                if parameterName.hasPrefix("$") { parameterName.removeFirst() }
                options.parameters.append(
                    ParameterAssignment(name: parameterName, value: String(assignment[assignment.index(after: equals)...])))
            case "--format":
                let text = try value()
                guard let format = Format(rawValue: text) else {
                    throw UsageError(message: "--format must be one of table, json, csv, markdown, not '\(text)'")
                }
                options.format = format
            case "--null": options.nullText = try value()
            case "--columns":
                let names = ResultFormatter.columnList(try value())
                guard !names.isEmpty else {
                    throw UsageError(message: "--columns needs column names, as in --columns name,limit")
                }
                options.columns = names
            case "--sql": options.showSQL = try flag()
            case "--swift": options.swift = try flag()
            case "--emit":
                let text = try value()
                guard text == "swift" else { throw UsageError(message: "--emit takes 'swift', not '\(text)'") }
                options.emitSwift = true
            case "--explain": options.explain = try flag()
            case "--count": options.count = try flag()
            case "--check": options.checkOnly = try flag()
            case "--dump":
                options.checkOnly = try flag()
                options.dumpTree = true
            case "--history": options.includeHistory = try flag()
            case "--store-path": options.printStorePath = try flag()
            case "--load-examples": options.loadExamples = try flag()
            case "--version": options.showVersion = try flag()
            case "--help", "-h": options.showHelp = try flag()
            default:
                throw UsageError(message: "unknown option '\(name)'")
            }
        }
        if options.predicateFormat != nil {
            options.formatArguments = words
        } else if !words.isEmpty {
            options.query = words.joined(separator: " ")
        }
        return options
    }

    /// A timeout in seconds, such as `5` or `0.25`.
    static func duration(_ name: String, _ text: String) throws(UsageError) -> Duration {
        guard let seconds = Double(text), seconds > 0, seconds <= 1_000_000 else {
            throw UsageError(message: "\(name) needs a number of seconds greater than 0, such as 5 or 0.5, not '\(text)'")
        }
        return .milliseconds(max(1, Int64((seconds * 1000).rounded())))
    }

    private static func count(_ name: String, _ text: String) throws(UsageError) -> Int64 {
        guard let value = Int64(text), value >= 0 else {
            throw UsageError(message: "\(name) needs a non-negative integer, not '\(text)'")
        }
        return value
    }
}
