import PickupUpload
import Testing

@Suite("Stalls: judged from the link's own pace, without a clock")
struct StallRuleTests {
    @Test func aMovingLinkThatGoesSilentIsNoticedWithinSecondsNotTheCeiling() {
        var rule = StallRule(ceiling: 20, start: 0)
        // A piece every 50 ms: the pace of a link that moves.
        var time = 0.0
        for _ in 0..<20 {
            time += 0.05
            rule.progressed(at: time)
        }
        #expect(rule.threshold == 3, "8 × 50 ms is under the 3 s floor")
        #expect(!rule.isStalled(at: time + 2.9))
        #expect(rule.isStalled(at: time + 3.1))
    }

    @Test func aSlowLinkIsNotCalledDead() {
        var rule = StallRule(ceiling: 20, start: 0)
        var time = 0.0
        for _ in 0..<10 {
            time += 1.5
            rule.progressed(at: time)
        }
        #expect(rule.threshold == 12, "eight of its own 1.5 s gaps")
        #expect(!rule.isStalled(at: time + 10))
        #expect(rule.isStalled(at: time + 12.5))
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

    @Test func theCeilingBoundsEveryPace() {
        var rule = StallRule(ceiling: 5, start: 0)
        var time = 0.0
        for _ in 0..<5 {
            time += 10
            rule.progressed(at: time)
        }
        #expect(rule.threshold == 5)
    }
}
