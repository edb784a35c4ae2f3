import Foundation
import SwiftData

@Model
final class Recipe {
    let name: String

    init(name: String) {
        self.name = name
    }

    @Relationship
    var ingredients: [Ingredient] = []
}
