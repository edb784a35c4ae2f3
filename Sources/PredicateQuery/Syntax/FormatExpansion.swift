// What expanding a format string gives: the query text, the argument each of its
// parameters stands for, and a map from the text back to the format string, so
// that every diagnostic about the query points at what the user wrote and names
// the specifier ("the 2nd '%@'"), never the parameters pq made up.

import Foundation

/// A format string expanded into query text.
public struct FormatExpansion: Sendable {
    /// The query text, with parameters where the arguments go.
    public var text: String
    /// The argument each parameter of `text` stands for, by parameter name.
    public var arguments: [String: FormatArgument]
    /// Parameters that stand for a function of a list argument (`max(%@)`), by name.
    package var functions: [String: FormatFunction] = [:]
    /// Mistakes in the format string or its arguments; spans point into the format.
    public var diagnostics: [Diagnostic]
    /// The format string the text was expanded from.
    var format = ""
    /// What the expansion put in place of the user's text, in order.
    var substitutions: [Substitution] = []
    /// The parameters the expansion made.
    var madeParameters: [MadeParameter] = []

    /// One piece of `text` that stands for a piece of the format string.
    struct Substitution: Sendable {
        /// UTF-8 offsets in `text`.
        var expanded: Range<Int>
        /// UTF-8 offsets in the format string.
        var original: Range<Int>
    }

    /// A parameter the expansion made, and how a message names it.
    struct MadeParameter: Sendable {
        var name: String
        /// "the 2nd '%@'"
        var label: String
        /// What the user wrote for it, for notes that quote the query ("name == %@").
        var spelling: String
        /// UTF-8 offsets in the format string.
        var original: Range<Int>
    }

    /// The parameter values of typed arguments (`.text` arguments are typed by the
    /// query: see `parameterValues(for:)`).
    public var parameterValues: [String: ParameterValue] {
        var values: [String: ParameterValue] = [:]
        for (name, argument) in arguments {
            if let function = functions[name] {
                if case .list(let elements) = argument, let result = function.apply(elements) { values[name] = .single(result) }
                continue
            }
            switch argument {
            case .value(let value): values[name] = .single(value)
            case .list(let list): values[name] = .list(list)
            case .object(_, let key): values[name] = .single(.int(key))
            case .text: break
            }
        }
        return values
    }
}

extension FormatExpansion {
    /// `span` of `text` as a span of the format string: a piece the expansion put
    /// in maps to the whole of what it stands for.
    public func originalSpan(_ span: SourceSpan) -> SourceSpan {
        SourceSpan(start: originalOffset(span.start, isEnd: false), end: originalOffset(span.end, isEnd: span.end > span.start))
    }

    private func originalOffset(_ offset: Int, isEnd: Bool) -> Int {
        var delta = 0
        for piece in substitutions {
            if offset < piece.expanded.lowerBound || (isEnd && offset == piece.expanded.lowerBound) { break }
            if offset < piece.expanded.upperBound || (isEnd && offset == piece.expanded.upperBound) {
                return isEnd ? piece.original.upperBound : piece.original.lowerBound
            }
            delta = piece.original.upperBound - piece.expanded.upperBound
        }
        return offset + delta
    }

    /// `diagnostics` about `text`, pointed into the format string and worded with
    /// the user's specifiers.
    public func originalDiagnostics(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        diagnostics.map { diagnostic in
            var mapped = diagnostic
            mapped.span = originalSpan(diagnostic.span)
            mapped.message = quotingFormat(reworded(diagnostic.message), about: diagnostic.span)
            mapped.notes = diagnostic.notes.map { note in
                let message = reworded(note.message)
                return DiagnosticNote(
                    note.span.map { quotingFormat(message, about: $0) } ?? message, at: note.span.map(originalSpan))
            }
            return mapped
        }
    }

    /// A message that quotes the text at `span` where that text is part of what
    /// the expansion wrote (`` `transactions` `` of a `%K`), with the format's own
    /// text there quoted instead (`'%K'`): the user never saw the expansion.
    private func quotingFormat(_ message: String, about span: SourceSpan) -> String {
        let bytes = Array(text.utf8)
        guard span.start < span.end, span.end <= bytes.count,
            substitutions.contains(where: { $0.expanded.overlaps(span.start..<span.end) })
        else { return message }
        let quoted = "'" + String(decoding: bytes[span.start..<span.end], as: UTF8.self) + "'"
        let original = originalSpan(span)
        let formatBytes = Array(format.utf8)
        guard message.contains(quoted), original.start < original.end, original.end <= formatBytes.count else {
            return message
        }
        let written = String(decoding: formatBytes[original.start..<original.end], as: UTF8.self)
        return message.replacingOccurrences(of: quoted, with: "'" + written + "'")
    }

