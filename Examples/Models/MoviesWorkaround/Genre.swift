import Foundation

enum Genre: Int, Codable {
    case action = 1
    case kids
    case horror
}
