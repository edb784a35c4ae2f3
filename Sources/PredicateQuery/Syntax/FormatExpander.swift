// The work of `PredicateFormat.expand`: one pass over the format string's bytes,
// copying text, turning specifiers into parameters and key paths, and recording
// where each piece it put in came from.

import Foundation

struct FormatExpander {
    let format: [UInt8]
    let arguments: [FormatArgument]
    var output: [UInt8] = []
    var bound: [String: FormatArgument] = [:]
    var functions: [String: FormatFunction] = [:]
    var diagnostics: [Diagnostic] = []
    var substitutions: [FormatExpansion.Substitution] = []
    var madeParameters: [FormatExpansion.MadeParameter] = []
    /// Arguments taken so far.
    var next = 0
    /// How many of each specifier (as written) were read, for "the 2nd '%@'".
    var seen: [String: Int] = [:]
    var index = 0

    /// A specifier as written: `%@`, `%ld`, …
    struct Specifier {
        var span: SourceSpan
        var conversion: UInt8
        var spelling: String
        /// "the 2nd '%@'"
        var label: String
    }

    static let lengthModifiers: Set<UInt8> = Set("lhqztjL".utf8)
    static let integerConversions: Set<UInt8> = Set("diuxXo".utf8)
    static let numberConversions: Set<UInt8> = Set("fFeEgGaA".utf8)

