import Pickup
import Testing

/// The pace of a transfer over its last seconds, as a progress bar and an upload row show it.
@Suite("a transfer's pace over its last seconds")
struct TransferPaceTests {
    @Test("no pace before a second of counts; then bytes a second over the window, and the time left")
    func steady() {
        var pace = TransferPace()
        pace.add(0, at: 0)
        pace.add(500, at: 0.5)
        #expect(pace.bytesPerSecond == nil && pace.secondsLeft(total: 10_000) == nil)
        pace.add(1_000, at: 1)
        #expect(pace.bytesPerSecond == 1_000)
        #expect(pace.secondsLeft(total: 10_000) == 9)
        #expect(pace.secondsLeft(total: 1_000) == nil, "nothing left")
    }

    @Test("the bytes done before (a resumed upload's) do not count; a slow start is forgotten after the window")
    func window() {
        var pace = TransferPace()
        // Resumed at 8 MB, then a slow start, then 3 MB/s.
        pace.add(8_000_000, at: 0)
        pace.add(8_100_000, at: 2)
        for second in 3...12 { pace.add(8_100_000 + Int64(second - 2) * 3_000_000, at: Double(second)) }
        #expect(pace.bytesPerSecond == 3_000_000, "the last five seconds alone")
    }

    @Test("a count lower than the last (bytes taken back) starts the window again")
    func takenBack() {
        var pace = TransferPace()
        pace.add(0, at: 0)
        pace.add(4_000, at: 2)
        pace.add(1_000, at: 3)
        #expect(pace.bytesPerSecond == nil)
        pace.add(3_000, at: 4)
        #expect(pace.bytesPerSecond == 2_000)
    }
}
