import Foundation
import PickupUpload
import Testing

/// ListParts followed to its end, however small the store's pages: 22 parts of 5 MiB, so a
/// second or more, kept out of the FastTier suite (`--filter S3ListingTests` runs it).
@Suite("S3 part lists: every page followed")
struct S3ListingTests {
    let fast = FastTier.S3FastTests()

    @Test("22 parts listed one a page: every page is followed (not 20 pages at most), the upload completes")
    func manyPagesListed() async throws {
        let size = 21 * (5 << 20) + 1
        let path = try fast.file(size)
        defer { unlink(path) }
        let store = try fast.store(listPage: 1)
        let record = try await fast.uploader(store).upload(path: path, to: .s3(fast.location(store, "many.bin")))
        #expect(record.state == .done, "\(record.why)")
        #expect(await store.object("photos", "many.bin")?.bytes.count == size)
        #expect(await store.log.filter { $0.hasPrefix("GET ") }.count == 22, "one listing, one page a part")
    }
}
