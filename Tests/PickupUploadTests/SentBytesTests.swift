import Testing

@testable import PickupUpload

/// The count of an upload's bytes on their way (`SentBytes`), without threads or servers.
@Suite("bytes on their way")
struct SentBytesTests {
    @Test("a request's bytes count as they go, stay once it lands, and are counted by the confirmation after")
    func oneRequest() {
        var bytes = SentBytes(size: 100, confirmed: 10)
        #expect(bytes.value == 10)
        let request = bytes.begin()
        bytes.sent(request, 30)
        #expect(bytes.value == 40)
        bytes.sent(request, 90)
        #expect(bytes.value == 100)
        bytes.end(request, landed: true)
        #expect(bytes.value == 100)
        bytes.confirm(100)
        #expect(bytes.value == 100)
    }

    @Test("a failed request takes its bytes back; the others keep theirs")
    func failure() {
        var bytes = SentBytes(size: 100, confirmed: 0)
        let first = bytes.begin()
        let second = bytes.begin()
        bytes.sent(first, 20)
        bytes.sent(second, 30)
        #expect(bytes.value == 50)
        bytes.end(second, landed: false)
        #expect(bytes.value == 20)
        bytes.end(first, landed: true)
        bytes.confirm(20)
        #expect(bytes.value == 20)
    }

    @Test("a confirmation that does not yet count a part that landed does not lower the count")
    func partsInAnyOrder() {
        var bytes = SentBytes(size: 100, confirmed: 0)
        let one = bytes.begin()
        let two = bytes.begin()
        bytes.sent(one, 25)
        bytes.sent(two, 25)
        bytes.end(one, landed: true)
        bytes.end(two, landed: true)
        #expect(bytes.value == 50)
        // The store's count for part one alone; part two is counted by the next one.
        bytes.confirm(25)
        #expect(bytes.value == 50)
        bytes.confirm(50)
        #expect(bytes.value == 50)
    }

    @Test("a server that lost bytes lowers the count with its own")
    func rewound() {
        var bytes = SentBytes(size: 100, confirmed: 0)
        let request = bytes.begin()
        bytes.sent(request, 60)
        bytes.end(request, landed: true)
        bytes.confirm(60)
        bytes.confirm(20)
        #expect(bytes.value == 20)
    }

    @Test("never past the file's size; a request's report after it ended counts for nothing")
    func bounds() {
        var bytes = SentBytes(size: 100, confirmed: 90)
        let request = bytes.begin()
        bytes.sent(request, 50)
        #expect(bytes.value == 100)
        bytes.end(request, landed: false)
        #expect(bytes.value == 90)
        bytes.sent(request, 10)
        #expect(bytes.value == 90)
        // Reports within a request never go down, whatever order they come in.
        let next = bytes.begin()
        bytes.sent(next, 8)
        bytes.sent(next, 4)
        #expect(bytes.value == 98)
    }
}
