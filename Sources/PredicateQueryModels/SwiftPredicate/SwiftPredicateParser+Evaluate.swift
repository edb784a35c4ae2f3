// `p.evaluate(x)` followed into `p`: when the predicate or expression `p` is
// declared where the site can see it (`let p = #Predicate<Trip> { … }` in the same
// function or type), its closure is read with its parameter standing for `x`, and
// the site is checked as one predicate, as SwiftData translates it (it inlines an
// evaluated predicate, iOS 17.4+, and an `#Expression`, iOS 18+). Anything else — a
// predicate passed in, one whose body pq cannot read, an argument pq cannot read —
// is accepted unread (`acceptedEvaluate`), never guessed.
//
// The followed body is not reported on again: its own `#Predicate` is a site of its
// own, so its errors are that site's. What following adds is the site's meaning as
// a whole: rules about the combination (a relationship's nil test inside a compound
// predicate), the type check of `p`'s model against the argument's, and the SQL.

import PredicateQuery

extension SwiftPredicateParser {
    /// `evaluate(…)` of `name` read as the body of its declaration, or nil when it cannot be followed
    /// (then nothing was consumed).
    mutating func followedEvaluate(of name: String) -> Expr? {
        guard let closure = followable[name], !following.contains(name), isPunctuation("(") else { return nil }
        let saved = self
        // One argument, read as any operand is: `$0`, `trip`, `$0.trip`.
        advance()
        guard let argument = try? parseExpression(), isPunctuation(")"), diagnostics.count == saved.diagnostics.count else {
            self = saved
            return nil
        }
        advance()
        var inner = SwiftPredicateParser(tokens: tokens, range: closure, sourceLength: sourceLength)
        inner.acceptsEvaluate = acceptsEvaluate
        inner.followable = followable
        inner.following = following.union([name])
        // Closures nested in the body are numbered on from the site's own.
        inner.anonymous = anonymous
        guard let body = inner.parseFollowedClosure(standingFor: argument), !inner.diagnostics.containsErrors else {
            self = saved
            return nil
        }
        for captured in inner.capturedNames where !capturedNames.contains(captured) { capturedNames.append(captured) }
        for evaluated in inner.evaluated where !self.evaluated.contains(evaluated) { self.evaluated.append(evaluated) }
        flatMapGuards.merge(inner.flatMapGuards) { current, _ in current }
        return body
    }

    /// `{ x in … }` (or `{ … $0 … }`), the whole of this parser's range, with its parameter standing
    /// for `argument`; nil if it is not one closure pq reads.
    mutating func parseFollowedClosure(standingFor argument: Expr) -> Expr? {
        do {
            _ = try expect("{", "'{'")
            let named = closureParameter()
            // `p.evaluate($0)`: the parameter is the site's object (or element) itself, and a path
            // written from it in `p` points into `p`'s own text.
            var binding = Binding.value(argument)
            if case .keyPath(let path) = argument.kind, path.components.isEmpty { binding = .root(path.root) }
            scopes.append(named.map { [$0: binding] } ?? [:])
            anonymous.append(binding)
            let body = try parseBody()
            _ = try expect("}", "'}' to end the closure")
            guard atEnd else { return nil }
            reportUnresolved()
            return body
        } catch {
            return nil
        }
    }
}
