import Foundation

enum CodingLanguage: String, Codable, CaseIterable, Identifiable {
    case swift
    case objectivec
    case python
    case css
    case typescript

    var id: Self { return self }
}
