// Ctrl-C in the REPL, on a real terminal, every time (issue 23, item 2): pq used to
// lose SIGINT for whole sessions (in 5 of 20, 11 of 18 and 3 of 4 sessions tried):
// it ignored the signal, and the kernel may hand a process-wide signal to any
// thread that does not block it, so when a thread of the query's own pool took
// it, the ignored signal was dropped and the query ran to its end. 50 Ctrl-Cs in
// one session, each during a runaway query: every one stops its query and the
// session goes on.

import Foundation
import Testing

@Suite(.serialized)
struct REPLInterruptTests {
    @Test func fiftyCtrlCsInOneSessionAreEveryOneHonoured() async throws {
        guard TerminalSession.isAvailable else {
            print("notice: no /usr/bin/script to give pq a terminal; skipping the REPL Ctrl-C test")
            return
        }
        let session = try TerminalSession(pq: ["--store", ResourceLimitTests.slowStore, "--count"])
        defer { session.kill() }
        #expect(await session.waitFor("pq> "), "no prompt: \(session.text)")
        var honoured = 0
        for round in 1...50 {
            session.type(ResourceLimitTests.runaway + "\r")
            // The query runs about ten seconds; Ctrl-C once it has started.
            await TerminalSession.pause(.milliseconds(150))
            session.type("\u{03}")
            if await session.waitFor("the query was interrupted", count: round, timeout: .seconds(5)) {
                honoured += 1
            } else {
                break
            }
            #expect(await session.waitFor("pq> ", count: round + 1), "no prompt after round \(round)")
        }
        #expect(honoured == 50, "\(honoured) of 50 Ctrl-Cs honoured:\n\(session.text.suffix(2000))")
        session.type("name == 'no such movie'\r")
        #expect(await session.waitFor("pq> ", count: 52), "the session did not go on: \(session.text.suffix(500))")
        let last = session.text.components(separatedBy: "no such movie'").last ?? ""
        #expect(last.hasPrefix("\r\n0\r\n"), "\(last.debugDescription)")
        session.type(".quit\r")
        #expect(await session.finish() == 0)
    }
}
