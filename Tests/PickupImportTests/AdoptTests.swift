import Foundation
import Pickup
import PickupTestSupport
import Testing

@testable import PickupImport

/// `ImportSession.adopt`: files the library folder holds under a source's name, with its bytes,
/// that the catalog does not know (a catalog emptied or lost), recorded instead of copied again.
extension ImportSessionTests {
    @Test("a name this session just gave, its item not yet recorded, is not adopted; once recorded or undone it may be")
    func unrecordedNames() async throws {
        let scratch = try Scratch()
        let source = try scratch.add(.jpegEXIF, as: "IMG_0001.JPG")
        let session = try ImportSession(destination: scratch.library)
        // The same bytes under the source's name, as a round of this session had just named them
        // for another item of the same content, its transaction still to come.
        try FileManager.default.copyItem(atPath: source, toPath: scratch.library + "/IMG_0001.JPG")
        session.unrecorded.withValue { _ = $0.insert("IMG_0001.JPG") }
        let request = ImportRequest(path: source, info: try MediaProbe().probe(path: source))
        let keys = [try ImportSession.sourceKey(source)]
        let waiting = try await session.adopt(request, paths: [source], keys: keys)
        #expect(waiting?.id == nil, "that item's file, not this one's")
        session.recordedNames(["IMG_0001.JPG"])
        let adopted = try await session.adopt(request, paths: [source], keys: keys)
        #expect(adopted?.files.map(\.name) == ["IMG_0001.JPG"], "a file no item in flight names is adopted")
    }
}
