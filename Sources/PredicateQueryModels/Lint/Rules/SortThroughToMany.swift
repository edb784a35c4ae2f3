import PredicateQuery

extension LintRule {
    static let sortThroughToMany = LintRule(
        id: "sort-through-to-many", severity: .error,
        summary: "a sort key through a to-many relationship, which has no single value per object",
        explanation: """
            A sort key must give each object one value. Through a to-many relationship \
            (`\\Traveller.trips.count`, `\\Trip.tags.name`) there are many or none, so the store cannot \
            sort by it. Store the value to sort by (a count kept up to date) or sort the fetched objects \
            in Swift.
            """,
        evidence:
            "What the lint said before its catalog: 'cannot sort by … a to-many relationship'. No OS version or reference is recorded yet.",
        codes: [.sortByToMany],
        examples: [
            .withModels("let busiest = SortDescriptor(\\Traveller.trips.count, order: .reverse)", triggers: true),
            .withModels("let byName = SortDescriptor(\\Traveller.name)", triggers: false),
        ])
}
