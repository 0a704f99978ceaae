import Foundation
import PickupImport
import PickupTestSupport
import Testing

/// The library folder: made when missing, resolved, and a judge of what lies inside it.
@Suite("Library folder")
struct LibraryFolderTests {
    @Test("opening makes the folder and its parents, resolves links, and knows what is inside")
    func opening() throws {
        let scratch = Temporary.url("folder")
        defer { Temporary.remove(scratch) }
        let library = try LibraryFolder(opening: scratch.path + "/a/b/Library")
        var isFolder: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: library.path, isDirectory: &isFolder) && isFolder.boolValue)
        #expect(library.catalogPath == library.path + "/.pickup/catalog.sqlite")
        // Reached through a link, it is the same folder.
        let link = scratch.appendingPathComponent("link").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: scratch.path + "/a/b/Library")
        #expect(LibraryFolder(existing: link) == library)
        let inside = library.path(of: "IMG_0001.JPG")
        try Data([1]).write(to: URL(fileURLWithPath: inside))
        #expect(library.contains(inside))
        #expect(library.contains(link + "/IMG_0001.JPG"), "through the link, still inside")
        // A sibling whose name starts with the library's is not inside it.
        let sibling = scratch.path + "/a/b/Library2"
        try FileManager.default.createDirectory(atPath: sibling, withIntermediateDirectories: true)
        try Data([1]).write(to: URL(fileURLWithPath: sibling + "/x.jpg"))
        #expect(!library.contains(sibling + "/x.jpg"))
        #expect(!library.contains(scratch.path + "/nosuch"))
    }

    @Test("a folder that cannot be made says where")
    func cannotMake() throws {
        let scratch = Temporary.url("folder")
        defer { Temporary.remove(scratch) }
        try Data([1]).write(to: scratch)  // a file where a folder should be
        #expect(throws: ImportError.self) { try LibraryFolder(opening: scratch.path + "/Library") }
    }
}
