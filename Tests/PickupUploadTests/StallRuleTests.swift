import PickupUpload
import Testing

@Suite("Stalls: judged from the link's own pace, without a clock")
struct StallRuleTests {
    /// A link that moved `times` times, `gap` seconds apart, from 0; the time of its last move.
    func moving(_ rule: inout StallRule, every gap: Double, times: Int) -> Double {
        var time = 0.0
        for _ in 0..<times {
            time += gap
            rule.progressed(at: time)
        }
        return time
    }

    @Test func aMovingLinkThatGoesSilentIsNoticedWithinSecondsNotTheCeiling() {
        var rule = StallRule(ceiling: 20, start: 0)
        // A piece every 50 ms: the pace of a link that moves.
        let time = moving(&rule, every: 0.05, times: 20)
        #expect(rule.threshold == 3, "4 × 50 ms is under the 3 s floor")
        #expect(!rule.isStalled(at: time + 2.9))
        #expect(rule.isStalled(at: time + 3.1))
    }

    @Test func aSlowLinkIsNotCalledDead() {
        var rule = StallRule(ceiling: 20, start: 0)
        let time = moving(&rule, every: 1.5, times: 10)
        #expect(rule.threshold == 6, "four of its own 1.5 s gaps")
        #expect(!rule.isStalled(at: time + 5.5))
        #expect(rule.isStalled(at: time + 6.5))
    }

    @Test func beforeAnyPaceAndWhileTheServerWorksTheCeilingApplies() {
        var rule = StallRule(ceiling: 20, start: 0)
        #expect(rule.threshold == 20)
        for time in [0.05, 0.1, 0.15, 0.2] { rule.progressed(at: time) }
        #expect(rule.threshold == 3)
        rule.bodySent(at: 0.25)
        #expect(rule.threshold == 20, "the server may take its time to answer a whole request")
        #expect(!rule.isStalled(at: 19))
        #expect(rule.isStalled(at: 20.5))
    }

    @Test func aBodyThatFirstFillsTheSendBufferAndThenMovesUnevenlyIsNotCalledDead() {
        var rule = StallRule(ceiling: 20, start: 0)
        // Four pieces taken at once (the kernel's buffer), then one every 1.6 s, one after 2.5 s:
        // a connection sharing its link with three others.
        for time in [0.001, 0.002, 0.003, 0.004, 1.6, 3.2, 5.7, 7.3] { rule.progressed(at: time) }
        #expect(rule.threshold == 10, "four times the longest recent gap, not the buffer's burst")
        #expect(!rule.isStalled(at: 7.3 + 3.5), "a median of these gaps would have cut it here")
        #expect(rule.isStalled(at: 7.3 + 10.5))
    }

    @Test func theCeilingBoundsEveryPace() {
        var rule = StallRule(ceiling: 5, start: 0)
        _ = moving(&rule, every: 10, times: 5)
        #expect(rule.threshold == 5)
    }
}
