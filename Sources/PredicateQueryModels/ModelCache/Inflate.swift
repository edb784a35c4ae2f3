// Raw DEFLATE decompression through the system's zlib, bounded: a store's
// model cache is a DEFLATE stream with no zlib header, and a small corrupt or
// hostile stream must not expand without limit.

import CZlib
import Foundation

enum Inflate {
    /// Why the data could not be inflated.
    struct Failure: Error, Equatable, CustomStringConvertible {
        var description: String
    }

    /// The inflated bytes of a raw DEFLATE stream (no zlib or gzip header), at most `limit` bytes.
    static func raw(_ data: Data, limit: Int) throws(Failure) -> Data {
        guard !data.isEmpty else { throw Failure(description: "the compressed data is empty") }
        guard data.count <= UInt32.max else { throw Failure(description: "the compressed data is too large") }
        var stream = z_stream()
        let started = inflateInit2_(&stream, -15, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard started == Z_OK else { throw Failure(description: "zlib could not start (error \(started))") }
        defer { inflateEnd(&stream) }
        var output = Data()
        let chunkSize = 64 * 1024
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        var input = [UInt8](data)
        var status: Int32 = Z_OK
        let failure: Failure? = input.withUnsafeMutableBufferPointer { inputBuffer -> Failure? in
            stream.next_in = inputBuffer.baseAddress
            stream.avail_in = UInt32(inputBuffer.count)
            while true {
                let produced = chunk.withUnsafeMutableBufferPointer { chunkBuffer -> Int in
                    stream.next_out = chunkBuffer.baseAddress
                    stream.avail_out = UInt32(chunkSize)
                    status = inflate(&stream, Z_NO_FLUSH)
                    return chunkSize - Int(stream.avail_out)
                }
                if status != Z_OK && status != Z_STREAM_END {
                    let reason = stream.msg.map { String(cString: $0) } ?? "error \(status)"
                    return Failure(description: "the compressed data is corrupt (\(reason))")
                }
                guard output.count + produced <= limit else {
                    return Failure(description: "the data inflates to more than \(limit / (1024 * 1024)) MiB")
                }
                output.append(contentsOf: chunk[0..<produced])
                if status == Z_STREAM_END { return nil }
                if produced == 0 && stream.avail_in == 0 {
                    return Failure(description: "the compressed data ends before the end of its stream")
                }
            }
        }
        if let failure { throw failure }
        return output
    }
}
