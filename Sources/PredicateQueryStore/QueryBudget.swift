// One budget per query: a deadline that covers every stage a service runs for a
// request (parsing, checking, lowering, waiting for a connection, running), so a
// slow stage leaves less time for the next instead of each having its own clock.

/// The time one query may take, from the moment the request arrived.
public struct QueryBudget: Sendable, Hashable {
    /// When the query must be done.
    public var deadline: ContinuousClock.Instant
    /// The whole budget, for messages ("its 2 s budget").
    public var total: Duration

    /// A budget of `timeout` from now.
    public init(timeout: Duration) {
        self.total = timeout
        self.deadline = .now + timeout
    }

    /// The time left, zero once the deadline has passed.
    public var remaining: Duration {
        let left = deadline - .now
        return left > .zero ? left : .zero
    }

    /// Throws a `timeout` error if the deadline has passed, naming the stage reached.
    public func check(_ stage: String) throws(StoreError) {
        guard ContinuousClock.now < deadline else {
            throw StoreError(
                "the query used up its \(Self.describe(total)) budget while \(stage)", kind: .timeout)
        }
    }
}

extension QueryBudget {
    /// A duration as a person writes it, for messages: "5 s", "1.5 s", "250 ms".
    public static func describe(_ duration: Duration) -> String {
        let milliseconds = duration.wholeMilliseconds
        if milliseconds < 1000 { return "\(milliseconds) ms" }
        if milliseconds % 1000 == 0 { return "\(milliseconds / 1000) s" }
        return "\(Double(milliseconds) / 1000) s"
    }
}
