// Rendered SQL, with slots for what only the parameters' values decide.
//
// Two parts of a statement wait for the values: the placeholders of a list
// parameter (one per value, so their number is the list's length) and the
// operator of an equality with a parameter (`=` for a value, which an index can
// answer, and the dialect's null-safe equality for nil). The renderer leaves a slot
// for each, and `CompiledQuery.statement` fills them in the dialect's spelling:
// nothing is searched for or patched in SQL text after rendering. Shown before
// the values are known, a slot is its marker (`?2[]`, `=?1=`).

/// SQL text with slots for what the parameters' values decide.
struct SQLText: SQLOutput, Sendable {
    /// A part of the statement known only when the query runs.
    enum Slot: Sendable, Hashable {
        /// The placeholders of the list parameter bound at this index.
        case list(binding: Int)
        /// The operator of an equality with the parameter bound at this index.
        case equality(binding: Int)

        /// How the slot shows before the values are known.
        var marker: String {
            switch self {
            case .list(let index): CompiledQuery.listMarker(index)
            case .equality(let index): CompiledQuery.equalityMarker(index)
            }
        }
    }

    /// The text before each slot (UTF-8), and the slot.
    private var parts: [(text: [UInt8], slot: Slot)] = []
    /// The text after the last slot, as UTF-8: the renderer appends dozens of short
    /// pieces per statement, which bytes take more cheaply than a `String` does.
    private var rest: [UInt8] = []
    /// How many `(` pq's own text holds (quoted identifiers aside): with few enough,
    /// the statement fits SQLite's parser without being measured (`SQLParserDepth`).
    private(set) var openingParentheses = 0

    init() {}

    /// Text with no slots.
    init(_ text: String) { rest = Array(text.utf8) }

    mutating func reserveCapacity(_ count: Int) { rest.reserveCapacity(count) }

    /// Appends a slot.
    mutating func append(_ slot: Slot) {
        parts.append((rest, slot))
        rest = []
    }

    static func += (text: inout SQLText, string: String) {
        // A native string's bytes are copied at once, not one by one through its UTF-8 view.
        let appended: Void? = string.utf8.withContiguousStorageIfAvailable { bytes in
            text.rest.append(contentsOf: bytes)
            for byte in bytes where byte == UInt8(ascii: "(") { text.openingParentheses += 1 }
        }
        guard appended == nil else { return }
        for byte in string.utf8 {
            text.rest.append(byte)
            if byte == UInt8(ascii: "(") { text.openingParentheses += 1 }
        }
    }

    mutating func appendIdentifier(_ name: String, quotedBy dialect: any SQLDialect) {
        dialect.appendQuoted(name, to: &rest)
    }

    static func += (text: inout SQLText, other: SQLText) {
        for part in other.parts {
            text.rest += part.text
            text.append(part.slot)
        }
        text.rest += other.rest
        text.openingParentheses += other.openingParentheses
    }

    /// The text, each slot written by `fill`.
    func joined(_ fill: (Slot) -> String) -> String {
        guard !parts.isEmpty else { return String(decoding: rest, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(rest.count + parts.reduce(0) { $0 + $1.text.count + 8 })
        for part in parts {
            out += part.text
            out.append(contentsOf: fill(part.slot).utf8)
        }
        out += rest
        return String(decoding: out, as: UTF8.self)
    }

    /// The text with each slot shown as its marker.
    var marked: String { joined(\.marker) }

    /// The length in bytes of `marked`, without writing it.
    var markedByteCount: Int {
        parts.reduce(rest.count) { $0 + $1.text.count + $1.slot.marker.utf8.count }
    }

    /// SQL text given whole (`CompiledQuery.sql` set by hand), with its markers as
    /// slots again: each list marker, and each equality marker outside a quoted
    /// identifier. pq's own SQL never goes through this; it is rendered with its slots.
    init(parsing text: String) {
        let bytes = Array(text.utf8)
        guard bytes.contains(UInt8(ascii: "?")) else {
            self.init(text)
            return
        }
        self.init()
        var pending: [UInt8] = []
        var quoted = false
        var position = 0
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") { quoted.toggle() }
            if let (slot, end) = Self.marker(in: bytes, at: position, quoted: quoted) {
                rest = pending
                pending = []
                append(slot)
                position = end
                continue
            }
            pending.append(byte)
            position += 1
        }
        rest = pending
    }

    /// The marker starting at `position`, if any, and where it ends: `?n[]` anywhere,
    /// `=?n=` outside a quoted identifier.
    private static func marker(in bytes: [UInt8], at position: Int, quoted: Bool) -> (Slot, end: Int)? {
        let isEquality = bytes[position] == UInt8(ascii: "=")
        guard isEquality ? !quoted : bytes[position] == UInt8(ascii: "?") else { return nil }
        var end = position + (isEquality ? 1 : 0)
        guard end < bytes.count, bytes[end] == UInt8(ascii: "?") else { return nil }
        end += 1
        var number = 0
        let digitsStart = end
        while end < bytes.count, let digit = digit(bytes[end]), number < Int.max / 10 - 9 {
            number = number * 10 + digit
            end += 1
        }
        guard end > digitsStart else { return nil }
        if isEquality {
            guard end < bytes.count, bytes[end] == UInt8(ascii: "=") else { return nil }
            return (.equality(binding: number - 1), end + 1)
        }
        guard end + 1 < bytes.count, bytes[end] == UInt8(ascii: "["), bytes[end + 1] == UInt8(ascii: "]") else { return nil }
        return (.list(binding: number - 1), end + 2)
    }

    private static func digit(_ byte: UInt8) -> Int? {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? Int(byte - UInt8(ascii: "0")) : nil
    }
}
