import PredicateQuery

extension LintRule {
    static let invalidPredicate = LintRule(
        id: "invalid-predicate", severity: .error,
        summary: "a query that does not type-check against its model",
        explanation: """
            The closure compares values of different types, applies an operator to a value that has \
            none, names an enum case the enum does not declare, or otherwise does not type-check against \
            the model's properties: the `#Predicate` macro's closure does not compile. This rule also \
            takes any diagnostic of pq's checker that no other rule claims.
            """,
        evidence: "The Swift compiler: the #Predicate closure is type-checked against the model like any other Swift.",
        codes: [
            .unknownEntity, .missingEntity, .ambiguousEntity, .deadlinePassed, .typeMismatch, .notOrderable, .notAString,
            .modifierNotApplicable, .toManyWithoutQuantifier, .quantifierWithoutToMany, .quantifierAmbiguous,
            .unknownEnumCase, .enumCaseWithoutContext, .invalidRegex, .parameterTypeConflict, .parameterTypeUnknown,
            .closureArgumentOutsideClosure, .unqueryableAttribute, .unsortableKey, .notABoolean, .invalidLiteral,
            .invalidMembership, .invalidArithmetic, .invalidNilComparison, .relationshipComparison, .notACollection,
            .invalidAggregate, .filterNotACondition, .unknownVariable, .sqlLikePattern,
        ],
        examples: [
            .withModels("let p = #Predicate<Trip> { $0.days == \"seven\" }", triggers: true),
            .withModels("let p = #Predicate<Trip> { $0.days == 7 }", triggers: false),
        ])
}
