// Hand-written SQL on a throwaway server through `psql`, for tests that check
// pq's answers against SQL written without pq.

import Foundation

extension PostgresTestServer {
    /// The rows a statement returns, one line each with its fields joined by `|`;
    /// nil if psql fails (it prints why).
    public func rows(_ sql: String, database: String, searchPath: String? = nil) -> [String]? {
        var arguments = ["-h", folder, "-U", "pq", "-d", database, "-X", "-A", "-t", "-F", "|", "-v", "ON_ERROR_STOP=1"]
        if let searchPath { arguments += ["-c", "SET search_path TO \(searchPath)"] }
        guard run("psql", arguments + ["-c", sql]) else { return nil }
        let text = (try? String(contentsOfFile: folder + "/psql.out", encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init).filter { $0 != "SET" }
    }
}
