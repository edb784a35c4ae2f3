// Text gathered for output as UTF-8 bytes. Appending copies the bytes and
// nothing more: a String's append also keeps counts and flags up to date, which
// for a few million cells took a fifth of CSV output's time.

struct OutputText {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    var isEmpty: Bool { bytes.isEmpty }
    /// The number of bytes gathered.
    var count: Int { bytes.count }
    /// Calls `body` with the bytes gathered.
    func withBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
        bytes.withUnsafeBytes(body)
    }

    /// The text gathered, as a String.
    var string: String { String(decoding: bytes, as: UTF8.self) }

    mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    mutating func append(_ text: Substring) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// Appends UTF-8 bytes.
    mutating func append(_ utf8: UnsafeBufferPointer<UInt8>) {
        bytes.append(contentsOf: utf8)
    }

    /// Appends one ASCII character, given as its byte.
    mutating func append(ascii byte: UInt8) {
        bytes.append(byte)
    }

    /// Appends `count` spaces.
    mutating func appendSpaces(_ count: Int) {
        var left = count
        while left > 0 {
            let run = min(left, Self.spaces.count)
            bytes.append(contentsOf: Self.spaces[..<run])
            left -= run
        }
    }

    private static let spaces = [UInt8](repeating: UInt8(ascii: " "), count: 64)

    /// Drops the spaces at the end.
    mutating func trimTrailingSpaces() {
        while bytes.last == UInt8(ascii: " ") { bytes.removeLast() }
    }

    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
    }

    static func += (text: inout OutputText, piece: String) {
        text.append(piece)
    }
}
