// Compiled queries kept by their text.
//
// An app or a server runs the same few queries over and over with new parameter
// values. Compiling one costs 10 to 25 µs (Benchmarks/README.md), as much as
// SQLite takes to answer a query that an index makes cheap, so a query whose text
// was compiled before is looked up instead. The result depends only on the text
// and the options (the schema and the mapping are the cache's own), so failures
// are kept too: a bad query sent again gets the same diagnostics at once.
//
// Bounded by count and by size: a text over `largestKeptText` is compiled each
// time and never kept, and the texts kept total at most `keptTextBudget` bytes
// (1 MiB unless given). Without that, a server sent distinct megabyte filters
// (each refused with its diagnostics) kept every one: 256 of them would have held
// a quarter of a gigabyte. The result of a query (its tree, SQL and diagnostics)
// grows with its text, so bounding the texts bounds the entries.

import Foundation

/// A bounded cache of compile results for one schema and store mapping, safe to
/// share between threads. When it is full (by count, or by the bytes of the texts
/// kept), the least recently used half is dropped; a text longer than
/// ``largestKeptText`` is compiled but not kept.
public final class QueryCache: Sendable {
    /// The schema queries are checked against.
    public let schema: Schema
    /// The layout queries are lowered for.
    public let mapping: StoreMapping
    /// The most results kept.
    public let capacity: Int

    /// The longest text (in UTF-8 bytes) whose result is kept: 64 KiB. Queries that
    /// long are rare and cost their compile time in proportion anyway.
    public static let largestKeptText = 1 << 16
    /// The most bytes of text (UTF-8) the kept results hold together: 1 MiB unless
    /// given.
    public let keptTextBudget: Int

    private struct Key: Hashable {
        /// Scalar by scalar: `name == 'é'` and `name == 'e\u{301}'` are two queries.
        var text: ExactText
        var defaultEntity: String?
        var count: Bool
        var summaries: Bool
        var limits: Limits
    }

    private struct Entry {
        var result: CompileResult
        var lastUse: UInt64
        /// The text's UTF-8 bytes.
        var textBytes: Int
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        /// The UTF-8 bytes of every kept text.
        var textBytes = 0
        var clock: UInt64 = 0
        var hits = 0
        var misses = 0
    }

    private let state = Locked(State())

    /// A cache of queries compiled for `schema` in the layout `mapping`, keeping the
    /// `capacity` most recently used, whose texts total at most `keptTextBudget` bytes.
    public init(schema: Schema, mapping: StoreMapping, capacity: Int = 256, keptTextBudget: Int = 1 << 20) {
        self.schema = schema
        self.mapping = mapping
        self.capacity = max(1, capacity)
        self.keptTextBudget = max(0, keptTextBudget)
    }

    /// What `QueryCompiler.compile` returns for the same arguments, compiled once per text.
    public func compile(
        _ text: String, defaultEntity: String? = nil, count: Bool = false, summaries: Bool = false,
        limits: Limits = .standard
    ) -> CompileResult {
        // A deadline is the caller's, not the text's: results are kept without it,
        // and a result cut short by it is not kept.
        var shape = limits
        shape.deadline = nil
        let key = Key(text: ExactText(text), defaultEntity: defaultEntity, count: count, summaries: summaries, limits: shape)
        let cached = state.withLock { state -> CompileResult? in
            state.clock += 1
            guard let result = state.entries[key]?.result else { return nil }
            state.entries[key]?.lastUse = state.clock
            state.hits += 1
            return result
        }
        if let cached { return cached }
        // Compiled outside the lock, so other threads are not held up; two threads
        // compiling the same new text both store the same result.
        let result = QueryCompiler.compile(
            text, schema: schema, mapping: mapping, defaultEntity: defaultEntity, count: count, summaries: summaries,
            limits: limits)
        if result.diagnostics.contains(where: { $0.code == .deadlinePassed }) { return result }
        let textBytes = text.utf8.count
        state.withLock { state in
            state.misses += 1
            guard textBytes <= min(Self.largestKeptText, keptTextBudget) else { return }
            if let replaced = state.entries.removeValue(forKey: key) { state.textBytes -= replaced.textBytes }
            while !state.entries.isEmpty,
                state.entries.count >= capacity || state.textBytes + textBytes > keptTextBudget
            {
                Self.dropLeastRecentlyUsedHalf(&state)
            }
            state.clock += 1
            state.entries[key] = Entry(result: result, lastUse: state.clock, textBytes: textBytes)
            state.textBytes += textBytes
        }
        return result
    }

    /// How many results are kept, and how many lookups found one or compiled.
    public var statistics: (entries: Int, hits: Int, misses: Int) {
        state.withLock { ($0.entries.count, $0.hits, $0.misses) }
    }

    /// The UTF-8 bytes of the texts whose results are kept.
    public var keptTextBytes: Int {
        state.withLock { $0.textBytes }
    }

    private static func dropLeastRecentlyUsedHalf(_ state: inout State) {
        let uses = state.entries.values.map(\.lastUse).sorted()
        let cutoff = uses[(uses.count - 1) / 2]
        state.entries = state.entries.filter { $0.value.lastUse > cutoff }
        state.textBytes = state.entries.values.reduce(0) { $0 + $1.textBytes }
    }
}
