// The field names of a JSON request body, read before it is decoded: JSONDecoder
// ignores fields it does not know and keeps the last of two with one name, so a
// misspelt `filtre` would return unfiltered rows with 200. Unknown and repeated
// fields are rejected instead, with a did-you-mean.

import Foundation

enum RequestFields {
    /// The keys of the top-level JSON object in `data`, in order, repeats included;
    /// nil if `data` does not start with an object (the decoder then says what is wrong).
    static func topLevelKeys(_ data: Data) -> [String]? {
        let bytes = [UInt8](data)
        var position = 0
        func skipSpace() {
            while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) { position += 1 }
        }
        /// The string starting at `position` (a quote), decoded; nil if malformed.
        func string() -> String? {
            let start = position
            position += 1
            while position < bytes.count {
                switch bytes[position] {
                case UInt8(ascii: "\\"): position += 2
                case UInt8(ascii: "\""):
                    position += 1
                    let literal = Data(bytes[start..<position])
                    return (try? JSONSerialization.jsonObject(with: literal, options: .fragmentsAllowed)) as? String
                default: position += 1
                }
            }
            return nil
        }
        skipSpace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: "{") else { return nil }
        position += 1
        var keys: [String] = []
        var depth = 1
        var expectingKey = true
        while position < bytes.count, depth > 0 {
            skipSpace()
            guard position < bytes.count else { break }
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                guard let text = string() else { return nil }
                if depth == 1, expectingKey {
                    keys.append(text)
                    expectingKey = false
                }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                position += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                position += 1
            case UInt8(ascii: ","):
                if depth == 1 { expectingKey = true }
                position += 1
            default:
                position += 1
            }
        }
        return keys
    }

    /// What a JSON text is, from its first byte, for messages: "an array", "a
    /// string", "a number"…; nil for an empty text.
    static func kind(of data: Data) -> String? {
        guard let first = data.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else { return nil }
        return kind(startingWith: first)
    }

    static func kind(startingWith byte: UInt8) -> String {
        switch byte {
        case UInt8(ascii: "{"): "an object"
        case UInt8(ascii: "["): "an array"
        case UInt8(ascii: "\""): "a string"
        case UInt8(ascii: "t"), UInt8(ascii: "f"): "a boolean"
        case UInt8(ascii: "n"): "null"
        default: "a number"
        }
    }

    /// What the value of each top-level field of the JSON object in `data` is
    /// ("a string", "an array", …), by the value's first byte; for messages.
    static func topLevelValueKinds(_ data: Data) -> [String: String] {
        let bytes = [UInt8](data)
        var kinds: [String: String] = [:]
        var position = 0
        var depth = 0
        var lastKey: String?
        var inString = false
        var stringStart = 0
        while position < bytes.count {
            let byte = bytes[position]
            if inString {
                if byte == UInt8(ascii: "\\") {
                    position += 2
                    continue
                }
                if byte == UInt8(ascii: "\"") {
                    inString = false
                    if depth == 1 {
                        let literal = Data(bytes[stringStart...position])
                        let text = (try? JSONSerialization.jsonObject(with: literal, options: .fragmentsAllowed)) as? String
                        // A key is followed by a colon.
                        var next = position + 1
                        while next < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[next]) { next += 1 }
                        if next < bytes.count, bytes[next] == UInt8(ascii: ":") {
                            lastKey = text
                            next += 1
                            while next < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[next]) { next += 1 }
                            if let key = lastKey, next < bytes.count { kinds[key] = kind(startingWith: bytes[next]) }
                        }
                    }
                }
                position += 1
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
                stringStart = position
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
            default: break
            }
            position += 1
        }
        return kinds
    }

    /// Why the fields are not acceptable, or nil: an unknown field (with the known
    /// one it is closest to) or a field given twice.
    static func problem(with keys: [String], known: [String]) -> String? {
        var seen: Set<String> = []
        for key in keys {
            guard known.contains(key) else {
                let suggestion = closest(to: key, among: known).map { "; did you mean '\($0)'?" } ?? ""
                let list = known.map { "'\($0)'" }.joined(separator: ", ")
                return "unknown field '\(key)'\(suggestion) (a request has \(list))"
            }
            guard seen.insert(key).inserted else { return "the field '\(key)' is given twice" }
        }
        return nil
    }

    /// The known name within an edit distance of a third of `name`'s length (at least 2), if any.
    static func closest(to name: String, among known: [String]) -> String? {
        let lowered = Array(name.lowercased().unicodeScalars)
        var best: (String, Int)?
        for candidate in known {
            let target = Array(candidate.unicodeScalars)
            var previous = Array(0...target.count)
            for (i, a) in lowered.enumerated() {
                var current = [i + 1] + Array(repeating: 0, count: target.count)
                for (j, b) in target.enumerated() {
                    current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (a == b ? 0 : 1))
                }
                previous = current
            }
            let distance = previous[target.count]
            if distance <= max(2, lowered.count / 3), distance < (best?.1 ?? .max) { best = (candidate, distance) }
        }
        return best?.0
    }
}
