// pq-load: drives a pq-server over loopback at several numbers of connections and
// reports requests per second, latency percentiles and errors, and, given the
// server's process id, how many cores the server used.
//
//   pq-load [--port 8080] [--connections 1,8,64,256] [--seconds 5] [--requests 100000]
//           [--body JSON | --body-file PATH] [--server-pid PID]
//
// Bounded in time (--seconds per level) and in count (--requests per level), and
// loopback only (127.0.0.1). Each request opens a connection of its own, as the
// server ends each connection after its answer (it watches for clients hanging up).
// Run by hand (README.md, "Load"); CI never runs it.
//
// Mixed mode: cheap queries beside slow ones, on one or more servers in turn:
//
//   pq-load --slow-clients 4 [--slow-body JSON] [--connections 1] [--seconds 20]
//           [--ports 8080,8081] [--server-pids PID,PID]
//
// runs --slow-clients clients sending the slow body without pause and the first
// --connections level of clients sending the cheap body (--body), and reports
// each class's latency percentiles and statuses, and the server's peak RSS.

import Foundation
import LoopbackSocket

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

struct Options {
    var port = 8080
    var levels = [1, 8, 64, 256]
    var seconds = 5.0
    var requests = 100_000
    var body = #"{"entity": "Budget", "filter": "limit > $min", "sort": "name", "parameters": {"min": 100}, "limit": 20}"#
    var serverPID: Int32?
    var slowClients = 0
    /// Each transaction against every other of its budget's: seconds on 20,000.
    var slowBody = #"{"entity": "Transaction", "filter": "SUBQUERY(budget.transactions, $t, $t.amount > amount).@count > 1000000"}"#
    var ports: [Int] = []
    var serverPIDs: [Int32] = []
}

func usage(_ message: String) -> Never {
    FileHandle.standardError.write(Data("pq-load: \(message)\n".utf8))
    exit(2)
}

var options = Options()
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    guard let value = arguments.popFirst() else { usage("\(argument) needs a value") }
    switch argument {
    case "--port": options.port = Int(value) ?? 0
    case "--connections": options.levels = value.split(separator: ",").compactMap { Int($0) }
    case "--seconds": options.seconds = Double(value) ?? 0
    case "--requests": options.requests = Int(value) ?? 0
    case "--body": options.body = value
    case "--body-file":
        guard let text = try? String(contentsOfFile: value, encoding: .utf8) else { usage("cannot read \(value)") }
        options.body = text
    case "--server-pid": options.serverPID = Int32(value)
    case "--slow-clients": options.slowClients = Int(value) ?? -1
    case "--slow-body": options.slowBody = value
    case "--ports": options.ports = value.split(separator: ",").compactMap { Int($0) }
    case "--server-pids": options.serverPIDs = value.split(separator: ",").compactMap { Int32($0) }
    default: usage("unknown option \(argument)")
    }
}
guard (1...65535).contains(options.port), !options.levels.isEmpty, options.levels.allSatisfy({ (1...1024).contains($0) }),
    options.seconds > 0, options.seconds <= 600, options.requests > 0, (0...256).contains(options.slowClients),
    options.ports.allSatisfy({ (1...65535).contains($0) })
else { usage("bad options (ports 1-65535, 1-1024 connections, 0-600 s)") }

enum Client {
    /// One request on a connection of its own: the status, or nil on a socket error.
    static func request(port: Int, _ payload: [UInt8]) -> Int? {
        guard let connection = RawClient(port: port), connection.send(payload) else { return nil }
        let response = connection.receiveBytes(timeout: .seconds(600)).bytes
        // "HTTP/1.1 200 OK"
        guard response.count >= 12, let status = Int(String(decoding: response[9..<12], as: UTF8.self)) else { return nil }
        return status
    }

    /// A process's resident memory in MiB, from /proc.
    static func residentMiB(of pid: Int32) -> Double? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Double($0) })
        else { return nil }
        return kilobytes / 1024
    }

    /// CPU seconds (user + system) a process has used, from /proc.
    static func cpuSeconds(of pid: Int32) -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}

final class Results: @unchecked Sendable {
    let lock = NSLock()
    var latencies: [Double] = []
    var statuses: [Int: Int] = [:]
    var failures = 0
    var issued = 0

