import Pickup
import Testing

@Suite("Background time")
struct BackgroundTimeTests {
    @Test("work that ends ends its background time once")
    func endsOnce() async throws {
        let application = FakeApplication()
        let value = try await BackgroundTime.run("import", granting: application) { 42 }
        #expect(value == 42)
        #expect(application.calls.current == ["begin 1 import", "end 1"])
    }

    @Test("work that fails still ends its background time")
    func failureEnds() async {
        struct Failed: Error {}
        let application = FakeApplication()
        await #expect(throws: Failed.self) {
            try await BackgroundTime.run("export", granting: application) { throw Failed() }
        }
        #expect(application.calls.current == ["begin 1 export", "end 1"])
    }

    @Test("when the time runs out the work is cancelled and the time ended once")
    func expiryCancels() async throws {
        let application = FakeApplication()
        let running = Task {
            try await BackgroundTime.run("upload", granting: application) {
                try await Task.sleep(nanoseconds: 30_000_000_000)
                return 1
            }
        }
        for _ in 0..<200 where application.calls.current.isEmpty { try await Task.sleep(nanoseconds: 5_000_000) }
        application.expire()
        await #expect(throws: CancellationError.self) { _ = try await running.value }
        try await Task.sleep(nanoseconds: 50_000_000)
        #expect(application.calls.current.filter { $0.hasPrefix("end") } == ["end 1"])
    }
}

@Suite("Background time held by a queue")
struct BackgroundHoldTests {
    @Test("time is asked for when the first job starts and ended when the last ends")
    func firstToLast() async {
        let application = FakeApplication()
        let hold = BackgroundHold("uploads", granting: application)
        await hold.acquire()
        await hold.acquire()
        await hold.release()
        #expect(application.calls.current == ["begin 1 uploads"])
        await hold.release()
        #expect(application.calls.current == ["begin 1 uploads", "end 1"])
    }

    @Test("when the time runs out it is ended at once, and once")
    func expiry() async throws {
        let application = FakeApplication()
        let hold = BackgroundHold("uploads", granting: application)
        await hold.acquire()
        application.expire()
        for _ in 0..<200 where application.calls.current.count < 2 { try await Task.sleep(nanoseconds: 5_000_000) }
        await hold.release()
        #expect(application.calls.current == ["begin 1 uploads", "end 1"])
    }
}
