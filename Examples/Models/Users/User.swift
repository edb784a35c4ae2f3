import Foundation
import SwiftData

@Model class User {
    @Attribute(.unique) var name: String
    var age: Int
    var children: [User]
    @Relationship(deleteRule: .cascade, inverse: \Pet.owner)
    var pets: [Pet]

    init(name: String, age: Int, children: [User] = [], pets: [Pet] = []) {
        self.name = name
        self.age = age
        self.children = children
        self.pets = pets
    }
}
