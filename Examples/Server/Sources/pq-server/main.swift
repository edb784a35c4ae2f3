// pq-server [--port N] [--store PATH]
//
// Serves pq queries over HTTP on 127.0.0.1: from the store at PATH (read-only),
// or from pq's example data in memory.

import Foundation
import Hummingbird
import PQServer
import QueryService

var port = 8080
var storePath: String?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--port":
        guard let value = arguments.popFirst().flatMap({ Int($0) }), (0...65535).contains(value) else {
            FileHandle.standardError.write(Data("pq-server: --port needs a port number\n".utf8))
            exit(2)
        }
        port = value
    case "--store":
        guard let value = arguments.popFirst() else {
            FileHandle.standardError.write(Data("pq-server: --store needs a path\n".utf8))
            exit(2)
        }
        storePath = value
    default:
        FileHandle.standardError.write(Data("usage: pq-server [--port N] [--store PATH]\n".utf8))
        exit(2)
    }
}

let service: QueryService
do {
    service = try storePath.map { try QueryService(storeAt: $0) } ?? QueryService(exampleData: 300)
} catch {
    FileHandle.standardError.write(Data("pq-server: \(error)\n".utf8))
    exit(1)
}
// A connection idle for 30 s (no request, or a request that stops sending) is closed.
let app = Application(
    router: queryRouter(service),
    server: .http1(configuration: .init(idleTimeout: .seconds(30))),
    configuration: .init(address: .hostname("127.0.0.1", port: port), serverName: "pq-server"))
try await app.runService()
