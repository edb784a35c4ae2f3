// NSKeyedArchiver archives, read from a binary property list: the `$objects`
// table, `CF$UID` references between its entries, each instance's class (its
// `$class` entry's `$classname`), and the collections Foundation archives
// (`NS.objects`, `NS.keys`, `NS.string`, Core Data's known-keys dictionaries).
//
// Nothing is decoded recursively here: callers walk the graph one reference at a
// time, so cycles in a (malformed) archive cannot loop.

import Foundation

/// A keyed archive: instances are numbered by their position in `$objects`.
struct KeyedArchive: Sendable {
    /// The property list the archive lives in.
    let plist: BinaryPropertyList
    /// The plist object number of each `$objects` entry.
    let entries: [Int]
    /// The archive entry of the root object (`$top.root`).
    let root: Int
    /// The keys of each entry that is a dictionary (an instance), read once.
    private let fieldTables: [[String: Int]?]

    /// Reads the archive in `plist`; throws when it is not an NSKeyedArchiver archive.
    init(_ plist: BinaryPropertyList) throws(BinaryPropertyList.Malformed) {
        guard let top = plist.dictionary(plist.top) else {
            throw BinaryPropertyList.Malformed(description: "the top object is not a dictionary")
        }
        guard let archiver = top["$archiver"].flatMap(plist.string), archiver == "NSKeyedArchiver" else {
            throw BinaryPropertyList.Malformed(description: "not an NSKeyedArchiver archive (no '$archiver')")
        }
        guard let objectsNumber = top["$objects"], case .array(let entries)? = plist.object(objectsNumber) else {
            throw BinaryPropertyList.Malformed(description: "the archive has no '$objects' array")
        }
        guard let topNumber = top["$top"], let roots = plist.dictionary(topNumber), let rootNumber = roots["root"],
            case .uid(let root)? = plist.object(rootNumber), entries.indices.contains(root)
        else {
            throw BinaryPropertyList.Malformed(description: "the archive has no '$top' root object")
        }
        self.plist = plist
        self.entries = entries
        self.root = root
        self.fieldTables = entries.map { plist.dictionary($0) }
    }

    /// The plist object of an archive entry.
    func object(_ entry: Int) -> BinaryPropertyList.Object? {
        entries.indices.contains(entry) ? plist.object(entries[entry]) : nil
    }

    /// The keys of an instance entry (a dictionary with `$class`), as plist object numbers.
    func fields(_ entry: Int) -> [String: Int]? {
        fieldTables.indices.contains(entry) ? fieldTables[entry] : nil
    }

    /// The class name of an instance entry.
    func className(_ entry: Int) -> String? {
        guard let classEntry = reference("$class", in: entry), let meta = fields(classEntry),
            let name = meta["$classname"]
        else { return nil }
        return plist.string(name)
    }

    /// The entry a field refers to; nil for a missing field or `$null` (entry 0).
    func reference(_ key: String, in entry: Int) -> Int? {
        guard let number = fields(entry)?[key], case .uid(let target)? = plist.object(number),
            target != 0, entries.indices.contains(target)
        else { return nil }
        return target
    }

    /// A field that holds a plain integer.
    func int(_ key: String, in entry: Int) -> Int64? {
        guard let number = fields(entry)?[key] else { return nil }
        switch plist.object(number) {
        case .int(let value)?: return value
        case .bool(let value)?: return value ? 1 : 0
        default: return nil
        }
    }

    /// A field that holds a plain boolean (or an integer used as one).
    func bool(_ key: String, in entry: Int) -> Bool? {
        int(key, in: entry).map { $0 != 0 }
    }

    /// The string a field refers to (a string entry or an NSString instance).
    func string(_ key: String, in entry: Int) -> String? {
        reference(key, in: entry).flatMap(string)
    }

    /// The string an entry holds: a plain string, or an `NS.string` instance.
    func string(_ entry: Int) -> String? {
        switch object(entry) {
        case .string(let value)?: return value
        case .dictionary?:
            guard let number = fields(entry)?["NS.string"] else { return nil }
            return plist.string(number)
        default: return nil
        }
    }

    /// The elements of an NSArray or NSSet instance, as entries.
    func array(_ entry: Int) -> [Int]? {
        guard let number = fields(entry)?["NS.objects"] else { return nil }
        return uids(number)
    }

    /// The pairs of an NSDictionary instance (or Core Data's known-keys dictionary), as entries.
    func dictionary(_ entry: Int) -> [(key: Int, value: Int)]? {
        guard let fields = fields(entry) else { return nil }
        if let keys = fields["NS.keys"].flatMap({ uids($0, keepingNull: true) }),
            let values = fields["NS.objects"].flatMap({ uids($0, keepingNull: true) }), keys.count == values.count
        {
            return zip(keys, values).filter { $0.0 != 0 && $0.1 != 0 }.map { (key: $0.0, value: $0.1) }
        }
        // NSKnownKeysDictionary1: `searchMapping.keys` and `values`, with empty slots marked.
        guard let mapping = reference("searchMapping", in: entry), let keysEntry = reference("keys", in: mapping),
            let keys = array(keysEntry), let valuesEntry = reference("values", in: entry),
            let values = array(valuesEntry), keys.count == values.count
        else { return nil }
        let empty = string("emptyToken", in: entry)
        return zip(keys, values).compactMap { key, value in
            if let empty, string(value) == empty { return nil }
            return (key: key, value: value)
        }
    }

    /// The entries a plist array of UIDs refers to (`$null` entries dropped).
    private func uids(_ number: Int, keepingNull: Bool = false) -> [Int]? {
        guard case .array(let elements)? = plist.object(number) else { return nil }
        var result: [Int] = []
        for element in elements {
            guard case .uid(let target)? = plist.object(element), entries.indices.contains(target) else { return nil }
            if target != 0 || keepingNull { result.append(target) }
        }
        return result
    }
}
