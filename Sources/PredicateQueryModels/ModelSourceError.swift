// What reading a model can report: an error that stops it (a file that is not a
// model, a version that does not exist, a corrupt archive), and warnings about
// parts of a model pq leaves out.

/// A model source that cannot be read, with a message naming the file and the problem.
public struct ModelSourceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, naming the file.
    public var message: String

    /// An error saying `message`.
    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}

/// Something in a model that pq leaves out or reads differently from how it is written.
public struct ModelWarning: Sendable, Hashable, CustomStringConvertible {
    /// The file (or `file:line`) the warning is about.
    public var source: String
    /// What pq leaves out or reads differently, in one sentence.
    public var message: String

    /// A warning about `source` saying `message`.
    public init(source: String, message: String) {
        self.source = source
        self.message = message
    }

    /// `source: warning: message`, as compilers print them.
    public var description: String { "\(source): warning: \(message)" }
}
