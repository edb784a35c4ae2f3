// Foundation values written inside a closure, read as the text language's
// built-in functions: `Date(timeIntervalSinceReferenceDate: 736_214_400)`,
// `Date(timeIntervalSince1970: …)` and `Date("2024-05-01T00:00:00Z", strategy: .iso8601)`
// are `date('2024-05-01T00:00:00Z')`; `UUID(uuidString: "…")!` is `uuid('…')`;
// `Calendar.current.startOfDay(for: .now)` is `today()`. `#Predicate` cannot
// call an initializer or `Calendar` inside its closure, so each is recorded as a
// foreign spelling: in an app, compute the value outside and capture it.

import PredicateQuery

extension SwiftPredicateParser {
    /// The value a Foundation initializer or `Calendar` call starting at `token` (already consumed) gives, or nil.
    mutating func foundationValue(_ token: SwiftToken) throws(Failure) -> Expr? {
        let start = span(of: token)
        switch token.text {
        case "Date"
        where isPunctuation("(") && (isWord("timeIntervalSinceReferenceDate", at: 1) || isWord("timeIntervalSince1970", at: 1)):
            let since1970 = isWord("timeIntervalSince1970", at: 1)
            advance()
            advance()
            _ = try expect(":", "':'")
            let argument = try parseNested()
            let close = try expect(")", "')' to end the call to 'Date'")
            guard let seconds = Self.seconds(argument), seconds.isFinite, abs(seconds) < 1e12 else {
                throw fail("pq reads a date from a number literal only; capture a computed date instead", at: argument.span)
            }
            let text = Self.isoDate(secondsSinceReferenceDate: since1970 ? seconds - 978_307_200 : seconds)
            return dateValue(text, span: start.merged(with: close), what: "Date(…)")
        case "Date" where isPunctuation("(") && self.token(1)?.kind == .string:
            advance()
            let text = advance()?.text ?? ""
            if isPunctuation(",") {
                advance()
                guard isWord("strategy"), isPunctuation(":", at: 1) else {
                    throw fail("expected 'strategy: .iso8601'", at: currentSpan)
                }
                advance()
                advance()
                let strategy = try parseNested()
                guard case .enumCase("iso8601") = strategy.kind else {
                    throw fail("pq reads dates in the .iso8601 strategy only", at: strategy.span, code: .swiftUnsupported)
                }
            }
            let close = try expect(")", "')' to end the call to 'Date'")
            return dateValue(text, span: start.merged(with: close), what: "Date(_:strategy:)")
        case "UUID" where isPunctuation("(") && isWord("uuidString", at: 1) && isPunctuation(":", at: 2):
            advance()
            advance()
            advance()
            let argument = try parseNested()
            let close = try expect(")", "')' to end the call to 'UUID'")
            let span = start.merged(with: close)
            noteForeign(span, "'UUID(uuidString:)'", advice: "make the UUID outside the closure and capture it")
            return Expr(.call(.uuid, [argument]), span: span)
        case "Calendar"
        where isPunctuation(".") && isWord("current", at: 1) && isPunctuation(".", at: 2)
            && isWord("startOfDay", at: 3) && isPunctuation("(", at: 4) && isWord("for", at: 5):
            for _ in 0..<6 { advance() }
            _ = try expect(":", "':'")
            let day = try parseNested()
            let isNow: Bool
            switch day.kind {
            case .call(.now, _), .enumCase("now"): isNow = true
            default: isNow = false
            }
            guard isNow else {
                throw fail(
                    "pq reads 'startOfDay(for:)' of the current moment only (.now); capture any other day", at: day.span,
                    code: .swiftUnsupported)
            }
            let close = try expect(")", "')' to end the call to 'startOfDay'")
            let span = start.merged(with: close)
            noteForeign(
                span, "'Calendar.current.startOfDay(for:)'",
                advice: "compute the start of the day outside the closure and capture it")
            return Expr(.call(.today, []), span: span)
        default:
            return nil
        }
    }

    mutating func dateValue(_ text: String, span: SourceSpan, what: String) -> Expr {
        noteForeign(span, "'\(what)'", advice: "make the date outside the closure and capture it")
        return Expr(.call(.date, [Expr(.literal(.string(text)), span: span)]), span: span)
    }

    /// `2024-05-01T10:30:00Z` (with fractional seconds when there are any) for seconds since 2001-01-01 UTC.
    static func isoDate(secondsSinceReferenceDate seconds: Double) -> String {
        let unix = seconds + 978_307_200
        let whole = unix.rounded(.down)
        var days = Int64(whole) / 86_400
        var rest = Int64(whole) % 86_400
        if rest < 0 {
            rest += 86_400
            days -= 1
        }
        let (year, month, day) = CivilDate.date(fromDays: days)
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        var text = "\(year)-\(two(month))-\(two(day))T\(two(rest / 3_600)):\(two(rest % 3_600 / 60)):\(two(rest % 60))"
        let fraction = unix - whole
        if fraction > 0 {
            let millis = Int64((fraction * 1_000).rounded())
            text += "." + String(String(millis + 1_000).dropFirst())
        }
        return text + "Z"
    }
}
