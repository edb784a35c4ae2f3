// The example models in Examples/Models, read from their Swift sources, are the
// schemas ExampleSchemas declares through the API.

import Foundation
import PredicateQuery
import PredicateQueryExamples
import Testing

@testable import PredicateQueryModels

struct SwiftModelSourceExampleTests {
    @Test(arguments: ExampleSchemas.byName.map(\.name))
    func exampleFolderReadsAsItsExampleSchema(_ name: String) throws {
        let expected = try #require(ExampleSchemas.byName.first { $0.name == name }?.schema)
        let files = try SwiftModelSourceTestSupport.exampleFiles(name)
        #expect(!files.isEmpty)
        let (schema, warnings) = SwiftModelSource.schema(from: files)
        #expect(warnings.isEmpty, "\(warnings.map(\.description))")
        #expect(SwiftModelSourceTestSupport.normalized(schema) == SwiftModelSourceTestSupport.normalized(expected))
        #expect(schema.validate().isEmpty, "\(schema.validate().map(\.message))")
        // Field by field, so a difference is easy to find.
        for entity in expected.entities {
            let read = schema.entity(named: entity.name)
            #expect(read?.attributes == entity.attributes, "\(entity.name) attributes")
            #expect(read?.relationships == entity.relationships, "\(entity.name) relationships")
            #expect(read?.computedProperties == entity.computedProperties, "\(entity.name) computed properties")
            #expect(read?.parent == entity.parent, "\(entity.name) parent")
        }
    }

    @Test func fileOrderDoesNotMatter() throws {
        let files = try SwiftModelSourceTestSupport.exampleFiles("SnippetBox")
        let forward = SwiftModelSource.schema(from: files).schema
        let backward = SwiftModelSource.schema(from: files.reversed()).schema
        #expect(SwiftModelSourceTestSupport.normalized(forward) == SwiftModelSourceTestSupport.normalized(backward))
    }
}
