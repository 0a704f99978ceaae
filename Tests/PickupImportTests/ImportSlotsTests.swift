import Foundation
import Testing

@testable import PickupImport

/// `ImportSlots`: how many items of an import copy at once, as plain state (no threads).
@Suite("import slots")
struct ImportSlotsTests {
    /// Starts items until the rule says no, and returns how many started.
    private func started(_ slots: inout ImportSlots) -> Int {
        var count = 0
        while slots.startNext() != nil { count += 1 }
        return count
    }

    @Test("small photos: 256 at once where they share flushes, 8 where each flushes alone; one more as one ends")
    func smallItems() {
        let photos = [[Int64]](repeating: [36 << 10], count: 300)
        var shared = ImportSlots(fileSizes: photos, concurrency: 2, sharedFlushes: true)
        #expect(started(&shared) == ImportSlots.sharingFlushes())
        shared.finished(0)
        #expect(shared.startNext() == ImportSlots.sharingFlushes(), "the next in selection order")
        #expect(shared.startNext() == nil)

        var alone = ImportSlots(fileSizes: photos, concurrency: 2, sharedFlushes: false)
        #expect(started(&alone) == 8, "four times --parallel")
    }

    @Test("the share of descriptors: 256 with room, fewer under a low open-files limit, never under 32")
    func descriptorLimit() {
        #expect(ImportSlots.sharingFlushes(openFilesLimit: 20_000) == 256)
        #expect(ImportSlots.sharingFlushes(openFilesLimit: 1024) == 224)
        #expect(ImportSlots.sharingFlushes(openFilesLimit: 512) == 96)
        #expect(ImportSlots.sharingFlushes(openFilesLimit: 300) == 43)
        #expect(ImportSlots.sharingFlushes(openFilesLimit: 256) == 32)
        #expect(ImportSlots.sharingFlushes(openFilesLimit: 64) == 32)
        #expect(ImportSlots.sharingFlushes(openFilesLimit: Int.max) == 256)
        #if os(Linux)
            // This process's own limit, as the kernel states it: read through getrlimit, not the
            // fallback of 256.
            let limits = (try? String(contentsOfFile: "/proc/self/limits", encoding: .utf8)) ?? ""
            let line = limits.split(separator: "\n").first { $0.hasPrefix("Max open files") } ?? ""
            let soft = line.split(separator: " ", omittingEmptySubsequences: true).dropFirst(3).first
            let stated = soft.flatMap { Int($0) } ?? (soft == "unlimited" ? Int.max : -1)
            #expect(ImportSlots.openFilesLimit() == stated, "\(line)")
        #endif
    }

    @Test("large files copy --parallel at a time, within the memory of that many chunks; one always may")
    func largeItems() {
        let movies = [[Int64]](repeating: [512 << 20], count: 10)
        var slots = ImportSlots(fileSizes: movies, concurrency: 2, sharedFlushes: true)
        #expect(started(&slots) == 2)
        var one = ImportSlots(fileSizes: [[Int64(8) << 30]], concurrency: 1)
        #expect(one.startNext() == 0, "an item larger than the budget still starts, alone")
    }

    @Test("failed items never start; the order is the selection's")
    func skipping() {
        var slots = ImportSlots(fileSizes: [[1], [1], [1], [1]], concurrency: 2, skipping: [0, 2])
        #expect(slots.startNext() == 1)
        #expect(slots.startNext() == 3)
        #expect(slots.startNext() == nil)
    }
}
