// The small XML reader: elements, attributes, entities, comments and DOCTYPE,
// and malformed documents reported with their line.

import Testing

@testable import PredicateQueryModels

struct XMLTreeTests {
    @Test func elementsAttributesAndText() throws {
        let root = try XMLTree.parse(
            """
            <?xml version="1.0"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <!-- a comment -->
            <plist version='1.0'><dict><key>a &amp; b</key><string>&lt;x&gt; &#65;&#x42;</string><empty/></dict></plist>
            """)
        #expect(root.name == "plist" && root.attributes["version"] == "1.0")
        let dict = try #require(root.children(named: "dict").first)
        #expect(dict.children.map(\.name) == ["key", "string", "empty"])
        #expect(dict.children[0].text == "a & b")
        #expect(dict.children[1].text == "<x> AB")
    }

    @Test func malformedDocumentsAreErrorsWithALine() {
        let cases: [(String, Int, String)] = [
            ("", 1, "no root element"),
            ("<a>\n<b>\n</a>", 3, "</a> closes <b>"),
            ("<a x=1/>", 1, "the value of attribute 'x' is not quoted"),
            ("<a>\n&bogus;</a>", 2, "unknown entity '&bogus;'"),
            ("<a></a><b/>", 1, "content after the root element"),
            ("<a", 1, "unterminated start tag <a>"),
        ]
        for (text, line, message) in cases {
            #expect(throws: XMLFailure(line: line, message: message)) { try XMLTree.parse(text) }
        }
    }

    @Test func deepNestingIsAnErrorNotACrash() {
        let text = String(repeating: "<a>", count: 10_000) + String(repeating: "</a>", count: 10_000)
        #expect(throws: XMLFailure.self) { try XMLTree.parse(text) }
    }
}
