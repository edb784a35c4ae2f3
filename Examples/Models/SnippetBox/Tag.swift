import Foundation
import SwiftData

@Model final public class Tag {
    var name: String
    var snippets: [Snippet] = []
    var colorData: ColorData = ColorData(red: 1, green: 1, blue: 1, opacity: 1)

    init(name: String) {
        self.name = name
    }
}
