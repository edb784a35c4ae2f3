// Walking an app's folders for the files pq reads, the same way for `pq --model`
// (the `.swift` files with `@Model` classes) and for `pq lint` (those, and the Xcode
// projects that say which module each file is in).

import Foundation

/// The files in a folder and all its subfolders, as pq reads an app's sources: hidden
/// files and folders are skipped with everything in them, and so is SwiftPM's `.build`.
package enum SourceFolder {
    /// The paths of the files under `folder` for which `wanted(name, path)` holds, in
    /// path order (folders are walked into, not returned); nil if `folder` is not a
    /// folder or cannot be listed. `excluded(path)` leaves out a file, or a folder with
    /// everything in it. A path is `folder` joined with the file's path inside it;
    /// inside `.`, the file's path alone (`Models/Book.swift`).
    package static func files(
        under folder: String, excluding excluded: (String) -> Bool = { _ in false },
        where wanted: (_ name: String, _ path: String) -> Bool
    ) -> [String]? {
        // Asked first: on Linux, Foundation lists a missing folder as an empty one.
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue,
            let enumerator = FileManager.default.enumerator(atPath: folder)
        else { return nil }
        var found: [String] = []
        while let relative = enumerator.nextObject() as? String {
            let name = (relative as NSString).lastPathComponent
            let path = folder == "." ? relative : (folder as NSString).appendingPathComponent(relative)
            if name.hasPrefix(".") || excluded(path) {
                enumerator.skipDescendants()
                continue
            }
            // A folder is walked into, never returned, even one named `Models.swift`.
            let isSubfolder = enumerator.fileAttributes?[.type] as? FileAttributeType == .typeDirectory
            if !isSubfolder, wanted(name, path) { found.append(path) }
        }
        return found.sorted()
    }
}
