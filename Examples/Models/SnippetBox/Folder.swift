import Foundation
import SwiftData

@Model final public class Folder {
    @Attribute(.unique) public var id: String
    @Attribute(originalName: "name") var newName: String
    var creationDate: Date

    @Relationship(deleteRule: .cascade, inverse: \Snippet.folder)
    var snippets: [Snippet]

    init(id: String = UUID().uuidString, newName: String, creationDate: Date = Date()) {
        self.id = id
        self.newName = newName
        self.creationDate = creationDate
        self.snippets = []
    }
}
