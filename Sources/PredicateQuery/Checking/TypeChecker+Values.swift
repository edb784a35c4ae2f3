// Operands: literals (which take the type their context expects, so `'2024-05-01'`
// is a Date next to a Date attribute and `2` is `Genre.kids` next to a Genre),
// enum cases, parameters, built-in functions and key paths used as values.

extension TypeChecker {
    /// A key path in value position: an attribute, an enum constant, or an object (for nil tests).
    mutating func checkValuePath(_ path: PropertyPath, at span: SourceSpan) -> TypedExpr? {
        guard let target = resolve(path) else { return nil }
        switch target {
        case .attribute(let attributePath):
            return .attribute(attributePath, ValueType(attributePath.attribute.type, in: schema))
        case .object(let objectPath):
            return .object(objectPath)
        case .enumConstant(let enumType, let enumCase):
            return Self.enumConstant(enumType, enumCase)
        case .collection(_, _, let relationship, _, let remaining):
            let name = relationship.relationship.name
            let example = remaining.isEmpty ? "\(name).count > 0" : "any \(Printer.print(Expr(.keyPath(path)))) == …"
            return error(
                .toManyWithoutQuantifier,
                "'\(name)' is a to-many relationship; say which of its elements you mean",
                at: span,
                notes: [DiagnosticNote("use 'any', 'all' or 'none', 'contains(where:)', or an aggregate, as in '\(example)'")])
        }
    }

    static func enumConstant(_ enumType: EnumType, _ enumCase: EnumType.Case) -> TypedExpr {
        switch enumCase.rawValue {
        case .int(let value): .constant(.int(value), .enumeration(enumType))
        case .string(let value): .constant(.string(value), .enumeration(enumType))
        }
    }

    /// A literal, converted to the expected type where that is a Double, Date, UUID, URL or enum.
    mutating func checkLiteral(_ literal: Literal, expecting expected: ValueType?, at span: SourceSpan) -> TypedExpr? {
        switch literal {
        case .integer(let value):
            switch expected {
            // Next to a Double an integer literal is a Double, when it is one exactly;
            // beyond 2^53 it stays an Int and compares exactly.
            case .double? where Double(exactly: value) != nil: return .constant(.double(Double(value)), .double)
            case .enumeration(let enumType)? where enumType.rawType == .int:
                return checkRawValue(.int(value), of: enumType, at: span)
            // NSPredicate compares a Boolean with 1 and 0 (`isDone == 1`), as NSNumber does.
            case .bool? where value == 0 || value == 1:
                return .constant(.bool(value == 1), .bool)
            default: return .constant(.int(value), .int)
            }
        case .decimal(let value):
            return .constant(.double(value), .double)
        case .string(let text):
            switch expected {
            case .date?:
                guard let date = LiteralParsing.date(text) else {
                    return error(
                        .invalidLiteral, "'\(text)' is not an ISO 8601 date", at: span,
                        notes: [DiagnosticNote("write dates as '2024-05-01' or '2024-05-01T10:30:00Z'")])
                }
                return .constant(.date(date), .date)
            case .uuid?:
                guard let uuid = LiteralParsing.uuid(text) else {
                    return error(
                        .invalidLiteral, "'\(text)' is not a UUID", at: span,
                        notes: [DiagnosticNote("write UUIDs as 'E621E1F8-C36C-495A-93FC-0C247A3E6E5F'")])
                }
                return .constant(.uuid(uuid), .uuid)
            case .url?: return .constant(.string(text), .url)
            case .enumeration(let enumType)? where enumType.rawType == .string:
                return checkRawValue(.string(text), of: enumType, at: span)
            default: return .constant(.string(text), .string)
            }
        case .bool(let value):
            // …and a number with YES and NO (`count > NO`), as 1 and 0.
            switch expected {
            case .int?: return .constant(.int(value ? 1 : 0), .int)
            case .double?: return .constant(.double(value ? 1 : 0), .double)
            default: return .constant(.bool(value), .bool)
            }
        case .null:
            return .constant(.null, .null)
        case .duration(let amount, let unit):
            return .constant(.double(amount * unit.seconds), .duration)
        }
    }

