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

    @Test func anOptionalConstantMadeAtOnceIsTheOneEqualMakesFromAPlainOne() throws {
        // `rack?.note == "signed"`: the exporter makes the constant a `String?` at once;
        // `equal` used to make a plain `String` and then convert it.
        let direct = try String.optionalConstant(.string("signed"))
        let plain = try String.constant(.string("signed"))
        let converted = try #require(String.optionalConstant(of: plain))
        let (directNode, convertedNode) = (type(of: direct.node), type(of: converted.node))
        #expect(ObjectIdentifier(directNode) == ObjectIdentifier(convertedNode), "\(directNode) is not \(convertedNode)")
        #expect(try direct.typed(String?.self).evaluate(PredicateBindings()) == "signed")
        #expect(try converted.typed(String?.self).evaluate(PredicateBindings()) == "signed")
    }

    @Test func aNilTestIsAnEqualNodeOnlyForAnEquatableValue() throws {
        // `rack?.note == nil`: an `Equal` with a nil literal, as `#Predicate` writes it.
        let readNote = try #require(PredicateNodes.memberOfOptional(sendableKeyPath(\Rack.note)))
        let note = try readNote(rack())
        let noteIsNil = try String?.isNil(note)
        #expect("\(type(of: noteIsNil.node))".hasPrefix("Equal<"), "\(type(of: noteIsNil.node))")
        // `rack == nil`: a `Rack` is not Equatable, so the test is a flatMap and `??`.
        let rackIsNil = try Rack?.isNil(rack())
        #expect("\(type(of: rackIsNil.node))".hasPrefix("NilCoalesce<"), "\(type(of: rackIsNil.node))")
        // Both evaluate as `== nil` does, asked twice (the second answer comes from the type's table).
        let tome = PredicateExpressions.Variable<Tome>()
        for _ in 0..<2 {
            let rackTest = try Rack?.isNil(
                PredicateTerm(PredicateExpressions.KeyPath(root: tome, keyPath: sendableKeyPath(\Tome.rack)))
            ).typed(Bool.self)
            let noteTest = try String?.isNil(
                readNote(PredicateTerm(PredicateExpressions.KeyPath(root: tome, keyPath: sendableKeyPath(\Tome.rack))))
            ).typed(Bool.self)
            let (bare, racked) = (Tome(), Tome())
            racked.rack = Rack()
            #expect(try rackTest.evaluate(PredicateBindings((tome, bare))))
            #expect(try !rackTest.evaluate(PredicateBindings((tome, racked))))
            #expect(try noteTest.evaluate(PredicateBindings((tome, racked))))
            racked.rack?.note = "signed"
            #expect(try !noteTest.evaluate(PredicateBindings((tome, racked))))
        }
    }
}
