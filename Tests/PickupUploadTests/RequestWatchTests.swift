import Pickup
import Testing

@testable import PickupHTTP

/// A request's share in its link's count of bodies draining (what keeps a waiting connection
/// from being judged dead while another's body moves).
@Suite("request watch: a body drains from its last write until the answer or the end")
struct RequestWatchTests {
    func watch() -> (RequestWatch, LockedValue<LinkActivity>) {
        let link = LockedValue(LinkActivity(lastProgress: 0))
        return (RequestWatch(ceiling: 20, link: link), link)
    }

    @Test("counted once from the body's end, uncounted when the answer begins or the request ends")
    func counted() {
        let (watch, link) = watch()
        watch.bodySent()
        watch.bodySent()
        #expect(link.current.draining == 1)
        watch.settled()
        #expect(link.current.draining == 0)
        watch.bodySent()
        #expect(link.current.draining == 1)
        watch.finish()
        #expect(link.current.draining == 0)
    }

    @Test("word of the body's end after the request ended counts for nothing")
    func afterTheEnd() {
        let (watch, link) = watch()
        watch.finish()
        watch.bodySent()
        watch.settled()
        #expect(link.current.draining == 0)
    }
}