    /// A raw-value literal standing for an enum case; it must be one of the declared raw values.
    private mutating func checkRawValue(_ rawValue: EnumType.RawValue, of enumType: EnumType, at span: SourceSpan) -> TypedExpr? {
        guard let enumCase = enumType.enumCase(rawValue: rawValue) else {
            return error(
                .unknownEnumCase, "'\(enumType.name)' has no case with raw value \(rawValue)", at: span,
                notes: Self.enumCaseNotes(enumType, near: nil))
        }
        return Self.enumConstant(enumType, enumCase)
    }

    /// `.name`: a case of the enum the context expects.
    mutating func checkEnumCase(_ name: String, expecting expected: ValueType?, at span: SourceSpan) -> TypedExpr? {
        guard case .enumeration(let enumType)? = expected else {
            let note =
                expected.flatMap { $0 == .bool ? nil : $0 }.map {
                    DiagnosticNote("the other operand is of type '\($0)', not an enum")
                } ?? DiagnosticNote("compare it with an enum property, as in 'genre == .\(name)'")
            return error(
                .enumCaseWithoutContext, "cannot infer contextual base in reference to member '\(name)'",
                at: span, notes: [note])
        }
        guard let enumCase = enumType.enumCase(named: name) else {
            return error(
                .unknownEnumCase, "type '\(enumType.name)' has no member '\(name)'", at: span,
                notes: Self.enumCaseNotes(enumType, near: name))
        }
        return Self.enumConstant(enumType, enumCase)
    }

    /// `$name`: typed by its first use; later uses must agree.
    mutating func checkParameter(_ name: String, expecting expected: ValueType?, at span: SourceSpan) -> TypedExpr? {
        if name.first?.isNumber == true {
            return error(
                .closureArgumentOutsideClosure, "anonymous closure argument not contained in a closure", at: span,
                notes: [
                    DiagnosticNote("'$\(name)' names the element inside 'contains { … }', 'allSatisfy { … }' or 'filter { … }'")
                ])
        }
        if let existing = parameters.first(where: { $0.name == name }) {
            if let expected, expected != .null, expected != existing.type {
                return error(
                    .parameterTypeConflict,
                    "parameter '$\(name)' is used as '\(expected)' here, but as '\(existing.type)' before",
                    at: span, notes: [DiagnosticNote("first used here", at: existing.span)])
            }
            return .parameter(name, existing.type)
        }
        guard let expected, expected != .null else {
            return error(
                .parameterTypeUnknown, "cannot infer the type of parameter '$\(name)'", at: span,
                notes: [DiagnosticNote("compare it with a property, as in 'name == $\(name)'")])
        }
        parameters.append(ParameterDeclaration(name: name, type: expected, span: span))
        return .parameter(name, expected)
    }

    /// Declares a parameter of a known type; false (after reporting) if it is used at another type.
    mutating func declareParameter(_ name: String, type: ValueType, at span: SourceSpan) -> Bool {
        checkParameter(name, expecting: type, at: span) != nil
    }

    /// `date('…')`, `uuid('…')`, `now()`, `today()`.
    mutating func checkCall(_ function: BuiltinFunction, _ arguments: [Expr], at span: SourceSpan) -> TypedExpr? {
        switch function {
        case .now, .today:
            guard arguments.isEmpty else {
                return error(.invalidLiteral, "\(function.rawValue)() takes no arguments", at: span)
            }
            return .currentDate(function)
        case .date, .uuid:
            guard arguments.count == 1, case .literal(.string(let text)) = arguments[0].kind else {
                return error(.invalidLiteral, "\(function.rawValue)() takes one string literal", at: span)
            }
            let expected: ValueType = function == .date ? .date : .uuid
            return checkLiteral(.string(text), expecting: expected, at: arguments[0].span)
        }
    }
}
