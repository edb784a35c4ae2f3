// NSPredicate-style format strings, for code moving off Core Data:
//
//     PredicateFormat.expand("%K == %@ AND limit > %d", ["name", "Rent", 100])
//
// gives the query text "`name` == $pq_arg2 AND limit > $pq_arg3", with $pq_arg2
// and $pq_arg3 bound to "Rent" and 100. Arguments are never pasted into the text:
// `%@` and the number specifiers become parameters, and `%K` becomes a key path
// whose names are then checked against the schema like any other. Inside a quoted
// string a specifier is left as it is, as NSPredicate does.
//
//   %@                  any value: string, number, Bool, date, UUID, a list (for IN),
//                       or nil (then the text holds `nil`)
//   %d %i %ld %lld %u   an integer        %f %lf %g %e   a number
//   %K                  a key path: names separated by dots
//   %%                  a literal %

import Foundation

/// An argument of a format string.
public enum FormatArgument: Sendable, Hashable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral, ExpressibleByNilLiteral
{
    /// A value with its type.
    case value(Value)
    /// Several values, for `IN %@`.
    case list([Value])
    /// Text whose type the query decides (as typed on a command line).
    case text(String)

    public init(stringLiteral value: String) { self = .value(.string(value)) }
    public init(integerLiteral value: Int64) { self = .value(.int(value)) }
    public init(floatLiteral value: Double) { self = .value(.double(value)) }
    public init(booleanLiteral value: Bool) { self = .value(.bool(value)) }
    public init(nilLiteral: ()) { self = .value(.null) }

    /// A date argument.
    public init(_ date: Date) { self = .value(.date(date)) }
    /// A UUID argument.
    public init(_ uuid: UUID) { self = .value(.uuid(uuid)) }

    fileprivate var keyPathText: String? {
        switch self {
        case .value(.string(let text)), .text(let text): text
        default: nil
        }
    }

    fileprivate var isNil: Bool { self == .value(.null) }
}

/// A format string expanded into query text.
public struct FormatExpansion: Sendable {
    /// The query text, with parameters where the arguments go.
    public var text: String
    /// The argument each parameter of `text` stands for, by parameter name.
    public var arguments: [String: FormatArgument]
    /// Mistakes in the format string or its arguments; spans point into the format.
    public var diagnostics: [Diagnostic]

    /// The parameter values of typed arguments (`.text` arguments are typed by the caller).
    public var parameterValues: [String: ParameterValue] {
        arguments.compactMapValues { argument in
            switch argument {
            case .value(let value): .single(value)
            case .list(let values): .list(values)
            case .text: nil
            }
        }
    }
}

extension DiagnosticCode {
    /// A format string's specifiers and arguments do not match.
    public static let formatArguments: DiagnosticCode = "format.arguments"
}

/// NSPredicate-style format strings.
public enum PredicateFormat {
    /// The prefix of the parameters arguments become: `$pq_arg1`, `$pq_arg2`, …
    public static let parameterPrefix = "pq_arg"

