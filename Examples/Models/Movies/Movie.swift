import Foundation
import SwiftData

@Model
class Movie {
    var name: String
    var genre: Genre

    init(name: String, genre: Genre) {
        self.name = name
        self.genre = genre
    }
}
