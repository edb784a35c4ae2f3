// A value behind a lock, for the few pieces of shared state (the query cache).
//
// `Synchronization.Mutex` would do, but it needs macOS 15 and iOS 18, and pq
// builds for macOS 14 and iOS 17 (SwiftData's first releases); `NSLock` is on
// every platform pq builds for.

import Foundation

/// A value that threads share, read and changed only while holding its lock.
final class Locked<State>: @unchecked Sendable {
    private let lock = NSLock()
    private var state: State

    init(_ state: State) {
        self.state = state
    }

    /// Runs `body` with the value, holding the lock.
    func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}
