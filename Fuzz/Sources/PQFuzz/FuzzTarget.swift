// libFuzzer's entry point. libFuzzer supplies `main`, calls this function with
// each input it generates, and reports a crash, a timeout or running out of
// memory itself; a broken invariant is turned into a crash here, with the
// violations printed first so the log says what went wrong.

import Foundation
import PredicateQueryFuzzing

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTarget(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    let violations = FuzzPipeline.violations(of: bytes)
    guard violations.isEmpty else {
        FileHandle.standardError.write(Data(("pq fuzz violation:\n" + violations.joined(separator: "\n\n") + "\n").utf8))
        abort()
    }
    return 0
}
