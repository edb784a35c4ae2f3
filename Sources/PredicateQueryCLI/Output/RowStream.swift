// Writing a query's rows to the output while the store reads them: each row goes
// through the format's `RowPrinter` into a buffer that is written out when it
// holds `chunkSize` bytes, when `flushInterval` has passed since the last write,
// and after the header and the first row (so that the first rows show at once,
// and `pq … | head -1` gets its line). Memory holds one buffer and, for tables,
// one page of cells, however many rows there are.
//
// When the reader has gone (a closed pipe), `add` says so and the caller stops
// the query.

import PredicateQuerySQLite

struct RowStream {
    /// Bytes gathered before they are written: one write a few hundred rows.
    static let chunkSize = 1 << 16
    /// The longest rows wait in the buffer while more come.
    static let flushInterval = Duration.milliseconds(50)

    private var printer: any RowPrinter
    private let output: Output
    private var text = OutputText(capacity: RowStream.chunkSize + RowStream.chunkSize / 4)
    private let clock = ContinuousClock()
    private var nextFlush: ContinuousClock.Instant
    private var wroteARow = false
    private var rowsSinceClock = 0
    /// The last byte written, if any.
    private var lastWritten: UInt8?

    /// Starts the output: the header, written at once.
    init(_ printer: any RowPrinter, output: Output) {
        self.printer = printer
        self.output = output
        nextFlush = clock.now.advanced(by: Self.flushInterval)
        self.printer.start(into: &text)
        flush()
    }

    /// Prints one row; false when the reader has gone and the query should stop.
    mutating func add(_ row: Row) -> Bool {
        printer.add(row, into: &text)
        rowsSinceClock &+= 1
        guard !text.isEmpty else { return true }
        guard !wroteARow || text.count >= Self.chunkSize || isFlushDue() else { return true }
        wroteARow = true
        flush()
        return !output.isClosed()
    }

    /// Whether `flushInterval` has passed since the last write, reading the clock
    /// every `clockStride` rows (reading it for every row took 1.5 % of CSV's time).
    private mutating func isFlushDue() -> Bool {
        guard rowsSinceClock >= Self.clockStride else { return false }
        rowsSinceClock = 0
        return clock.now >= nextFlush
    }

    /// Rows between two readings of the clock.
    private static let clockStride = 16

    /// Prints what ends the output (the last table page, a closing bracket, a row count).
    mutating func finish() {
        printer.finish(into: &text)
        flush()
    }

    /// Writes what was printed before the query failed part way: the rows read
    /// before the failure stay printed (a table's last, unfinished page does not),
    /// and the last line is ended (JSON ends a row's line with the next row).
    mutating func abandon() {
        if let last = text.bytes.last ?? lastWritten, last != UInt8(ascii: "\n") { text.append(ascii: UInt8(ascii: "\n")) }
        flush()
    }

    /// Writes what was printed so far.
    private mutating func flush() {
        guard !text.isEmpty else { return }
        lastWritten = text.bytes.last
        text.withBytes(output.writeUTF8)
        text.removeAll()
        nextFlush = clock.now.advanced(by: Self.flushInterval)
    }
}
