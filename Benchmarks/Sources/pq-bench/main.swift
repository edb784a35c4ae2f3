// pq-bench: generates the benchmark store and measures pq against hand-written
// SQL, GRDB and #Predicate in memory. See Benchmarks/README.md.
//
//   pq-bench generate [--scale N] [--store PATH]
//   pq-bench compile
//   pq-bench foundation [--scale N] [--repetitions N]
//                                      Predicates built from text: build time, and
//                                      evaluation against #Predicate over N objects
//   pq-bench queries [--scale N] [--store PATH] [--repetitions N] [--in-memory-repetitions N] [--only NAME]
//   pq-bench all [same options]        the store if missing, then both benchmarks
//   pq-bench postgres --url URL [--scale N] [--repetitions N]
//                                      pq on PostgreSQL against hand-written SQL through libpq
//   pq-bench chain [--scale N] [--store PATH] [--repetitions N]
//                                      `||` chains of equalities against the hand-written IN
//   pq-bench profile --only NAME [--repetitions N]
//                                      runs only pq's side of the matching queries, N times
//                                      each, for a profiler (perf record -g …)
//   pq-bench repeat compile|foundation COUNT QUERY
//                                      compiles QUERY (or builds its Foundation predicate)
//                                      COUNT times, for callgrind (instructions.sh)
//   pq-bench examples                  the SPEC examples the benchmarks use, one a line

import Foundation
import PQBenchmarks

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("pq-bench: \(message)\n".utf8))
    exit(2)
}

func log(_ message: String) {
    FileHandle.standardError.write(Data("pq-bench: \(message)\n".utf8))
}

var arguments = Array(CommandLine.arguments.dropFirst())

// The two commands with plain arguments, for instructions.sh.
if arguments.first == "examples" {
    print(CompileBenchmark.specExamples.joined(separator: "\n"))
    exit(0)
}
if arguments.first == "repeat" {
    let usage = "usage: pq-bench repeat compile|foundation COUNT QUERY"
    guard arguments.count == 4, let work = InstructionCount.Work(rawValue: arguments[1]) else { fail(usage) }
    let count = number(arguments[2], for: "COUNT")
    do {
        let once = try InstructionCount.prepare(work, arguments[3])
        InstructionCount.measuredRepetitions(count, once)
    } catch {
        // Not a failure of the tool: the query has no compile or no Foundation predicate.
        print("refused: \(error.description)")
    }
    exit(0)
}

guard let command = arguments.first, ["generate", "compile", "foundation", "queries", "all", "profile", "postgres", "chain"].contains(command) else {
    fail(
        "usage: pq-bench generate|compile|foundation|queries|all|profile|postgres|chain [--url URL] [--scale N] [--store PATH] [--repetitions N] [--in-memory-repetitions N] [--only NAME]"
    )
}
arguments.removeFirst()

struct Options {
    var scale = 1_000_000
    var storePath: String?
    var repetitions = 7
    var inMemoryRepetitions = 3
    var only: String?
    var url: String?
}

func number(_ text: String, for option: String) -> Int {
    guard let value = Int(text), value > 0 else { fail("\(option) needs a positive number, not '\(text)'") }
    return value
}

var options = Options()
while !arguments.isEmpty {
    let option = arguments.removeFirst()
    guard let value = arguments.first else { fail("\(option) needs a value") }
    arguments.removeFirst()
    switch option {
    case "--scale": options.scale = number(value, for: option)
    case "--store": options.storePath = value
    case "--repetitions": options.repetitions = number(value, for: option)
    case "--in-memory-repetitions": options.inMemoryRepetitions = number(value, for: option)
    case "--only": options.only = value
    case "--url": options.url = value
    default: fail("unknown option \(option)")
    }
}
let path = options.storePath ?? "\(FileManager.default.currentDirectoryPath)/.build-data/budgets-\(options.scale).sqlite"

func generateIfMissing(_ path: String, scale: Int) {
    guard !FileManager.default.fileExists(atPath: path) else { return }
    try? FileManager.default.createDirectory(
        atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    log("generating \(path) with \(scale) budgets")
    do {
        let start = ContinuousClock.now
        try DataGenerator.generate(at: path + ".partial", scale: scale, log: log)
        try FileManager.default.moveItem(atPath: path + ".partial", toPath: path)
        log("generated in \(ContinuousClock.now - start)")
    } catch {
        try? FileManager.default.removeItem(atPath: path + ".partial")
        fail("\(error)")
    }
}

do {
    switch command {
    case "generate":
        if FileManager.default.fileExists(atPath: path) { fail("\(path) exists; remove it first") }
        generateIfMissing(path, scale: options.scale)
    case "foundation":
        print(try FoundationPredicateBenchmark.report(count: min(options.scale, 1_000_000), repetitions: options.repetitions))
    case "compile":
        print(Report.compileTable(CompileBenchmark.run(batches: options.repetitions, only: options.only, log: log)))
    case "queries", "all":
        generateIfMissing(path, scale: options.scale)
        if command == "all" {
            print("## Compile\n\n" + Report.compileTable(CompileBenchmark.run(log: log)) + "\n")
        }
        let report = try QueryBenchmark.run(
            storeAt: path, repetitions: options.repetitions, inMemoryRepetitions: options.inMemoryRepetitions,
            only: options.only, log: log)
        print(
            "## Queries: \(report.budgets) budgets, \(report.transactions) transactions; medians of \(report.repetitions) runs\n")
        print(Report.queryTable(report) + "\n")
        print("In memory: loading every object took \(Report.format(report.inMemoryLoad)), counted in every query.\n")
        print(Report.queryDefinitions(report))
    case "chain":
        generateIfMissing(path, scale: options.scale)
        let results = try EqualityChainBenchmark.run(
            storeAt: path, sizes: [100, 1_000, 9_000], repetitions: options.repetitions, log: log)
        print(EqualityChainBenchmark.report(results))
    case "postgres":
        guard let url = options.url ?? ProcessInfo.processInfo.environment["PQ_DATABASE_URL"] else {
            fail("postgres needs --url postgresql://… (or PQ_DATABASE_URL)")
        }
        print(try PostgresBenchmark.run(url: url, scale: options.scale, repetitions: options.repetitions, log: log))
    case "profile":
        guard let only = options.only else { fail("profile needs --only NAME") }
        let time = try QueryBenchmark.profile(storeAt: path, only: only, repetitions: options.repetitions)
        print("pq, \(options.repetitions) runs of each query matching '\(only)': median \(Report.format(time))")
    default:
        break
    }
} catch {
    fail("\(error)")
}
