// Ctrl-C stops the running query, and only the query: SIGINT is handled on a
// dispatch queue (not in signal context), which asks SQLite to interrupt the
// store's statement. The REPL then reports "the query was interrupted" and reads
// the next line.

import Dispatch
import Foundation
import PredicateQuerySQLite

enum Interruption {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var running: (any QueryStore)?
    nonisolated(unsafe) private static var source: DispatchSourceSignal?

    /// The store whose query Ctrl-C should stop, while one runs.
    static var current: (any QueryStore)? {
        get {
            lock.lock()
            defer { lock.unlock() }
            return running
        }
        set {
            lock.lock()
            running = newValue
            lock.unlock()
        }
    }

    /// Takes over SIGINT: while a query runs it is interrupted; otherwise `idle` runs.
    static func install(idle: @escaping @Sendable () -> Void) {
        signal(SIGINT, SIG_IGN)
        let signalSource = DispatchSource.makeSignalSource(signal: SIGINT, queue: DispatchQueue.global())
        signalSource.setEventHandler {
            if let store = current {
                store.interrupt()
            } else {
                idle()
            }
        }
        signalSource.resume()
        source = signalSource
    }
}
