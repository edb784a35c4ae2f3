// A small XML reader for Xcode's model files (`contents`, `.xccurrentversion`):
// elements with attributes and text, comments, processing instructions and a
// DOCTYPE skipped, the five named entities and numeric character references
// decoded. No DTDs, namespaces or CDATA-specific handling beyond reading it as
// text. Nesting is bounded; malformed XML is an error naming the line.

/// An XML element (the root of a parsed document): its name, attributes, child elements and text.
struct XMLTree: Sendable, Equatable {
    var name: String
    var attributes: [String: String] = [:]
    var children: [XMLTree] = []
    var text = ""

    /// The child elements with this name, in document order.
    func children(named name: String) -> [XMLTree] {
        children.filter { $0.name == name }
    }

    /// Parses a whole document and returns its root element.
    static func parse(_ text: String) throws(XMLFailure) -> XMLTree {
        var parser = XMLTreeParser(Array(text.utf8))
        return try parser.document()
    }
}

/// Malformed XML, with the line it was found on.
struct XMLFailure: Error, Equatable, CustomStringConvertible {
    var line: Int
    var message: String
    var description: String { "line \(line): \(message)" }
}

private struct XMLTreeParser {
    let bytes: [UInt8]
    var position = 0
    static let maximumDepth = 256

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    func fail(_ message: String) -> XMLFailure {
        XMLFailure(line: 1 + bytes[0..<min(position, bytes.count)].reduce(0) { $0 + ($1 == 10 ? 1 : 0) }, message: message)
    }

    func peek(_ literal: String) -> Bool {
        let count = literal.utf8.count
        return bytes.count - position >= count && bytes[position..<(position + count)].elementsEqual(literal.utf8)
    }

    mutating func skip(past literal: String) throws(XMLFailure) {
        let pattern = Array(literal.utf8)
        while position < bytes.count {
            if peek(literal) {
                position += pattern.count
                return
            }
            position += 1
        }
        throw fail("unterminated markup: expected '\(literal)'")
    }

    mutating func skipSpace() {
        while position < bytes.count {
            switch bytes[position] {
            case 32, 9, 10, 13: position += 1
            default: return
            }
        }
    }

    /// Skips the prolog, comments and DOCTYPE before an element (or after the root).
    mutating func skipMisc() throws(XMLFailure) {
        while true {
            skipSpace()
            if peek("<?") {
                try skip(past: "?>")
            } else if peek("<!--") {
                try skip(past: "-->")
            } else if peek("<!DOCTYPE") {
                try skipDoctype()
            } else {
                return
            }
        }
    }

    mutating func skipDoctype() throws(XMLFailure) {
        var depth = 0
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "]"): depth -= 1
            case UInt8(ascii: ">") where depth <= 0:
                position += 1
                return
            default: break
            }
            position += 1
        }
        throw fail("unterminated DOCTYPE")
    }

    mutating func document() throws(XMLFailure) -> XMLTree {
        try skipMisc()
        guard peek("<") else { throw fail("no root element") }
        let root = try element(depth: 0)
        try skipMisc()
        guard position == bytes.count else { throw fail("content after the root element") }
        return root
    }

    static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x80...0xFF, 48...57, 65...90, 97...122, UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: ":"):
            true
        default: false
        }
    }

    mutating func name() throws(XMLFailure) -> String {
        let start = position
        while position < bytes.count, Self.isNameByte(bytes[position]) { position += 1 }
        guard position > start else { throw fail("expected a name") }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    /// An element starting at `<`.
    mutating func element(depth: Int) throws(XMLFailure) -> XMLTree {
        guard depth < Self.maximumDepth else { throw fail("elements nested more than \(Self.maximumDepth) deep") }
        position += 1  // <
        var element = XMLTree(name: try name())
        while true {
            skipSpace()
            guard position < bytes.count else { throw fail("unterminated start tag <\(element.name)>") }
            if peek("/>") {
                position += 2
                return element
            }
            if bytes[position] == UInt8(ascii: ">") {
                position += 1
                break
            }
            let attribute = try name()
            skipSpace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "=") else {
                throw fail("attribute '\(attribute)' of <\(element.name)> has no value")
            }
            position += 1
            skipSpace()
            guard position < bytes.count, bytes[position] == 34 || bytes[position] == 39 else {
                throw fail("the value of attribute '\(attribute)' is not quoted")
            }
            let quote = bytes[position]
            position += 1
            let start = position
            while position < bytes.count, bytes[position] != quote { position += 1 }
            guard position < bytes.count else { throw fail("unterminated value of attribute '\(attribute)'") }
            element.attributes[attribute] = try decode(bytes[start..<position])
            position += 1
        }
        // Content up to the matching end tag.
        while true {
            let start = position
            while position < bytes.count, bytes[position] != UInt8(ascii: "<") { position += 1 }
            element.text += try decode(bytes[start..<position])
            guard position < bytes.count else { throw fail("<\(element.name)> is not closed") }
            if peek("</") {
                position += 2
                let closing = try name()
                guard closing == element.name else { throw fail("</\(closing)> closes <\(element.name)>") }
                skipSpace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: ">") else { throw fail("unterminated end tag") }
                position += 1
                return element
            } else if peek("<!--") {
                try skip(past: "-->")
            } else if peek("<![CDATA[") {
                position += 9
                let textStart = position
                try skip(past: "]]>")
                element.text += String(decoding: bytes[textStart..<(position - 3)], as: UTF8.self)
            } else if peek("<?") {
                try skip(past: "?>")
            } else {
                element.children.append(try self.element(depth: depth + 1))
            }
        }
    }

    /// Text with entities and character references decoded.
    func decode(_ raw: ArraySlice<UInt8>) throws(XMLFailure) -> String {
        guard raw.contains(UInt8(ascii: "&")) else { return String(decoding: raw, as: UTF8.self) }
        var result = ""
        var index = raw.startIndex
        while index < raw.endIndex {
            let byte = raw[index]
            guard byte == UInt8(ascii: "&") else {
                let start = index
                while index < raw.endIndex, raw[index] != UInt8(ascii: "&") { index += 1 }
                result += String(decoding: raw[start..<index], as: UTF8.self)
                continue
            }
            guard let end = raw[index...].firstIndex(of: UInt8(ascii: ";")), end - index <= 12 else {
                throw fail("an unterminated entity reference")
            }
            let entity = String(decoding: raw[(index + 1)..<end], as: UTF8.self)
            switch entity {
            case "amp": result += "&"
            case "lt": result += "<"
            case "gt": result += ">"
            case "quot": result += "\""
            case "apos": result += "'"
            default:
                let scalar: Unicode.Scalar?
                if entity.hasPrefix("#x") || entity.hasPrefix("#X") {
                    scalar = UInt32(entity.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
                } else if entity.hasPrefix("#") {
                    scalar = UInt32(entity.dropFirst()).flatMap(Unicode.Scalar.init)
                } else {
                    scalar = nil
                }
                guard let scalar else { throw fail("unknown entity '&\(entity);'") }
                result.unicodeScalars.append(scalar)
            }
            index = end + 1
        }
        return result
    }
}
