// pq-server [--port N] [--store PATH|URL [--load-examples]] [--filler N] [--connections N] [--lanes on|off]
//
// Serves pq queries over HTTP on 127.0.0.1: from the SQLite store at PATH
// (read-only), from the PostgreSQL database a `postgresql://` URL names (or
// PQ_DATABASE_URL, a URL or a libpq conninfo string, without --store), or from
// pq's example data (with N filler
// objects per entity, 300 by default) in a temporary SQLite store; through a pool
// of N read-only connections (one per core). With a URL, --load-examples first
// creates pq's example tables in that database and loads the example data (with
// --filler N filler objects per entity) into them.
//
// With lanes on (the default), slow queries get N connections of their own (a slow
// lane), so cheap queries never wait behind them (QueryService's `fetch`); off,
// one pool for all, as before (for comparing the two under load).

import Foundation
import Hummingbird
import PQServer
import PredicateQueryExamples
import PredicateQueryPostgres
import QueryService

var port = 8080
var storePath: String?
/// PostgreSQL's, when no --store is given: a URL or a libpq conninfo string.
let environmentURL = ProcessInfo.processInfo.environment["PQ_DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
var filler = 300
var connections = max(2, ProcessInfo.processInfo.activeProcessorCount)
var loadExamples = false
var lanes = true
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
            FileHandle.standardError.write(Data("pq-server: --store needs a path or a postgresql:// URL\n".utf8))
            exit(2)
        }
        storePath = value
    case "--load-examples":
        loadExamples = true
    case "--lanes":
        guard let value = arguments.popFirst(), value == "on" || value == "off" else {
            FileHandle.standardError.write(Data("pq-server: --lanes needs on or off\n".utf8))
            exit(2)
        }
        lanes = value == "on"
    case "--filler", "--connections":
        guard let value = arguments.popFirst().flatMap({ Int($0) }), value >= (argument == "--filler" ? 0 : 1),
            value <= 10_000_000
        else {
            FileHandle.standardError.write(Data("pq-server: \(argument) needs a number\n".utf8))
            exit(2)
        }
        if argument == "--filler" { filler = value } else { connections = value }
    default:
        FileHandle.standardError.write(
            Data("usage: pq-server [--port N] [--store PATH|URL [--load-examples]] [--filler N] [--connections N] [--lanes on|off]\n".utf8))
        exit(2)
    }
}

let slowLane = lanes ? connections : 0
let service: QueryService
do {
    if loadExamples {
        // A --store that is a URL, or else PQ_DATABASE_URL.
        guard let url = storePath ?? environmentURL, storePath.map(PostgresStore.isDatabaseURL) ?? true else {
            FileHandle.standardError.write(Data("pq-server: --load-examples needs a postgresql:// URL as --store\n".utf8))
            exit(2)
        }
        let store = try PostgresStore.create(url, schema: ExampleSchemas.combined)
        try store.insert(ExampleData.graph(fillerPerEntity: filler))
    }
    service =
        try storePath.map { try QueryService(storeAt: $0, connections: connections, slowLane: slowLane) }
        ?? environmentURL.map {
            QueryService(
                pool: try PostgresStorePool($0, size: connections),
                slowLane: slowLane > 0 ? try PostgresStorePool($0, size: slowLane) : nil)
        }
        ?? QueryService(exampleData: filler, connections: connections, slowLane: slowLane)
} catch {
    FileHandle.standardError.write(Data("pq-server: \(error)\n".utf8))
    exit(1)
}
MemoryTrimmer.start()
try await queryApplication(service, port: port).runService()
service.removeTemporaryFiles()
