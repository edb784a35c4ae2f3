// Where pq keeps its history and cache: the environment's word first, then the
// XDG directories, then $HOME (never the password database's home when $HOME says
// otherwise).

import Foundation
import Testing

import PredicateQueryLintCommand

struct StatePathsTests {
    @Test func historyFollowsTheEnvironment() {
        #expect(StatePaths.history(["PQ_HISTORY": "/tmp/h", "XDG_STATE_HOME": "/s", "HOME": "/home/a"]) == "/tmp/h")
        #expect(StatePaths.history(["PQ_HISTORY": "", "HOME": "/home/a"]) == nil)
        #expect(StatePaths.history(["XDG_STATE_HOME": "/s", "HOME": "/home/a"]) == "/s/pq/history")
        // A relative XDG directory is ignored, as the XDG specification says.
        #if os(macOS)
            #expect(StatePaths.history(["XDG_STATE_HOME": "s", "HOME": "/home/a"]) == "/home/a/Library/Application Support/pq/history")
        #else
            #expect(StatePaths.history(["XDG_STATE_HOME": "s", "HOME": "/home/a"]) == "/home/a/.local/state/pq/history")
            #expect(StatePaths.history(["HOME": "/home/b"]) == "/home/b/.local/state/pq/history")
        #endif
    }

    @Test func cacheFollowsTheEnvironment() {
        #expect(StatePaths.cache(["PQ_CACHE_DIR": "/c", "HOME": "/home/a"]).path == "/c")
        #expect(StatePaths.cache(["XDG_CACHE_HOME": "/x", "HOME": "/home/a"]).path == "/x/pq")
        #if !os(macOS)
            #expect(StatePaths.cache(["PQ_CACHE_DIR": "", "XDG_CACHE_HOME": "", "HOME": "/home/a"]).path == "/home/a/.cache/pq")
        #endif
    }

    @Test func theBinaryKeepsItsStoreUnderHOME() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("pq-home-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let result = try PQProcess.run(
            ["--store-path"], environment: ["PQ_CACHE_DIR": "", "XDG_CACHE_HOME": "", "HOME": home.path])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.hasPrefix(home.path + "/"), "\(result.output)")
    }
}
