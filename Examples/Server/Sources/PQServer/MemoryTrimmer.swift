// Giving memory back after a burst. A burst of large requests (megabyte filters,
// thousands of diagnostics) is parsed and checked on many threads at once, and
// glibc's malloc keeps what they freed instead of returning it to the system.
//
// Two things keep it (`--filler 20000`, bursts of 16 clients sending megabyte
// filters for 10 s, each answered 400):
// - free chunks inside malloc's heaps: a release server at 127 MiB stayed at
//   249 MiB 15 s after a burst. `malloc_trim(0)` every 2 s returns them.
// - the free top of each thread's heap (a debug server at 45 MiB, after distinct
//   950 KB filters), which `malloc_trim` does not touch (it trims only the main
//   heap's top) and `free` trims only above the trim threshold. glibc raises that
//   threshold to twice the largest block it has mapped and freed (up to 64 MiB),
//   and a burst frees blocks of megabytes: after one, the server stayed at 102 MiB
//   with 2 MiB of it in use (`malloc_stats`), 53 MiB of the rest the tops of two
//   thread heaps. Fixing both thresholds at 128 KiB (`mallopt`, which also stops
//   glibc from moving them) gave 46.5 MiB 1 s after the burst.
//
// Both are looked up at run time (glibc only; elsewhere, such as macOS, whose
// allocator returns memory itself, this does nothing).

import Foundation

#if canImport(Glibc)
    import Glibc
#endif

public enum MemoryTrimmer {
    /// The mmap and trim thresholds set for the process: 128 KiB, glibc's default
    /// starting value, kept from moving.
    public static let threshold: Int32 = 128 * 1024

    /// Fixes malloc's thresholds, and calls `malloc_trim(0)` every `interval` on a
    /// thread of its own for the life of the process; false where there is no
    /// glibc malloc to tune.
    @discardableResult
    public static func start(every interval: Duration = .seconds(2)) -> Bool {
        #if canImport(Glibc)
            guard let trimSymbol = dlsym(nil, "malloc_trim"), let optionSymbol = dlsym(nil, "mallopt") else { return false }
            typealias Trim = @convention(c) (Int) -> Int32
            typealias Option = @convention(c) (Int32, Int32) -> Int32
            let trim = unsafeBitCast(trimSymbol, to: Trim.self)
            let option = unsafeBitCast(optionSymbol, to: Option.self)
            // M_TRIM_THRESHOLD and M_MMAP_THRESHOLD, from glibc's <malloc.h>.
            _ = option(-1, threshold)
            _ = option(-3, threshold)
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