    /// Expands `format` with `arguments`.
    public static func expand(_ format: String, _ arguments: [FormatArgument]) -> FormatExpansion {
        let bytes = Array(format.utf8)
        var text: [UInt8] = []
        var bound: [String: FormatArgument] = [:]
        var diagnostics: [Diagnostic] = []
        var next = 0
        var quote: UInt8?
        var index = 0
        func takeArgument(at span: SourceSpan, for specifier: String) -> FormatArgument? {
            guard next < arguments.count else {
                diagnostics.append(
                    .error(
                        .formatArguments,
                        "'\(specifier)' has no argument; the format needs more than the \(arguments.count) given",
                        at: span))
                return nil
            }
            next += 1
            return arguments[next - 1]
        }
        while index < bytes.count {
            let byte = bytes[index]
            if let open = quote {
                text.append(byte)
                if byte == UInt8(ascii: "\\"), index + 1 < bytes.count {
                    text.append(bytes[index + 1])
                    index += 2
                    continue
                }
                if byte == open { quote = nil }
                index += 1
                continue
            }
            if byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\"") {
                quote = byte
                text.append(byte)
                index += 1
                continue
            }
            guard byte == UInt8(ascii: "%") else {
                text.append(byte)
                index += 1
                continue
            }
            let start = index
            var end = index + 1
            while end < bytes.count, [UInt8(ascii: "l"), UInt8(ascii: "h"), UInt8(ascii: "q")].contains(bytes[end]) { end += 1 }
            guard end < bytes.count else {
                diagnostics.append(.error(.formatArguments, "the format ends in the middle of a '%' specifier", at: SourceSpan(start: start, end: end)))
                break
            }
            let conversion = Character(Unicode.Scalar(bytes[end]))
            end += 1
            let span = SourceSpan(start: start, end: end)
            let specifier = String(decoding: bytes[start..<end], as: UTF8.self)
            index = end
            switch conversion {
            case "%":
                text.append(UInt8(ascii: "%"))
            case "K":
                guard let argument = takeArgument(at: span, for: specifier) else { continue }
                guard let keyPath = argument.keyPathText, let escaped = escapedKeyPath(keyPath) else {
                    diagnostics.append(
                        .error(
                            .formatArguments, "the argument of '%K' must be a key path such as 'budget.name'",
                            at: span))
                    continue
                }
                text += Array(escaped.utf8)
            case "@", "d", "i", "u", "f", "g", "e":
                guard var argument = takeArgument(at: span, for: specifier) else { continue }
                if argument.isNil, conversion == "@" {
                    text += Array("nil".utf8)
                    continue
                }
                if conversion != "@", let number = Self.number(argument, integer: "diu".contains(conversion)) {
                    argument = number
                } else if conversion != "@" {
                    diagnostics.append(
                        .error(.formatArguments, "the argument of '\(specifier)' must be a number", at: span))
                    continue
                }
                let name = parameterPrefix + String(next)
                bound[name] = argument
                text += Array(("$" + name).utf8)
            default:
                diagnostics.append(
                    .error(
                        .formatArguments,
                        "'\(specifier)' is not a format specifier pq knows; use %@, %K, %d, %f or %%", at: span))
            }
        }
        if next < arguments.count, diagnostics.isEmpty {
            diagnostics.append(
                .error(
                    .formatArguments,
                    "\(arguments.count) arguments were given, but the format uses \(next)",
                    at: SourceSpan(start: bytes.count, end: bytes.count)))
        }
        return FormatExpansion(text: String(decoding: text, as: UTF8.self), arguments: bound, diagnostics: diagnostics)
    }

    /// `budget.name` as `` `budget`.`name` ``: each name in backticks, so that a
    /// reserved word is a name too; nil if it is not a key path.
    static func escapedKeyPath(_ text: String) -> String? {
        let names = text.split(separator: ".", omittingEmptySubsequences: false)
        guard !names.isEmpty else { return nil }
        for name in names {
            guard let first = name.unicodeScalars.first, first == "_" || first.properties.isXIDStart,
                name.unicodeScalars.allSatisfy({ $0 == "_" || $0.properties.isXIDContinue })
            else { return nil }
        }
        return names.map { "`\($0)`" }.joined(separator: ".")
    }

    /// A number argument for `%d` or `%f`.
    private static func number(_ argument: FormatArgument, integer: Bool) -> FormatArgument? {
        switch argument {
        case .value(.int(let value)): return integer ? argument : .value(.double(Double(value)))
        case .value(.double(let value)):
            if integer { return value.rounded() == value ? Int64(exactly: value).map { .value(.int($0)) } : nil }
            return argument
        case .text(let text):
            if integer { return Int64(text).map { .value(.int($0)) } }
            return Double(text).map { .value(.double($0)) }
        default: return nil
        }
    }
}
