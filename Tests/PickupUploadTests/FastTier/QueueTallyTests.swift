import Testing

@testable import PickupUpload

extension FastTier {
    /// The queue's tally of waiting and running items, against the plain rule it replaces:
    /// the waiting items sorted by queue number, and idle when none waits or runs.
    @Suite("Which queued uploads start next")
    struct QueueTallyTests {
        /// A small generator with a seed, so a failure is the same on every run.
        struct Steps: RandomNumberGenerator {
            var state: UInt64
            mutating func next() -> UInt64 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return state
            }
        }

        @Test("through every change of state (retries, pauses, background and back), the lowest waiting start first")
        func matchesTheSortedRule() {
            let states: [UploadQueue.State] = [
                .waiting, .uploading, .paused, .done, .cancelled, .inBackground,
                .failed(UploadError(.network, "cut")),
            ]
            var random = Steps(state: 28)
            var tally = QueueTally()
            var model: [Int: UploadQueue.State] = [:]
            for _ in 0..<20_000 {
                let id = Int.random(in: 0..<400, using: &random)
                let new = states.randomElement(using: &random) ?? .waiting
                tally.change(id, from: model[id], to: new)
                model[id] = new
                let count = Int.random(in: 0...9, using: &random)
                let expected = model.filter { $0.value == .waiting }.keys.sorted().prefix(count)
                #expect(tally.next(count) == Array(expected))
                let running = model.values.filter { $0 == .uploading }.count
                #expect(tally.uploading == running)
                #expect(tally.isIdle == (!model.values.contains(.waiting) && running == 0))
            }
        }
    }
}
