import Foundation
import SwiftData

@Model final public class Snippet {
    let uuid: UUID
    let creationDate: Date
    var code: String
    @Attribute(.externalStorage)
    var image: Data?
    var isFavorite: Bool
    var notes: String
    @Transient
    var title: String = ""
    var language: CodingLanguage?

    var folder: Folder?

    @Relationship(inverse: \Tag.snippets)
    var tags: [Tag]? = nil

    init(
        code: String = "",
        image: Data? = nil,
        isFavorite: Bool = false,
        language: CodingLanguage? = nil,
        notes: String = "",
        folder: Folder? = nil,
        tags: [Tag] = []
    ) {
        self.creationDate = Date()
        self.uuid = UUID()
        self.image = image
        self.code = code
        self.isFavorite = isFavorite
        self.language = language
        self.notes = notes
        self.folder = folder
        self.tags = tags
    }
}
