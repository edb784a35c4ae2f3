import Foundation
import SwiftData

@Model class Pet {
    var name: String
    var age: Int
    var owner: User?

    init(name: String, age: Int) {
        self.name = name
        self.age = age
    }
}
