// Where pq keeps files of its own: the REPL's history (state) and the example
// store and `pq lint`'s results (cache), by the platform's conventions and the
// environment's word. Here, beside the lint command, so that `pq` and `pq-lint`
// share it.
//
// History: $PQ_HISTORY (empty: none kept); else $XDG_STATE_HOME/pq/history; else
// $HOME/.local/state/pq/history (Linux) or $HOME/Library/Application Support/pq/history
// (macOS). Cache: $PQ_CACHE_DIR; else $XDG_CACHE_HOME/pq; else $HOME/.cache/pq
// (Linux) or $HOME/Library/Caches/pq (macOS). $HOME wins over the password
// database's home, as shells and other tools have it.

import Foundation

/// Where pq keeps its history and its caches.
package enum StatePaths {
    /// The REPL's history file, or nil when none is to be kept.
    package static func history(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let explicit = environment["PQ_HISTORY"] { return explicit.isEmpty ? nil : explicit }
        if let state = absolute(environment["XDG_STATE_HOME"]) { return state + "/pq/history" }
        #if os(macOS)
            return home(environment) + "/Library/Application Support/pq/history"
        #else
            return home(environment) + "/.local/state/pq/history"
        #endif
    }

    /// The folder of cached files (the example store).
    package static func cache(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let explicit = environment["PQ_CACHE_DIR"], !explicit.isEmpty { return URL(fileURLWithPath: explicit) }
        if let xdg = absolute(environment["XDG_CACHE_HOME"]) { return URL(fileURLWithPath: xdg).appendingPathComponent("pq") }
        #if os(macOS)
            return URL(fileURLWithPath: home(environment)).appendingPathComponent("Library/Caches/pq")
        #else
            return URL(fileURLWithPath: home(environment)).appendingPathComponent(".cache/pq")
        #endif
    }

    /// $HOME, or the user's home from the system when it is unset or empty.
    package static func home(_ environment: [String: String]) -> String {
        if let home = environment["HOME"], !home.isEmpty { return home }
        return FileManager.default.homeDirectoryForCurrentUser.path
    }

    /// An XDG directory: used only when absolute, as the XDG specification says.
    private static func absolute(_ path: String?) -> String? {
        guard let path, path.hasPrefix("/") else { return nil }
        return path
    }
}
