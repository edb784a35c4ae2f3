// NSExpression's functions in a format string: `max(%@)`, `sum({1, %d})`,
// `count(%K)`, `average(transactions.amount)`. Over a list of values they are
// worked out before the query runs (a list of text arguments, once the query
// types it); over a to-many key path they become pq's aggregates.

import Foundation

extension FormatExpander {
    /// Expands the call of a `FormatFunction` starting at `index`, if one does;
    /// false (nothing consumed) otherwise.
    mutating func expandFunction() -> Bool {
        var end = index
        while end < format.count, Self.isNameByte(format[end]) { end += 1 }
        guard let function = FormatFunction(rawValue: String(decoding: format[index..<end], as: UTF8.self)) else {
            return false
        }
        var open = end
        while open < format.count, format[open] == UInt8(ascii: " ") { open += 1 }
        guard open < format.count, format[open] == UInt8(ascii: "("), let close = matching(from: open) else { return false }
        let call = SourceSpan(start: index, end: close + 1)
        let spelling = String(decoding: format[call.start..<call.end], as: UTF8.self)
        var inner = (open + 1)..<close
        while !inner.isEmpty, format[inner.lowerBound] == UInt8(ascii: " ") { inner = (inner.lowerBound + 1)..<inner.upperBound }
        while !inner.isEmpty, format[inner.upperBound - 1] == UInt8(ascii: " ") {
            inner = inner.lowerBound..<(inner.upperBound - 1)
        }
        index = close + 1
        let text = String(decoding: format[inner], as: UTF8.self)
        let first = inner.isEmpty ? 0 : format[inner.lowerBound]
        if text == "%@" || text == "%K" {
            index = inner.lowerBound
            guard let raw = readSpecifier() else { return true }
            index = close + 1
            let specifier = labelled(raw)
            guard let argument = takeArgument(for: specifier) else { return true }
            if text == "%K" {
                guard let path = keyPath(argument, for: specifier) else { return true }
                aggregate(function, path: path, call: call)
                return true
            }
            guard let elements = argument.elements else {
                error("\(function.rawValue)(…) takes a list; the argument of \(specifier.label) is one value", at: call)
                return true
            }
            if function == .count {
                let name = parameter(.value(.int(Int64(elements.count))), label: specifier.label, spelling: spelling, for: call)
                emit(name, for: call)
                return true
            }
            let name = parameter(argument, label: specifier.label, spelling: spelling, for: call)
            functions[String(name.dropFirst())] = function
            emit(name, for: call)
            return true
        }
        if first == UInt8(ascii: "{") || first == UInt8(ascii: "["), let listEnd = matching(from: inner.lowerBound),
            listEnd == inner.upperBound - 1
        {
            constantList(function, body: (inner.lowerBound + 1)..<listEnd, call: call, spelling: spelling)
            return true
        }
        if PredicateFormat.escapedKeyPath(text) != nil {
            aggregate(function, path: text, call: call)
            return true
        }
        error(
            "pq reads \(function.rawValue)(…) over a list, as in '\(function.rawValue)(%@)' or '\(function.rawValue)({1, 2})', or over a to-many key path, as in '\(function.rawValue)(transactions.amount)'",
            at: call)
        return true
    }

    /// The offset of the bracket closing the one at `open`, skipping quoted text.
    func matching(from open: Int) -> Int? {
        var depth = 0
        var quote: UInt8?
        var offset = open
        while offset < format.count {
            let byte = format[offset]
            if let open = quote {
                if byte == UInt8(ascii: "\\") { offset += 1 } else if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\"") {
                quote = byte
            } else if byte == UInt8(ascii: "(") || byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                depth += 1
            } else if byte == UInt8(ascii: ")") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
                depth -= 1
                if depth == 0 { return offset }
            }
            offset += 1
        }
        return nil
    }

    /// `sum(transactions.amount)` as `transactions.@sum.amount`; `count(tags)` as `tags.@count`.
    mutating func aggregate(_ function: FormatFunction, path: String, call: SourceSpan) {
        if function == .count {
            emit(path + ".@count", for: call)
            return
        }
        guard let dot = path.lastIndex(of: ".") else {
            error(
                "\(function.rawValue)(…) over a key path needs the to-many relationship and the attribute, as in '\(function.rawValue)(transactions.amount)'",
                at: call)
            return
        }
        emit(path[..<dot] + "." + function.aggregateOperator + path[dot...], for: call)
    }

    /// `max({1, %d, 2.5})`: a constant, worked out now. Written numbers stay text the
    /// user wrote; with arguments among them, the result is bound as a parameter.
    mutating func constantList(_ function: FormatFunction, body: Range<Int>, call: SourceSpan, spelling: String) {
        var values: [Value] = []
        var usesArguments = false
        var label = ""
        let text = String(decoding: format[body], as: UTF8.self)
        var offset = body.lowerBound
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let partStart = offset
            offset += part.utf8.count + 1
            let element = part.trimmingCharacters(in: .whitespaces)
            if element.isEmpty, text.trimmingCharacters(in: .whitespaces).isEmpty { break }
            if let number = Int64(element.replacingOccurrences(of: "_", with: "")) {
                values.append(.int(number))
            } else if let number = Double(element.replacingOccurrences(of: "_", with: "")), !element.contains("n") {
                values.append(.double(number))
            } else if element.hasPrefix("%") {
                let leading = part.utf8.prefix { $0 == UInt8(ascii: " ") }.count
                index = partStart + leading
                guard let raw = readSpecifier() else { return }
                let specifier = labelled(raw)
                if label.isEmpty { label = specifier.label }
                guard let argument = takeArgument(for: specifier) else { return }
                let integer = Self.integerConversions.contains(specifier.conversion)
                guard let number = argument.number(integer: integer), case .value(let value) = number else {
                    error("the argument of \(specifier.label) in \(function.rawValue)(…) must be a number", at: specifier.span)
                    index = call.end
                    return
                }
                values.append(value)
                usesArguments = true
            } else {
                error(
                    "pq works out \(function.rawValue)(…) of a list of numbers and number arguments; '\(element)' is neither",
                    at: call)
                index = call.end
                return
            }
        }
        index = call.end
        guard let result = function.apply(values) else { return }
        if usesArguments {
            emit(
                parameter(.value(result), label: label, spelling: spelling, for: call, suffix: "_" + function.rawValue), for: call
            )
            return
        }
        switch result {
        case .int(let number): emit(String(number), for: call)
        case .double(let number): emit(String(number), for: call)
        default: emit("nil", for: call)
        }
    }
}