    mutating func run() {
        var quote: UInt8?
        while index < format.count {
            let byte = format[index]
            if let open = quote {
                output.append(byte)
                if byte == UInt8(ascii: "\\"), index + 1 < format.count {
                    output.append(format[index + 1])
                    index += 2
                    continue
                }
                if byte == open { quote = nil }
                index += 1
                continue
            }
            if byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\"") {
                quote = byte
            } else if byte == UInt8(ascii: "%") {
                guard let specifier = readSpecifier() else { break }
                expand(specifier)
                continue
            } else if Self.isNameStart(byte), !Self.isNameByte(previousByte), previousByte != UInt8(ascii: "."),
                previousByte != UInt8(ascii: "@"), previousByte != UInt8(ascii: "$"), expandFunction()
            {
                continue
            }
            output.append(byte)
            index += 1
        }
        if next < arguments.count, diagnostics.isEmpty {
            diagnostics.append(
                .error(
                    .formatArguments, "\(arguments.count) arguments were given, but the format uses \(next)",
                    at: .point(format.count)))
        }
    }

    var previousByte: UInt8 { index > 0 ? format[index - 1] : 0 }

    static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
    }

    static func isNameStart(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || byte == UInt8(ascii: "_")
    }

    static func isNameByte(_ byte: UInt8) -> Bool {
        isNameStart(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }

    /// Reads the specifier at `index` (a `%`) and moves past it; nil at a format
    /// that ends inside one (reported).
    mutating func readSpecifier() -> Specifier? {
        let start = index
        var end = index + 1
        while end < format.count, Self.lengthModifiers.contains(format[end]) { end += 1 }
        guard end < format.count else {
            diagnostics.append(
                .error(
                    .formatArguments, "the format ends in the middle of a '%' specifier",
                    at: SourceSpan(start: start, end: end)))
            index = format.count
            return nil
        }
        end += 1
        index = end
        let spelling = String(decoding: format[start..<end], as: UTF8.self)
        return Specifier(
            span: SourceSpan(start: start, end: end), conversion: format[end - 1], spelling: spelling, label: "")
    }

    /// Counts `specifier` and names it.
    mutating func labelled(_ specifier: Specifier) -> Specifier {
        var copy = specifier
        let count = (seen[specifier.spelling] ?? 0) + 1
        seen[specifier.spelling] = count
        copy.label = "the \(PredicateFormat.ordinal(count)) '\(specifier.spelling)'"
        return copy
    }

    /// The next argument, or nil (reported) if there is none.
    mutating func takeArgument(for specifier: Specifier) -> FormatArgument? {
        guard next < arguments.count else {
            diagnostics.append(
                .error(
                    .formatArguments,
                    "'\(specifier.spelling)' has no argument; the format needs more than the \(arguments.count) given",
                    at: specifier.span))
            return nil
        }
        next += 1
        return arguments[next - 1]
    }

    /// Appends `text`, standing for `original` of the format.
    mutating func emit(_ text: String, for original: SourceSpan) {
        let start = output.count
        output += Array(text.utf8)
        substitutions.append(.init(expanded: start..<output.count, original: original.start..<original.end))
    }

    /// A new parameter for `argument`, named in messages as `label`; its `$name`.
    mutating func parameter(
        _ argument: FormatArgument, label: String, spelling: String, for span: SourceSpan, suffix: String = ""
    )
        -> String
    {
        let name = PredicateFormat.parameterPrefix + String(next) + suffix
        bound[name] = argument
        madeParameters.append(.init(name: name, label: label, spelling: spelling, original: span.start..<span.end))
        return "$" + name
    }

    mutating func error(_ message: String, at span: SourceSpan) {
        diagnostics.append(.error(.formatArguments, message, at: span))
    }

    mutating func expand(_ raw: Specifier) {
        if raw.conversion == UInt8(ascii: "%") {
            emit("%", for: raw.span)
            return
        }
        let specifier = labelled(raw)
        let conversion = specifier.conversion
        if conversion == UInt8(ascii: "K") {
            guard let argument = takeArgument(for: specifier), let path = keyPath(argument, for: specifier) else { return }
            // Alone, a key names a Boolean to test, not an entity.
            let alone = format.enumerated().allSatisfy { offset, byte in
                (specifier.span.start..<specifier.span.end).contains(offset) || Self.isSpace(byte)
            }
            emit(alone ? "(" + path + ")" : path, for: specifier.span)
            return
        }
        let isInteger = Self.integerConversions.contains(conversion)
        guard conversion == UInt8(ascii: "@") || isInteger || Self.numberConversions.contains(conversion) else {
            let isCText = "sScC".utf8.contains(conversion)
            diagnostics.append(
                .error(
                    .formatArguments, "'\(specifier.spelling)' is not a format specifier pq knows; use %@, %K, %d, %f or %%",
                    at: specifier.span,
                    notes: isCText ? [DiagnosticNote("'\(specifier.spelling)' takes C text; pass a String and write %@")] : []))
            return
        }
        guard var argument = takeArgument(for: specifier) else { return }
        if conversion == UInt8(ascii: "@"), followsBetween {
            expandBetween(argument, specifier)
            return
        }
        if conversion == UInt8(ascii: "@"), followsModifiedIn, let elements = argument.elements {
            expandModifiedIn(elements, specifier)
            return
        }
        if argument.isNil, conversion == UInt8(ascii: "@") {
            emit("nil", for: specifier.span)
            return
        }
        if conversion != UInt8(ascii: "@") {
            guard let number = argument.number(integer: isInteger) else {
                error("the argument of \(specifier.label) must be \(isInteger ? "an integer" : "a number")", at: specifier.span)
                return
            }
            argument = number
        }
        let name = parameter(argument, label: specifier.label, spelling: specifier.spelling, for: specifier.span)
        emit(name, for: specifier.span)
    }

    /// The escaped key path of a `%K` argument, or nil (reported).
    mutating func keyPath(_ argument: FormatArgument, for specifier: Specifier) -> String? {
        guard let text = argument.keyPathText, let escaped = PredicateFormat.escapedKeyPath(text) else {
            error("the argument of \(specifier.label) must be a key path such as 'budget.name'", at: specifier.span)
            return nil
        }
        return escaped
    }

    /// Whether the text so far ends in the word BETWEEN.
    var followsBetween: Bool {
        var end = output.count
        while end > 0, Self.isSpace(output[end - 1]) { end -= 1 }
        let word = Array("between".utf8)
        guard end >= word.count else { return false }
        let tail = output[(end - word.count)..<end].map { $0 | 0x20 }
        guard tail.elementsEqual(word) else { return false }
        return end == word.count || !Self.isNameByte(output[end - word.count - 1])
    }

    /// `x BETWEEN %@` with the two bounds in a list: `x BETWEEN {$lower, $upper}`.
    mutating func expandBetween(_ argument: FormatArgument, _ specifier: Specifier) {
        guard let bounds = argument.elements, bounds.count == 2 else {
            let held = argument.elements.map { $0.count == 1 ? "1 value" : "\($0.count) values" } ?? "one value"
            error(
                "after BETWEEN, \(specifier.label) takes a list of two values, the lower and upper bounds; its argument holds \(held)",
                at: specifier.span)
            return
        }
        let lower = parameter(
            bounds[0], label: "the lower bound in \(specifier.label)", spelling: specifier.spelling, for: specifier.span,
            suffix: "_lower")
        let upper = parameter(
            bounds[1], label: "the upper bound in \(specifier.label)", spelling: specifier.spelling, for: specifier.span,
            suffix: "_upper")
        emit("{\(lower), \(upper)}", for: specifier.span)
    }

    /// Whether the text so far ends in `IN[c]`, `IN[d]` or `IN[cd]` (any case, any order).
    var followsModifiedIn: Bool {
        var end = output.count
        while end > 0, Self.isSpace(output[end - 1]) { end -= 1 }
        guard end >= 5, output[end - 1] == UInt8(ascii: "]"),
            let open = output[..<end].lastIndex(of: UInt8(ascii: "[")), open >= 2
        else { return false }
        let letters = String(decoding: output[(open + 1)..<(end - 1)], as: UTF8.self).lowercased()
        guard letters.contains(where: { $0 == "c" || $0 == "d" }), Parser.modifierSpellings.contains(letters) else {
            return false
        }
        let word = output[(open - 2)..<open].map { $0 | 0x20 }
        guard word.elementsEqual(Array("in".utf8)) else { return false }
        return open == 2 || !Self.isNameByte(output[open - 3])
    }

    /// `x IN[c] %@` with a list: `x IN[c] {$a_0, $a_1, …}`, each value its own
    /// parameter, since the parser writes `IN[c]` out as one `==[c]` per element.
    mutating func expandModifiedIn(_ elements: [FormatArgument], _ specifier: Specifier) {
        var names: [String] = []
        for (position, element) in elements.enumerated() {
            if element.isNil {
                names.append("nil")
                continue
            }
            names.append(
                parameter(
                    element, label: "value \(position + 1) in \(specifier.label)", spelling: specifier.spelling,
                    for: specifier.span, suffix: "_\(position)"))
        }
        emit("{" + names.joined(separator: ", ") + "}", for: specifier.span)
    }
}
