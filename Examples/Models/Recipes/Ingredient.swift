import Foundation
import SwiftData

@Model
final class Ingredient {

    let name: String

    @Relationship(inverse: \Recipe.ingredients)
    var recipes: [Recipe] = []

    init(name: String) {
        self.name = name
    }
}
