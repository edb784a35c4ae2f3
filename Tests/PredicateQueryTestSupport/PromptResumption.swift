// For tests that mostly wait (for a server, a terminal, a writer, their own sleeps):
// the test's task goes on the moment a wait ends, instead of queueing behind the
// CPU-bound tests that fill Swift's task threads (two, on two cores).
//
// A task whose wait ends is queued again at its priority, and every test runs at
// the same one, so a waiting test resumed behind every test not yet started: the
// PostgreSQL Ctrl-C suite, 25 s of mostly sleeping when alone, ended 17 s after
// every other suite in a CI run (its first test "passed after 146 s"). A toy with
// 80 busy tasks of 100 ms beside one task waiting 20 times 10 ms: 2.19 s for the
// waits at the same priority, 0.21 s raised.

/// Raises the current task to high priority for the rest of its life.
public func resumePromptlyAfterWaits() {
    if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) {
        withUnsafeCurrentTask { $0?.escalatePriority(to: .high) }
    }
}
