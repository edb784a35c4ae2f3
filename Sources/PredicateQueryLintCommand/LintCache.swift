// `pq lint` remembers its result: a run whose inputs are all as in an earlier run
// (every Swift file's path and bytes, the configuration file, the baseline, the
// options, the current folder, and pq itself: its version and its executable's
// size and modification time) prints that run's output and exits
// with its status, without reading a model or a query. Any change — one byte of one
// file, a model or a query — is a new key, so everything is checked again: a model
// change re-checks the files that did not change. The key is two 64-bit hashes of
// all of it (FNV-1a and a second, independent mix), so an accidental match of a
// different tree is out of reach in practice.
//
// Results live in the cache folder (`StatePaths.cache`, `lint/`), the 32 most
// recent kept. A cache that cannot be read or written is skipped silently: the
// lint then simply runs.

import Foundation
import PredicateQuery

enum LintCache {
    /// The most results kept.
    static let capacity = 32

    /// The folder results are kept in.
    static var folder: URL { StatePaths.cache().appendingPathComponent("lint") }

    /// The key for a run over `files` with `options` and the given configuration and
    /// baseline texts.
    static func key(
        files: [(path: String, bytes: [UInt8])], options: LintOptions, configuration: String?, baseline: String?
    ) -> String {
        var digest = Digest()
        digest.add(PQVersion.text)
        digest.add(executableIdentity)
        digest.add(FileManager.default.currentDirectoryPath)
        for argument in options.arguments { digest.add(argument) }
        digest.add(configuration ?? "<no configuration>")
        digest.add(baseline ?? "<no baseline>")
        for file in files {
            digest.add(file.path)
            digest.add(file.bytes)
        }
        return digest.hex
    }

    /// The running `pq` executable's path, size and modification time: a rebuilt pq
    /// (new rules, a fixed reader) never reads a result an older build cached.
    static let executableIdentity: String = {
        guard let path = Bundle.main.executableURL?.resolvingSymlinksInPath().path,
            let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        else { return "unknown executable \(UUID().uuidString)" }  // unknown: never matches
        let size = (attributes[.size] as? NSNumber)?.int64Value ?? -1
        let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? -1
        return "\(path) \(size) \(modified)"
    }()

    /// The output and status cached under `key`, if any.
    static func result(for key: String) -> (output: String, status: Int32)? {
        let url = folder.appendingPathComponent(key + ".json")
        guard let data = try? Data(contentsOf: url),
            let stored = try? JSONDecoder().decode(Stored.self, from: data)
        else { return nil }
        // Touched, so the most recently used are the ones kept.
        try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: url.path)
        return (stored.output, stored.status)
    }

    /// Keeps `output` and `status` under `key`, and drops the oldest results past `capacity`.
    static func store(_ output: String, status: Int32, for key: String) {
        let manager = FileManager.default
        guard (try? manager.createDirectory(at: folder, withIntermediateDirectories: true)) != nil,
            let data = try? JSONEncoder().encode(Stored(output: output, status: status))
        else { return }
        try? data.write(to: folder.appendingPathComponent(key + ".json"), options: .atomic)
        let entries = (try? manager.contentsOfDirectory(at: folder, includingPropertiesForKeys: [.contentModificationDateKey])) ?? []
        guard entries.count > capacity else { return }
        let dated = entries.map { url in
            (url, (try? url.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate) ?? .distantPast)
        }
        for (url, _) in dated.sorted(by: { $0.1 > $1.1 }).dropFirst(capacity) { try? manager.removeItem(at: url) }
    }

    private struct Stored: Codable {
        var output: String
        var status: Int32
    }

    /// Two independent 64-bit hashes over length-prefixed pieces.
    struct Digest {
        private var fnv: UInt64 = 0xcbf2_9ce4_8422_2325
        private var mix: UInt64 = 0x9e37_79b9_7f4a_7c15

        mutating func add(_ text: String) { add(Array(text.utf8)) }

        mutating func add(_ bytes: [UInt8]) {
            var length = UInt64(bytes.count)
            for _ in 0..<8 {
                step(UInt8(truncatingIfNeeded: length))
                length >>= 8
            }
            for byte in bytes { step(byte) }
        }

        private mutating func step(_ byte: UInt8) {
            fnv = (fnv ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            mix = (mix &+ UInt64(byte) &+ 1) &* 0xff51_afd7_ed55_8ccd
            mix ^= mix >> 29
        }

        var hex: String {
            func padded(_ value: UInt64) -> String {
                let text = String(value, radix: 16)
                return String(repeating: "0", count: 16 - text.count) + text
            }
            return padded(fnv) + padded(mix)
        }
    }
}