    /// Sends `bytes` to the server at `port` and notes how long the answer took and its
    /// status, or a failure.
    func timeRequest(port: Int, _ bytes: [UInt8]) {
        let sent = Date()
        let status = Client.request(port: port, bytes)
        let elapsed = Date().timeIntervalSince(sent) * 1000
        lock.withLock {
            if let status {
                latencies.append(elapsed)
                statuses[status, default: 0] += 1
            } else {
                failures += 1
            }
        }
    }
}

func request(_ body: String) -> [UInt8] {
    Array(
        "POST /query HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
            .utf8)
}
let payload = request(options.body)

func percentile(_ sorted: [Double], _ p: Double) -> Double {
    sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
}

if options.slowClients > 0 {
    // Mixed mode: each server in turn, slow clients and cheap ones at once.
    let ports = options.ports.isEmpty ? [options.port] : options.ports
    let cheapClients = options.levels[0]
    print("port   class  clients  requests  p50 ms   p95 ms   p99 ms   statuses                 server peak RSS MiB")
    for (index, port) in ports.enumerated() {
        let pid = index < options.serverPIDs.count ? options.serverPIDs[index] : (index == 0 ? options.serverPID : nil)
        let cheap = Results()
        let slow = Results()
        let deadline = Date().addingTimeInterval(options.seconds)
        let group = DispatchGroup()
        let slowPayload = request(options.slowBody)
        let peak = Results()
        for (results, count, bytes) in [(slow, options.slowClients, slowPayload), (cheap, cheapClients, payload)] {
            for _ in 0..<count {
                group.enter()
                Thread.detachNewThread {
                    defer { group.leave() }
                    // The cheap clients start once the slow ones are under way.
                    if results === cheap { Thread.sleep(forTimeInterval: 0.5) }
                    while Date() < deadline { results.timeRequest(port: port, bytes) }
                }
            }
        }
        if let pid {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                while Date() < deadline {
                    if let rss = Client.residentMiB(of: pid) {
                        peak.lock.withLock { peak.latencies.append(rss) }
                    }
                    Thread.sleep(forTimeInterval: 0.1)
                }
            }
        }
        group.wait()
        let rss = peak.latencies.max().map { String(format: "%.1f", $0) } ?? "-"
        for (name, results, count) in [("cheap", cheap, cheapClients), ("slow", slow, options.slowClients)] {
            let sorted = results.latencies.sorted()
            let statuses = results.statuses.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }.joined(separator: " ")
            print(
                String(
                    format: "%-5d  %-5@  %7d  %8d  %7.1f  %7.1f  %7.1f   %-24@ %@", port, name as NSString, count,
                    sorted.count + results.failures, percentile(sorted, 0.5), percentile(sorted, 0.95),
                    percentile(sorted, 0.99), (statuses + (results.failures > 0 ? " failed:\(results.failures)" : "")) as NSString,
                    rss as NSString))
        }
    }
    exit(0)
}
print("connections  requests  req/s    p50 ms   p99 ms   errors  statuses             server cores")
for level in options.levels {
    let results = Results()
    let start = Date()
    let cpuBefore = options.serverPID.flatMap(Client.cpuSeconds)
    let deadline = start.addingTimeInterval(options.seconds)
    let (port, limit) = (options.port, options.requests)
    let group = DispatchGroup()
    for _ in 0..<level {
        group.enter()
        Thread.detachNewThread {
            defer { group.leave() }
            while Date() < deadline {
                let go: Bool = results.lock.withLock {
                    guard results.issued < limit else { return false }
                    results.issued += 1
                    return true
                }
                guard go else { return }
                results.timeRequest(port: port, payload)
            }
        }
    }
    group.wait()
    let wall = Date().timeIntervalSince(start)
    let cpuAfter = options.serverPID.flatMap(Client.cpuSeconds)
    let sorted = results.latencies.sorted()
    func percentile(_ p: Double) -> Double { sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] }
    let errors = results.failures + results.statuses.filter { $0.key >= 400 }.values.reduce(0, +)
    let statuses = results.statuses.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }.joined(separator: " ")
    let cores =
        zip([cpuBefore], [cpuAfter]).compactMap { before, after -> String? in
            guard let before, let after else { return nil }
            return String(format: "%.2f", (after - before) / wall)
        }.first ?? "-"
    print(
        String(
            format: "%11d  %8d  %7.1f  %7.1f  %7.1f  %6d  %-20@ %@", level, sorted.count + results.failures,
            Double(sorted.count) / wall, percentile(0.5), percentile(0.99), errors, statuses as NSString, cores as NSString))
}
