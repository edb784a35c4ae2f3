// Counts the public declarations of pq's library modules and those without a doc
// comment, from the symbol graphs `swift package dump-symbol-graph` writes, and
// fails if any public declaration has none (issue 25: every public symbol is
// documented). Run by .ci/docs:
//
//   swift .ci/doc-coverage.swift <symbol-graph-dir> Module… [--report]
//
// A declaration counts once, in the module that declares it (extensions of another
// module's types included). Not counted: members the compiler synthesizes or that a
// type inherits from a protocol's default implementation (their documentation is
// the protocol's), and members that implement a requirement of a protocol from
// another module (`description`, `==`, `init(from:)`, `hash(into:)`): the symbol
// graph gives them the requirement's documentation, which DocC shows.
// `--report` lists every undocumented declaration with its file and line.

import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
guard let directory = arguments.first else {
    FileHandle.standardError.write(Data("usage: doc-coverage.swift <symbol-graph-dir> Module… [--report]\n".utf8))
    exit(2)
}
let report = arguments.contains("--report")
let modules = arguments.dropFirst().filter { !$0.hasPrefix("--") }

struct Count {
    var types = 0, declarations = 0, documented = 0
    var undocumented: [String] = []
}

let typeKinds: Set<String> = [
    "swift.struct", "swift.class", "swift.enum", "swift.protocol", "swift.typealias", "swift.actor",
]

func graphs(of module: String) -> [URL] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    return names.filter { $0 == "\(module).symbols.json" || $0.hasPrefix("\(module)@") && $0.hasSuffix(".symbols.json") }
        .sorted().map { URL(fileURLWithPath: directory).appendingPathComponent($0) }
}

var failed = false
var total = Count()
print("module                      types  declarations  documented")
for module in modules {
    var count = Count()
    var seen: Set<String> = []
    let files = graphs(of: module)
    if files.isEmpty {
        print("\(module): no symbol graph in \(directory)")
        failed = true
        continue
    }
    for file in files {
        guard let data = try? Data(contentsOf: file),
            let graph = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let symbols = graph["symbols"] as? [[String: Any]]
        else {
            print("\(file.lastPathComponent): not a symbol graph")
            failed = true
            continue
        }
        for symbol in symbols {
            guard let access = symbol["accessLevel"] as? String, access == "public" || access == "open",
                let identifier = (symbol["identifier"] as? [String: Any])?["precise"] as? String,
                !identifier.contains("::SYNTHESIZED::"), seen.insert(identifier).inserted
            else { continue }
            let kind = (symbol["kind"] as? [String: Any])?["identifier"] as? String ?? ""
            if kind == "swift.module" { continue }
            let doc = symbol["docComment"] as? [String: Any]
            let lines = (doc?["lines"] as? [[String: Any]])?.compactMap { $0["text"] as? String } ?? []
            let hasText = lines.contains { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
            // Documentation the graph copies from a requirement in another module.
            if hasText, let from = doc?["module"] as? String, from != module { continue }
            count.declarations += 1
            if typeKinds.contains(kind) { count.types += 1 }
            if hasText {
                count.documented += 1
            } else {
                let path = (symbol["pathComponents"] as? [String])?.joined(separator: ".") ?? identifier
                let location = symbol["location"] as? [String: Any]
                let uri = (location?["uri"] as? String).map { $0.replacingOccurrences(of: "file://", with: "") } ?? "?"
                let line = ((location?["position"] as? [String: Any])?["line"] as? Int).map { $0 + 1 } ?? 0
                count.undocumented.append("\(uri):\(line): \(path) (\(kind.replacingOccurrences(of: "swift.", with: "")))")
            }
        }
    }
    let percent = count.declarations == 0 ? 100 : Double(count.documented) * 100 / Double(count.declarations)
    print(
        module.padding(toLength: 26, withPad: " ", startingAt: 0)
            + String(format: "%7d  %12d  %6d (%.0f %%)", count.types, count.declarations, count.documented, percent))
    if !count.undocumented.isEmpty {
        failed = true
        if report { for line in count.undocumented.sorted() { print("  undocumented: \(line)") } }
    }
    total.types += count.types
    total.declarations += count.declarations
    total.documented += count.documented
}
print(
    "all".padding(toLength: 26, withPad: " ", startingAt: 0)
        + String(format: "%7d  %12d  %6d", total.types, total.declarations, total.documented))
if failed {
    print("doc coverage: FAILED: every public declaration needs a doc comment\(report ? "" : " (--report lists them)")")
    exit(1)
}
