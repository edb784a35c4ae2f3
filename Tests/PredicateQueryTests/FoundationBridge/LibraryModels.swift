// A model no other test uses, for the Foundation export: its own classes, enums
// with Int and String raw values (one optional), optional to-one relationships
// two deep, a to-many and an optional to-many. The same data is built twice: as
// Swift objects (what Foundation's `Predicate` evaluates) and as pq's object
// graph (what pq's evaluator, the reference meaning, runs on).

import Foundation
import PredicateQuery

enum BookFormat: String, QueryEnum { case hardcover, paperback, ebook }
enum Shelf: Int, QueryEnum { case fiction = 1, science, history }

final class Country: QueryModel {
    var code: String
    var authors: [Author] = []
    init(code: String) { self.code = code }
    static var queryProperties: [QueryProperty<Country>] {
        [.attribute(\.code), .toMany(\.authors, inverse: \Author.country)]
    }
}

final class Author: QueryModel {
    var name: String
    var born: Int
    var country: Country?
    var books: [Book] = []
    init(name: String, born: Int) {
        self.name = name
        self.born = born
    }
    static var queryProperties: [QueryProperty<Author>] {
        [
            .attribute(\.name), .attribute(\.born), .toOne(\.country, inverse: \Country.authors),
            .toMany(\.books, inverse: \Book.author),
        ]
    }
}

final class Book: QueryModel {
    var title: String
    var pages: Int
    var price: Double
    var rating: Double?
    var format: BookFormat
    var shelf: Shelf?
    var published: Date
    var isbn: UUID?
    var subtitle: String?
    var author: Author?
    var reviews: [Review] = []
    var labels: [Label]?
    init(title: String, pages: Int, price: Double, format: BookFormat, published: Date) {
        self.title = title
        self.pages = pages
        self.price = price
        self.format = format
        self.published = published
    }
    static var queryProperties: [QueryProperty<Book>] {
        [
            .attribute(\.title), .attribute(\.pages), .attribute(\.price), .attribute(\.rating), .attribute(\.format),
            .attribute(\.shelf), .attribute(\.published), .attribute(\.isbn), .attribute(\.subtitle),
            .toOne(\.author, inverse: \Author.books), .toMany(\.reviews, inverse: \Review.book),
            .toMany(\.labels, inverse: \Label.books),
        ]
    }
}

final class Review: QueryModel {
    var stars: Int
    var text: String?
    var book: Book?
    init(stars: Int, text: String?) {
        self.stars = stars
        self.text = text
    }
    static var queryProperties: [QueryProperty<Review>] {
        [.attribute(\.stars), .attribute(\.text), .toOne(\.book, inverse: \Book.reviews)]
    }
}

final class Label: QueryModel {
    var name: String
    var books: [Book] = []
    init(name: String) { self.name = name }
    static var queryProperties: [QueryProperty<Label>] {
        [.attribute(\.name), .toMany(\.books, inverse: \Book.labels)]
    }
}

/// The library as Swift objects and as pq's object graph, object for object.
struct Library {
    var graph: ObjectGraph
    var books: [(id: ObjectID, book: Book)] = []

    init(seed: UInt64 = 7, bookCount: Int = 60) {
        var random = LibraryRandom(seed)
        graph = ObjectGraph(schema: Schema(models: [Book.self]))
        let countries = ["SE", "JP", "BR"].map { code in (graph.insert("Country", ["code": .string(code)]), Country(code: code)) }
        var authors: [(ObjectID, Author)] = []
        for index in 0..<8 {
            let name = ["Astrid", "Haruki", "Clarice", "Ursula", "Émile", "Zoë", "Ōe", "Anon"][index]
            let born = 1900 + Int(random.next() % 100)
            let id = graph.insert("Author", ["name": .string(name), "born": .int(Int64(born))])
            let author = Author(name: name, born: born)
            if index % 4 != 3 {
                let (countryID, country) = countries[index % 3]
                graph.link(id, "country", to: countryID)
                author.country = country
                country.authors.append(author)
            }
            authors.append((id, author))
        }
        let labels = ["classic", "new", "Classic", "prize"].map { name in (graph.insert("Label", ["name": .string(name)]), Label(name: name)) }
        let titles = [
            "Dune", "Emma", "Ubik", "Solaris", "Beloved", "Kindred", "Snow Country", "The Dispossessed", "Pippi", "Norwegian Wood",
            "Hour of the Star", "café society", "Cafe\u{301} Stories", "", "Zen", "über alles",
        ]
        for index in 0..<bookCount {
            let title = titles[index % titles.count] + (index >= titles.count ? " \(index / titles.count)" : "")
            let pages = Int(random.next() % 900) + (index % 7 == 0 ? 0 : 50)
            let price = Double(random.next() % 4000) / 100
            let format = [BookFormat.hardcover, .paperback, .ebook][index % 3]
            let published = Date(timeIntervalSinceReferenceDate: Double(random.next() % 800_000_000) - 200_000_000)
            var values: [String: Value] = [
                "title": .string(title), "pages": .int(Int64(pages)), "price": .double(price),
                "format": .string(format.rawValue), "published": .date(published),
            ]
            let book = Book(title: title, pages: pages, price: price, format: format, published: published)
            if index % 3 != 0 {
                let rating = Double(random.next() % 50) / 10
                values["rating"] = .double(rating)
                book.rating = rating
            }
            if index % 4 != 1 {
                let shelf = [Shelf.fiction, .science, .history][index % 3]
                values["shelf"] = .int(Int64(shelf.rawValue))
                book.shelf = shelf
            }
            if index % 5 == 0 {
                let isbn = UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", index)) ?? UUID()
                values["isbn"] = .uuid(isbn)
                book.isbn = isbn
            }
            if index % 2 == 0 {
                values["subtitle"] = .string(index % 4 == 0 ? "A Novel" : "")
                book.subtitle = index % 4 == 0 ? "A Novel" : ""
            }
            let id = graph.insert("Book", values)
            if index % 6 != 5 {
                let (authorID, author) = authors[index % authors.count]
                graph.link(id, "author", to: authorID)
                book.author = author
                author.books.append(book)
            }
            for reviewIndex in 0..<(index % 4) {
                let stars = Int(random.next() % 5) + 1
                let text: String? = reviewIndex % 2 == 0 ? ["great", "dull", "Great read"][index % 3] : nil
                var reviewValues: [String: Value] = ["stars": .int(Int64(stars))]
                if let text { reviewValues["text"] = .string(text) }
                let reviewID = graph.insert("Review", reviewValues)
                graph.link(reviewID, "book", to: id)
                let review = Review(stars: stars, text: text)
                review.book = book
                book.reviews.append(review)
            }
            // Labels: nil for some books, empty for others, some for the rest.
            switch index % 3 {
            case 0: book.labels = nil
            case 1: book.labels = []
            default:
                book.labels = []
                for (labelID, label) in labels where random.next() % 2 == 0 {
                    graph.link(id, "labels", to: labelID)
                    book.labels?.append(label)
                    label.books.append(book)
                }
            }
            books.append((id, book))
        }
    }
}

/// SplitMix64, so the library is the same on every run.
struct LibraryRandom {
    private var state: UInt64
    init(_ seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