    /// A message with pq's parameters named as the specifiers they stand for.
    public func reworded(_ message: String) -> String {
        guard message.contains("$" + PredicateFormat.parameterPrefix) else { return message }
        var text = message
        for piece in madeParameters.sorted(by: { $0.name.count > $1.name.count }) {
            let name = piece.name
            text = text.replacingOccurrences(of: "parameter '$\(name)'", with: piece.label)
            text = text.replacingOccurrences(of: "'$\(name)'", with: piece.label)
            text = text.replacingOccurrences(of: "$\(name)", with: piece.spelling)
        }
        return text
    }

    /// How messages name parameter `name` ("the 2nd '%@'"), if the expansion made it.
    public func label(of name: String) -> String? {
        madeParameter(name)?.label
    }

    /// The parameter `name`, if the expansion made it.
    func madeParameter(_ name: String) -> MadeParameter? {
        madeParameters.first { $0.name == name }
    }

    /// The values of every parameter the expansion made that `parameters` (from
    /// `CheckedQuery.parameters`) declares, text arguments typed as the query uses
    /// them; a value that does not fit is a diagnostic at its specifier (a span of
    /// the format string, not of `text`).
    public func parameterValues(
        for parameters: [ParameterDeclaration]
    ) -> (
        values: [String: ParameterValue], diagnostics: [Diagnostic]
    ) {
        var values: [String: ParameterValue] = [:]
        var diagnostics: [Diagnostic] = []
        for declaration in parameters {
            guard let argument = arguments[declaration.name] else { continue }
            let piece = madeParameter(declaration.name)
            let span = piece.map { SourceSpan(start: $0.original.lowerBound, end: $0.original.upperBound) } ?? .synthesized
            do {
                values[declaration.name] = try value(of: argument, as: declaration.type, name: declaration.name)
            } catch {
                diagnostics.append(.error(.formatArguments, reworded(error.message), at: span))
            }
        }
        return (values, diagnostics)
    }

    private func value(
        of argument: FormatArgument, as type: ValueType, name: String
    ) throws(BindingError)
        -> ParameterValue
    {
        if let function = functions[name] {
            var elements: [Value] = []
            for element in argument.elements ?? [argument] {
                guard case .single(let value) = try plainValue(of: element, as: type, name: name) else { continue }
                elements.append(value)
            }
            guard let result = function.apply(elements) else {
                let what = function == .min || function == .max ? "numbers or dates" : "numbers"
                throw BindingError(message: "parameter '$\(name)' needs a list of \(what) for \(function.rawValue)(…)")
            }
            return .single(result)
        }
        return try plainValue(of: argument, as: type, name: name)
    }

    private func plainValue(
        of argument: FormatArgument, as type: ValueType, name: String
    ) throws(BindingError)
        -> ParameterValue
    {
        switch argument {
        case .value(let value):
            if case .list = type { throw BindingError(message: "parameter '$\(name)' needs a list of \(type) values") }
            return .single(try BindingResolver.check(value, as: type, name: name))
        case .list(let values):
            guard case .list(let element) = type else {
                throw BindingError(message: "parameter '$\(name)' takes one \(type) value, not a list")
            }
            var checked: [Value] = []
            for value in values { checked.append(try BindingResolver.check(value, as: element, name: name)) }
            return .list(checked)
        case .text(let text): return try ParameterText.value(text, as: type, name: name)
        case .object(let entity, let key):
            guard case .object(let expected) = type else {
                throw BindingError(
                    message: "parameter '$\(name)' is an object of '\(entity)', but the query uses it as '\(type)'")
            }
            guard expected == entity else {
                throw BindingError(
                    message:
                        "parameter '$\(name)' is an object of '\(entity)', but the query compares it with an object of '\(expected)'"
                )
            }
            return .single(.int(key))
        }
    }
}
