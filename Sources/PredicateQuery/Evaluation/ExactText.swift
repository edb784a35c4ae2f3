// Text as a dictionary key, scalar by scalar. Swift's `String` equality and
// hashing use canonical equivalence, so `"é"` (one scalar) and `"e\u{301}"` are one
// key; pq's meaning tells them apart, and a cache keyed by `String` would hand back
// the regex, the compiled query or the statement of the other spelling.

/// A string that is equal only to the same Unicode scalars.
package struct ExactText: Hashable, Sendable {
    public let text: String

    public init(_ text: String) {
        self.text = text
    }

    public static func == (lhs: ExactText, rhs: ExactText) -> Bool {
        lhs.text.utf8.elementsEqual(rhs.text.utf8)
    }

    public func hash(into hasher: inout Hasher) {
        for byte in text.utf8 { hasher.combine(byte) }
    }
}
