// Ctrl-C stops the running query, and only the query; SIGTERM and SIGHUP stop it
// and then pq.
//
// The signals are caught by a plain C handler, installed at once, that writes the
// signal's number to a pipe (all a handler may safely do); a thread of pq's own
// reads the pipe and acts: it interrupts the store's statement (SQLite's
// interrupt, PostgreSQL's cancel request), or, with no query running, does what
// the caller asked (the REPL nothing, a one-shot run exits with 130).
//
// pq used to ignore SIGINT and take it through a dispatch signal source, which
// libdispatch sets up on another thread a moment later. The line editor saves the
// SIGINT handler when it starts reading a line and puts it back when it returns:
// when it saved it before libdispatch had replaced "ignore", it put "ignore" back,
// and Ctrl-C did nothing for the rest of the session (5 of 20 SQLite sessions,
// in one count). A handler installed before the first line is read, and put back
// after each line (`reassert()`), cannot be lost that way.

import Foundation
import PredicateQuerySQLite

enum Interruption {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var running: (any QueryStore)?
    nonisolated(unsafe) private static var idleAction: (@Sendable () -> Void)?
    nonisolated(unsafe) private static var installed = false
    /// SIGTERM or SIGHUP, once one has come: pq is ending.
    nonisolated(unsafe) private static var terminating: Int32?

    /// The store whose query a signal should stop, while one runs.
    static var current: (any QueryStore)? {
        get { lock.withLock { running } }
        set { lock.withLock { running = newValue } }
    }

    /// The signals pq takes over: Ctrl-C, and the two that end it.
    static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// Takes over SIGINT, SIGTERM and SIGHUP: while a query runs, each interrupts it
    /// (SIGTERM and SIGHUP then end pq with 128 + the signal's number); SIGINT with no
    /// query running runs `idle`.
    static func install(idle: @escaping @Sendable () -> Void) {
        lock.withLock { idleAction = idle }
        guard !lock.withLock({ installed }) else {
            reassert()
            return
        }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return }
        signalPipe = ends[1]
        lock.withLock { installed = true }
        let readEnd = ends[0]
        let reader = Thread {
            var byte: UInt8 = 0
            while true {
                let count = read(readEnd, &byte, 1)
                if count < 0, errno == EINTR { continue }
                guard count == 1 else { return }
                handle(Int32(byte))
            }
        }
        reader.name = "pq signals"
        reader.start()
        reassert()
    }

    /// Puts pq's handler back for each signal it takes over: the line editor sets its
    /// own while it reads a line and restores what it found, which is pq's.
    static func reassert() {
        guard lock.withLock({ installed }) else { return }
        // A process started by one whose thread blocked these signals (a test runner's
        // worker thread, say) inherits the block: unblocked here, on the thread that
        // reads lines and runs queries, the kernel has a thread to deliver them to.
        var set = sigset_t()
        sigemptyset(&set)
        for number in signals {
            sigaddset(&set, number)
            signal(number, signalHandler)
        }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// What a signal does, on pq's signal thread.
    private static func handle(_ number: Int32) {
        if number != SIGINT { lock.withLock { terminating = number } }
        let store = current
        store?.interrupt()
        if number == SIGINT {
            if store == nil { lock.withLock { idleAction }?() }
            return
        }
        // SIGTERM, SIGHUP: the query's cancel has been sent (for PostgreSQL, PQcancel
        // returns once the server has the request). The query's own thread ends pq when
        // its statement stops (`exitIfTerminating`), so that it does not first report
        // the interrupted query and exit 1; if it has not within two seconds, or no
        // query runs, pq ends here, as the signal would have ended it.
        if store != nil { Thread.sleep(forTimeInterval: 2) }
        _exit(128 + number)
    }

    /// Ends pq, with 128 + the signal's number, if SIGTERM or SIGHUP came: called when
    /// a query stops, before its outcome is reported.
    static func exitIfTerminating() {
        if let number = lock.withLock({ terminating }) { _exit(128 + number) }
    }
}

/// The write end of the pipe the signal handler writes to; -1 until installed.
nonisolated(unsafe) private var signalPipe: Int32 = -1

/// The C signal handler: writes the signal's number to the pipe, the one thing it
/// may safely do (write(2) is async-signal-safe), and keeps `errno` as it was.
private let signalHandler: @convention(c) (Int32) -> Void = { number in
    let saved = errno
    var byte = UInt8(truncatingIfNeeded: number)
    _ = write(signalPipe, &byte, 1)
    errno = saved
}
