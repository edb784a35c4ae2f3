// The command line of `pq lint`.

import PredicateQueryModels

/// What `pq lint` was asked to do.
struct LintOptions {
    enum Format: String, CaseIterable {
        case text, json, sarif, github, junit
    }

    var paths: [String] = []
    var format = Format.text
    var sql = false
    var engineDifferences = false
    var strict = false
    var listRules = false
    var explain: String?
    var configuration: String?
    var baseline: String?
    var writeBaseline: String?
    var help = false
    /// Whether a result cached for the same inputs may be printed (see `LintCache`).
    var usesCache = true
    /// The arguments as given, part of the cache's key.
    var arguments: [String] = []
    /// A file to write when the run passes (a build tool plugin's declared output).
    var stamp: String?

    static let usage = """
        usage: pq lint [--format text|json|sarif|github|junit] [--strict] [--config FILE]
                       [--baseline FILE] [--write-baseline FILE] [--sql] [--engine-differences]
                       [--no-cache] [--stamp FILE] [PATH...]
               pq lint --rules
               pq lint --explain RULE
          Checks every #Predicate, @Query, FetchDescriptor and SortDescriptor in the
          Swift files under PATH (or the configuration's 'included' paths) against the
          @Model classes found there. Reads .pq-lint.yml in the current folder unless
          --config names one. Exit status: 0 no errors, 1 errors (or warnings with
          --strict), 2 bad usage, an unreadable path, configuration or baseline.
          A run whose files, configuration, baseline and options are all as in an
          earlier run prints that run's result from the cache ($PQ_CACHE_DIR/lint;
          --no-cache checks again). --stamp FILE writes FILE when the run passes
          (for the build tool plugin, whose command must declare an output).
        """

    /// Reads the arguments after `lint`; the error is a message for standard error.
    init(_ arguments: [String]) throws(LintUsageError) {
        self.arguments = arguments
        var index = 0
        /// The value of an option: `--name value` or `--name=value`.
        func value(of argument: String, _ name: String) throws(LintUsageError) -> String {
            if argument.hasPrefix(name + "=") { return String(argument.dropFirst(name.count + 1)) }
            guard index < arguments.count else { throw LintUsageError("\(name) needs a value") }
            index += 1
            return arguments[index - 1]
        }
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
            switch name {
            case "--help", "-h": help = true
            case "--sql": sql = true
            case "--engine-differences": engineDifferences = true
            case "--strict": strict = true
            case "--no-cache": usesCache = false
            case "--rules": listRules = true
            case "--explain": explain = try value(of: argument, name)
            case "--config": configuration = try value(of: argument, name)
            case "--baseline": baseline = try value(of: argument, name)
            case "--write-baseline": writeBaseline = try value(of: argument, name)
            case "--stamp": stamp = try value(of: argument, name)
            case "--format":
                let text = try value(of: argument, name)
                guard let chosen = Format(rawValue: text) else {
                    let all = Format.allCases.map(\.rawValue)
                    throw LintUsageError(
                        "--format must be \(all.dropLast().joined(separator: ", ")) or \(all.last ?? ""), not '\(text)'")
                }
                format = chosen
            default:
                if argument.hasPrefix("-"), argument != "-" {
                    throw LintUsageError("unknown option '\(argument)'", showsUsage: true)
                }
                paths.append(argument)
            }
        }
    }
}

/// A command line `pq lint` cannot run: exit status 2.
struct LintUsageError: Error {
    var message: String
    var showsUsage = false
    init(_ message: String, showsUsage: Bool = false) {
        self.message = message
        self.showsUsage = showsUsage
    }
}
