// `now()` and `today()` as Swift source. A Foundation predicate pq builds holds
// the date `now() - 7d` stands for at the moment it is built: right for a
// predicate used at once, wrong for source pasted into an app, which must compute
// it each time the app runs. So `foundationSource()` writes each captured date
// that comes from `now()` or `today()` as the Swift that computes it
// (`Date.now.addingTimeInterval(-604800.0)`), found by its value: the export
// and this walk compute the same dates, with the same environment.

import Foundation

enum CurrentDateSource {
    /// The Swift source of each date in `expr` computed from `now()` or `today()`
    /// alone, by the date `evaluator` gives it; and whether such a date has a form
    /// with no Swift spelling here (it then prints as the moment it was built).
    static func sources(in expr: TypedExpr, evaluator: Evaluator) -> (sources: [Date: String], unwritten: Bool) {
        var sources: [Date: String] = [:]
        var unwritten = false
        // Dates written in the query: one equal to a computed date would take its source.
        var written: Set<Date> = []
        func walk(_ expr: TypedExpr) {
            if case .constant(.date(let date), _) = expr { written.insert(date) }
            if expr.type == .date, readsCurrentDate(expr), expr.readsNoObject {
                if let source = swift(expr), case .date(let date)? = try? evaluator.value(expr, []) {
                    sources[date] = source
                } else {
                    unwritten = true
                }
                return
            }
            expr.forEachChild(walk)
        }
        walk(expr)
        for date in written where sources.removeValue(forKey: date) != nil { unwritten = true }
        return (sources, unwritten)
    }

    /// The Swift expression for a date computed from `now()` or `today()` and
    /// durations: nil for any other form.
    static func swift(_ expr: TypedExpr) -> String? {
        switch expr {
        case .currentDate(.now): return "Date.now"
        case .currentDate(.today): return "Calendar(identifier: .gregorian).startOfDay(for: .now)"
        case .arithmetic(let op, let date, .constant(.double(let seconds), _), .date) where op == .add || op == .subtract:
            guard let base = swift(date), seconds.isFinite else { return nil }
            return "\(base).addingTimeInterval(\(op == .add ? seconds : -seconds))"
        case .arithmetic(.add, .constant(.double(let seconds), _), let date, .date):
            guard let base = swift(date), seconds.isFinite else { return nil }
            return "\(base).addingTimeInterval(\(seconds))"
        default: return nil
        }
    }

    /// Whether `now()` or `today()` is in the expression.
    private static func readsCurrentDate(_ expr: TypedExpr) -> Bool {
        if case .currentDate = expr { return true }
        return expr.anyChild(readsCurrentDate)
    }
}
