import Foundation
import PickupUpload
import Testing

@Suite("Background chunks: what a background URLSession sends next, decided in the delegate callback")
struct BackgroundChunkTests {
    let first = BackgroundChunk(
        id: "u1", path: "/tmp/movie.mov", size: 20, remote: URL(fileURLWithPath: "/files/1"), offset: 0, length: 8)

    @Test func aConfirmedChunkGivesTheNextChunkAtTheServersOffset() {
        let next = first.next(status: 204, serverOffset: 8, error: nil, chunkSize: 8)
        var expected = first
        expected.offset = 8
        expected.length = 8
        #expect(next == .send(expected))
    }

    @Test func theLastChunkIsShorterAndTheEndFinishes() {
        var last = first
        last.offset = 16
        last.length = 4
        #expect(
            first.next(status: 204, serverOffset: 16, error: nil, chunkSize: 8) == .send(last))
        #expect(last.next(status: 204, serverOffset: 20, error: nil, chunkSize: 8) == .finished(offset: 20))
    }

    @Test(arguments: [
        (Int?(204), Int64?(0), String?(nil)),  // no progress
        (204, 21, nil),  // past the end of the file
        (204, nil, nil),  // no offset
        (409, 8, nil),  // refused
        (nil, nil, "The network connection was lost."),
    ])
    func anythingElseStopsForTheForegroundToResume(status: Int?, offset: Int64?, error: String?) {
        guard case .stop = first.next(status: status, serverOffset: offset, error: error, chunkSize: 8) else {
            Issue.record("expected stop")
            return
        }
    }

    @Test func theTaskDescriptionCarriesTheChunk() {
        #expect(BackgroundChunk(taskDescription: first.taskDescription) == first)
        #expect(BackgroundChunk(taskDescription: "u1 /tmp/x.chunk") == nil)
        #expect(BackgroundChunk(taskDescription: nil) == nil)
    }
}
