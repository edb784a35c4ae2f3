// The reader under truncated, garbage and hostile input: it must never crash,
// never loop, warn about what it skipped, and finish in time linear in the input.

import PredicateQuery
import PredicateQueryTestSupport
import Testing

@testable import PredicateQueryModels

struct SwiftModelSourceRobustnessTests {
    private static let truncated = [
        "@Model class A { var x: ",
        "}}}}",
        "@Model",
        "@Model class",
        "@Model class A",
        "@Model class A {",
        "@Model class A: { var x: Int }",
        "@Model class A { var x: [[[[[[Int",
        "@Model class A { var x: Int = (((((",
        "@Model class A { var x: Int = )))) }",
        "@Model class A { @Attribute(.unique",
        "@Model class A { @Relationship(inverse: \\",
        "@Model class A { var x: Int { get",
        "@Model class A { var = 1; var : Int; let (a, b) = (1, 2) }",
        "enum E: Int { case a = ",
        "enum E: Int { case a(",
        "\"unterminated",
        "\"\"\"\nunterminated",
        "#\"raw",
        "\"\\(\"\\(\"\\(",
        "/* unterminated /* nested */",
        "#if",
        "#else\n#endif\n#endif",
        "#if A\n@Model class A { var x: Int }\n#elseif",
        "@Model class A { func f( }",
        "@Model class A { init { var x: Int = 1 }",
        "extension",
        "extension A.",
        "class A<T where",
        "@",
        "#",
        "`",
        "\\",
        "@Model class A { var x: Int? = nil ?? ? ! : }",
    ]

    @Test(arguments: truncated)
    func truncatedInputIsSkippedWithoutCrashing(_ text: String) {
        let (schema, warnings) = SwiftModelSourceTestSupport.load(text)
        // Whatever was read must be a schema the rest of pq can take.
        _ = schema.validate()
        for warning in warnings {
            #expect(warning.file == "Models.swift")
            #expect(warning.line >= 1)
        }
    }

    @Test func truncatedInputIsReported() {
        #expect(!SwiftModelSourceTestSupport.load("}}}}").warnings.isEmpty)
        #expect(
            SwiftModelSourceTestSupport.load("@Model class A { var x: ").warnings.map(\.message).contains {
                $0.contains("never closed")
            })
        #expect(!SwiftModelSourceTestSupport.load("\"unterminated").warnings.isEmpty)
        let (schema, _) = SwiftModelSourceTestSupport.load("@Model class A {\n var x: Int\n var y: ")
        #expect(schema.entity(named: "A")?.attributes.map(\.name) == ["x"], "what came before the damage is kept")
    }

    @Test func aMegabyteOfRandomBytesFinishesQuickly() {
        var generator = SplitMix64(seed: 0x5EED)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(1 << 20)
        for _ in 0..<(1 << 17) {
            withUnsafeBytes(of: generator.next()) { bytes += $0 }
        }
        let text = String(decoding: bytes, as: UTF8.self)
        let clock = ContinuousClock()
        var result: (schema: Schema, warnings: [SwiftModelSource.Warning])?
        let elapsed = clock.measure { result = SwiftModelSourceTestSupport.load(text, path: "random.swift") }
        #expect(elapsed < .seconds(20), "took \(elapsed)")
        #expect(result?.warnings.isEmpty == false)
        #expect((result?.warnings.count ?? 0) <= SwiftModelSource.warningsPerFile + 1)
    }

    @Test func aMegabyteOfSwiftLikeTokensFinishesQuickly() {
        let vocabulary = [
            "@Model", "class", "final", "struct", "enum", "extension", "{", "}", "(", ")", "[", "]", "var", "let", "case",
            ":", "=", ",", ".", "?", "Int", "String", "[Tag]", "A", "B", "x", "y", "\"s\"", "\"\\(x)\"", "#if", "#else",
            "#endif", "init", "func", "@Attribute(.unique)", "@Relationship(inverse: \\A.x)", "static", "1", "\n", "\n",
            "//", "/*", "*/", "\"\"\"", "#\"", "\"#", "<", ">", "->", "get", "didSet", "`x`",
        ]
        var generator = SplitMix64(seed: 42)
        var text = ""
        text.reserveCapacity(1 << 20)
        while text.utf8.count < 1 << 20 {
            text += vocabulary[Int(generator.next() % UInt64(vocabulary.count))]
            text += " "
        }
        let clock = ContinuousClock()
        let elapsed = clock.measure { _ = SwiftModelSourceTestSupport.load(text, path: "tokens.swift") }
        #expect(elapsed < .seconds(20), "took \(elapsed)")
    }

    @Test func manyDeclarationsStayFast() {
        let count = 10_000
        let inputs = [
            (0..<count).map { "@Model class M\($0) { var next: M\($0 + 1)?; var back: [M\(max(0, $0 - 1))] }" }.joined(
                separator: "\n"),
            "@Model class Hub { " + (0..<count).map { "var r\($0): Spoke?" }.joined(separator: "\n") + " }\n"
                + "@Model class Spoke { "
                + (0..<count).map { "@Relationship(inverse: \\Hub.r\($0)) var h\($0): Hub?" }
                .joined(separator: "\n") + " }",
            "@Model class A { var x: Int\n" + String(repeating: "#if X\nvar a: Int\n#else\nvar b: Int\n#endif\n", count: count)
                + "}",
            "@Model class A { var s: S0 }\n"
                + (0..<count).map { "struct S\($0): Codable { var v: S\($0 + 1) }" }
                .joined(separator: "\n"),
            "@Model class A { var x: Int }\n" + String(repeating: "extension A { var c: Int { x + 1 } }\n", count: count),
        ]
        for text in inputs {
            let clock = ContinuousClock()
            var warnings: [SwiftModelSource.Warning] = []
            let elapsed = clock.measure { warnings = SwiftModelSourceTestSupport.load(text).warnings }
            #expect(elapsed < .seconds(10), "took \(elapsed) for \(text.prefix(30))…")
            #expect(warnings.count <= SwiftModelSource.warningsPerFile + 1)
        }
    }

    @Test func deepNestingDoesNotExhaustTheStack() {
        let depth = 20_000
        let inputs = [
            String(repeating: "class A { ", count: depth),
            "@Model class A { var x: " + String(repeating: "[", count: depth) + "Int",
            "@Model class A { var x: " + String(repeating: "(", count: depth) + "Int",
            "@Model class A { var x = " + String(repeating: "(", count: depth) + " }",
            "let s = " + String(repeating: "\"\\(", count: depth),
            String(repeating: "/*", count: depth),
            String(repeating: "#if A\n", count: depth),
            String(repeating: "@Model class A { var x: Int = 1 { didSet { ", count: depth),
        ]
        for text in inputs {
            let clock = ContinuousClock()
            let elapsed = clock.measure { _ = SwiftModelSourceTestSupport.load(text) }
            #expect(elapsed < .seconds(10), "took \(elapsed) for \(text.prefix(30))…")
        }
        let nested = SwiftModelSourceTestSupport.load(String(repeating: "class A { ", count: depth)).warnings
        #expect(nested.contains { $0.message.contains("nest more than") })
    }
}
