import Testing

@testable import PickupUpload

/// The upload screen's model, fed items as a queue's updates would: rows in the order the
/// items were added, each one made again only when it changes; totals that add up.
@MainActor
@Suite("the upload screen's model, item by item")
struct UploadQueueModelTests {
    func item(
        _ id: Int, size: Int64, confirmed: Int64 = 0, sent: Int64 = 0, state: UploadQueue.State = .uploading
    )
        -> UploadQueue.Item
    {
        var item = UploadQueue.Item(id: id, path: "/photos/IMG_\(id).HEIC")
        item.size = size
        item.confirmed = confirmed
        item.sent = sent
        item.state = state
        return item
    }

    @Test("rows keep the order of their ids, whatever order the updates come in; totals move with each item")
    func order() throws {
        let model = UploadQueueModel(queue: UploadQueue(uploader: Uploader(journal: try UploadTestFiles.journal())))
        model.apply(item(2, size: 200))
        model.apply(item(1, size: 100, confirmed: 50))
        model.apply(item(3, size: 300, state: .waiting))
        #expect(model.rows.map(\.id) == [1, 2, 3])
        #expect(model.total == 600 && model.confirmed == 50 && model.sent == 50)
        // A chunk in flight for item 2, then item 1 confirms more.
        model.apply(item(2, size: 200, sent: 150))
        model.apply(item(1, size: 100, confirmed: 100, sent: 100, state: .done))
        #expect(model.rows.map(\.id) == [1, 2, 3])
        #expect(model.rows[0].status == "Uploaded" && model.rows[1].progress == 0.75)
        #expect(model.confirmed == 100 && model.sent == 250 && model.fractionDone == 250.0 / 600)
        // Cancelled: out of the totals, its row kept.
        model.apply(item(3, size: 300, state: .cancelled))
        #expect(model.total == 300 && model.sent == 250 && model.rows.count == 3)
        #expect(model.rows[2].status == "Cancelled")
    }

    @Test("every byte sent, the answer still to come: the row says it is finishing")
    func finishing() throws {
        let model = UploadQueueModel(queue: UploadQueue(uploader: Uploader(journal: try UploadTestFiles.journal())))
        model.apply(item(1, size: 100, confirmed: 40, sent: 100))
        #expect(model.rows.first?.status == "Finishing" && model.rows.first?.progress == 1)
    }
}
