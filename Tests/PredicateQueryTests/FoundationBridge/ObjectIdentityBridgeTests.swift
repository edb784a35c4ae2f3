// SwiftData's identity through Foundation's #Predicate: `persistentModelID`
// compared with captured ObjectKeys converts to the same tree as the text, with the
// keys bound as parameters.

import Foundation
import PredicateQueryExamples
import Testing

@testable import PredicateQuery

struct ObjectIdentityBridgeTests {
    private func dump<M: QueryModel>(_ query: ModelQuery<M>) -> String {
        query.syntax.syntaxDump.replacingOccurrences(
            of: #"pq_object_[0-9a-f]+"#, with: "KEY", options: .regularExpression)
    }

    private func parsed(_ text: String) -> String { Parser.parse(text).query?.syntaxDump ?? "does not parse: \(text)" }

    @Test func persistentModelIDComparesByKey() throws {
        let rent = ObjectKey<Budget>(3)
        let both = [ObjectKey<Budget>(1), ObjectKey<Budget>(8)]
        let equal = try ModelQuery(#Predicate<Budget> { $0.persistentModelID == rent })
        #expect(dump(equal) == parsed("Budget where persistentModelID == $KEY"))
        #expect(equal.boundValues.values.map { $0 } == [.single(.int(3))])
        let member = try ModelQuery(#Predicate<Budget> { both.contains($0.persistentModelID) })
        #expect(dump(member) == parsed("Budget where persistentModelID in [$KEY, $KEY]"))
        #expect(
            Set(member.boundValues.values.map { "\($0)" })
                == Set(["\(ParameterValue.single(.int(1)))", "\(ParameterValue.single(.int(8)))"]))
        let throughToOne = try ModelQuery(#Predicate<Transaction> { $0.budget?.persistentModelID == rent })
        #expect(dump(throughToOne) == parsed("Transaction where budget?.persistentModelID == $KEY"))
    }
}
