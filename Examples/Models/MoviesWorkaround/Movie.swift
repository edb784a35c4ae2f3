import Foundation
import SwiftData

// The workaround the articles recommend while SwiftData cannot filter on enums:
// store the raw value, and compute the enum from it.
@Model
class Movie {
    var name: String
    var genreId: Int

    var genre: Genre {
        Genre(rawValue: genreId)!
    }

    init(name: String, genre: Genre) {
        self.name = name
        self.genreId = genre.rawValue
    }
}
