// The one-step read of a member through an optional object builds the very node
// `PredicateNodes.flatMap` builds with its dry run (the node SwiftData reads, and
// the one `fused` recognises), and leaves optional members, which must be
// flattened, to `flatMap`. So does the raw value of an optional enum.

import Foundation
import Testing

@testable import PredicateQuery

private final class Rack {
    var label = ""
    var note: String?
}

/// An enum with Int raw values, Codable so that a constant of it can be a predicate's value.
private enum Finish: Int, QueryEnum, Codable {
    case matte = 1, gloss
}

private final class Tome {
    var rack: Rack?
}

struct PredicateTermTests {
    /// `$0.rack` of a `Tome`: an optional `Rack`.
    private func rack() -> PredicateTerm {
        PredicateTerm(
            PredicateExpressions.KeyPath(
                root: PredicateExpressions.Variable<Tome>(), keyPath: sendableKeyPath(\Tome.rack)))
    }

    @Test func aMemberOfAnOptionalObjectIsTheNodeFlatMapBuilds() throws {
        let label = sendableKeyPath(\Rack.label)
        let read = try #require(PredicateNodes.memberOfOptional(label))
        let direct = try read(rack())
        let general = try PredicateNodes.flatMap(rack(), Rack.self) { try PredicateNodes.keyPath($0, label) }
        let (directNode, generalNode) = (type(of: direct.node), type(of: general.node))
        #expect(ObjectIdentifier(directNode) == ObjectIdentifier(generalNode), "\(directNode) is not \(generalNode)")
        #expect(ObjectIdentifier(direct.type) == ObjectIdentifier(general.type))
        #expect(ObjectIdentifier(direct.type) == ObjectIdentifier(String?.self))
        // `fused` recognises it, so a test of the member goes inside the one flatMap.
        let fusable = try #require(direct.node as? any PredicateMemberOfOptional)
        let fused = try fusable.fused { member in try PredicateNodes.keyPath(member, sendableKeyPath(\String.isEmpty)) }
        #expect(fused.map { ObjectIdentifier($0.type) } == ObjectIdentifier(Bool?.self))
    }

    @Test func anOptionalEnumsRawValueIsTheNodeFlatMapBuilds() throws {
        // A `Finish?` read as `finish?.rawValue`.
        let finish = PredicateTerm(PredicateExpressions.Value<Finish?>(.gloss))
        let read = try #require(PredicateEnumAccess.rawValueReader(of: Finish?.self))
        let direct = try read(finish)
        let general = try PredicateNodes.flatMap(finish, Finish.self, body: Finish.rawValueReader())
        let (directNode, generalNode) = (type(of: direct.node), type(of: general.node))
        #expect(ObjectIdentifier(directNode) == ObjectIdentifier(generalNode), "\(directNode) is not \(generalNode)")
        #expect(ObjectIdentifier(direct.type) == ObjectIdentifier(Int?.self))
        // And it evaluates to the raw value, or nil for nil.
        let value = try direct.typed(Int?.self)
        #expect(try value.evaluate(PredicateBindings()) == 2)
        let none = try read(PredicateTerm(PredicateExpressions.Value<Finish?>(nil))).typed(Int?.self)
        #expect(try none.evaluate(PredicateBindings()) == nil)
    }

    @Test func anOptionalMemberIsTheFlattenedNodeFlatMapBuilds() throws {
        let note = sendableKeyPath(\Rack.note)
        let read = try #require(PredicateNodes.memberOfOptional(note))
        let direct = try read(rack())
        let general = try PredicateNodes.flatMap(rack(), Rack.self) { try PredicateNodes.keyPath($0, note) }
        let (directNode, generalNode) = (type(of: direct.node), type(of: general.node))
        #expect(ObjectIdentifier(directNode) == ObjectIdentifier(generalNode), "\(directNode) is not \(generalNode)")
        // Flattened: a `String?`, not a `String??`.
        #expect(ObjectIdentifier(direct.type) == ObjectIdentifier(String?.self))
        // `fused` leaves it alone: a test of an optional member is not moved inside.
        let fusable = try #require(direct.node as? any PredicateMemberOfOptional)
        #expect(try fusable.fused { $0 } == nil)
        // Evaluated: nil without a rack, nil without a note, else the note.
        let tome = PredicateExpressions.Variable<Tome>()
        let noteOfRack = try read(
            PredicateTerm(PredicateExpressions.KeyPath(root: tome, keyPath: sendableKeyPath(\Tome.rack)))
        ).typed(String?.self)
        let (noRack, noNote, noted) = (Tome(), Tome(), Tome())
        noNote.rack = Rack()
        noted.rack = Rack()
        noted.rack?.note = "signed"
        #expect(try noteOfRack.evaluate(PredicateBindings((tome, noRack))) == nil)
        #expect(try noteOfRack.evaluate(PredicateBindings((tome, noNote))) == nil)
        #expect(try noteOfRack.evaluate(PredicateBindings((tome, noted))) == "signed")
    }
}
