// Giving memory back after a burst. A burst of large requests (megabyte filters,
// thousands of diagnostics) is parsed and checked on many threads at once, and
// glibc's malloc keeps what they freed in per-thread arenas instead of returning
// it to the system: measured, a server at 127 MiB stayed at 249 MiB 15 s after a
// 10 s burst of 1 MB filters. `malloc_trim(0)` returns the free pages; it is
// looked up at run time (glibc only; elsewhere, such as macOS, whose allocator
// returns memory itself, this does nothing).

import Foundation

#if canImport(Glibc)
    import Glibc
#endif

public enum MemoryTrimmer {
    /// Calls `malloc_trim(0)` every `interval` on a thread of its own, for the life
    /// of the process; false where there is no `malloc_trim`.
    @discardableResult
    public static func start(every interval: Duration = .seconds(2)) -> Bool {
        #if canImport(Glibc)
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return false }
            typealias Trim = @convention(c) (Int) -> Int32
            let trim = unsafeBitCast(symbol, to: Trim.self)
            let seconds = Double(interval.components.seconds) + Double(interval.components.attoseconds) / 1e18
            Thread.detachNewThread {
                while true {
                    Thread.sleep(forTimeInterval: seconds)
                    _ = trim(0)
                }
            }
            return true
        #else
            return false
        #endif
    }
}
