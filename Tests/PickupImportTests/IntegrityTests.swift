import Foundation
import Pickup
import PickupStore
import PickupTestSupport
import Testing

@testable import PickupImport

/// Nothing lost, nothing silently wrong: what an import stores is what its catalog says.
@Suite("Import integrity")
struct IntegrityTests {
    typealias Scratch = ImportSessionTests.Scratch
    let probe = MediaProbe()

    func requests(_ paths: [String]) throws -> [ImportRequest] {
        try paths.map { ImportRequest(path: $0, info: try probe.probe(path: $0)) }
    }

    func sha256(_ path: String) throws -> String {
        guard case .success(let found) = FileHash.sha256(ofFileAt: path) else {
            throw CocoaError(.fileReadUnknown)
        }
        return found.sha256
    }

    /// A copy whose source is changed by `change` after its first chunk (synchronously, from
    /// the copy's own progress callback, so the change always lands mid-copy).
    func copyWhileChanging(_ change: (String) -> Void) throws -> ImportError? {
        let scratch = try Scratch()
        let movie = try scratch.add(.mp4Large, as: "CHG.MP4")
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: movie))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(repeating: 7, count: 24 << 20))
        try handle.close()
        try FileManager.default.createDirectory(atPath: scratch.library, withIntermediateDirectories: true)
        var changed = false
        do {
            let copy = try FileCopier(folder: scratch.library).copyToTemporary(
                movie,
                progress: { _ in
                    if !changed {
                        changed = true
                        change(movie)
                    }
                }, shouldStop: { false })
            copy.temporary.discard()
            return nil
        } catch {
            return error
        }
    }

    @Test(
        "a source rewritten, truncated, grown or replaced while it is copied is caught",
        arguments: ["rewritten", "truncated", "grown", "replaced"])
    func changeMidCopyIsCaught(how: String) throws {
        let error = try copyWhileChanging { path in
            switch how {
            case "rewritten":
                let handle = FileHandle(forWritingAtPath: path)
                try? handle?.seek(toOffset: 20 << 20)
                try? handle?.write(contentsOf: Data(repeating: 9, count: 4096))
                try? handle?.close()
                // The same second can hold both writes: make the time differ too.
                var times = [timespec(tv_sec: 1, tv_nsec: 0), timespec(tv_sec: 1, tv_nsec: 0)]
                _ = utimensat(AT_FDCWD, path, &times, 0)
            case "truncated": truncate(path, 300_000)
            case "grown":
                let handle = FileHandle(forWritingAtPath: path)
                _ = try? handle?.seekToEnd()
                try? handle?.write(contentsOf: Data(repeating: 1, count: 4096))
                try? handle?.close()
            default:
                let other = path + ".new"
                _ = FileManager.default.createFile(atPath: other, contents: Data(repeating: 2, count: 1000))
                rename(other, path)
            }
        }
        #expect(error?.code == .sourceChanged, "\(String(describing: error))")
        #expect(error?.hint.contains("finished") == true)
    }

    @Test("a source changed during an import: whatever is stored, its recorded hash and size describe it")
    func storedHashDescribesStoredBytes() async throws {
        let scratch = try Scratch()
        let movie = try scratch.add(.mp4Large, as: "CHG.MP4")
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: movie))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(repeating: 7, count: 48 << 20))
        try handle.close()
        let session = try ImportSession(destination: scratch.library)
        let run = session.start(try requests([movie]))
        var changed = false
        for await event in run.events {
            if case .progress = event, !changed {
                changed = true
                truncate(movie, 300_000)
            }
        }
        let item = try #require(await run.results().first?.item)
        let stored = try #require(item.primary)
        #expect(try sha256(session.path(of: stored)) == stored.sha256)
        #expect(FileStatus(path: session.path(of: stored))?.size == stored.size)
    }

    @Test("the same photo twice in one import: the first is imported, the second already there, every run")
    func samePhotoTwice() async throws {
        var outcomes: Set<String> = []
        for _ in 0..<6 {
            let scratch = try Scratch()
            let first = try scratch.add(.jpegEXIF, as: "IMG_0004.JPG", in: "a")
            let second = try scratch.add(.jpegEXIF, as: "IMG_0004.JPG", in: "b")
            let session = try ImportSession(destination: scratch.library, options: ImportOptions(concurrency: 4))
            let results = await session.run(try requests([first, second, first]))
            outcomes.insert(
                results.map { result -> String in
                    switch result {
                    case .imported(let item): "imported \(item.originalPath.hasSuffix("/a/IMG_0004.JPG") ? "a" : "b")"
                    case .reused: "reused"
                    case .restored: "restored"
                    case .completed: "completed"
                    case .failed(let error): "failed \(error)"
                    }
                }.joined(separator: ", "))
        }
        #expect(outcomes.count == 1, "\(outcomes)")
        #expect(outcomes.first == "imported a, reused, reused")
    }

    @Test("a stored file deleted or overwritten behind the catalog's back is restored by importing again")
    func restoresDamagedCopies() async throws {
        let scratch = try Scratch()
        let photo = try scratch.add(.jpegEXIF, as: "IMG_0001.JPG")
        let movie = try scratch.add(.mp4Faststart, as: "IMG_0002.MP4")
        let session = try ImportSession(destination: scratch.library)
        let items = await session.run(try requests([photo, movie])).compactMap(\.item)
        #expect(items.count == 2)
        let deleted = try #require(items[0].primary)
        let overwritten = try #require(items[1].primary)
        unlink(session.path(of: deleted))
        try Data("8 bytes!".utf8).write(to: session.url(of: overwritten))
        let verifier = LibraryVerifier(folder: session.destination, catalog: session.catalog)
        let before = try await verifier.verify()
        #expect(Set(before.findings.map(\.problem)) == [.missing, .damaged])
        let again = await session.run(try requests([photo, movie]))
        for result in again {
            if case .restored = result {} else { Issue.record("expected restored, got \(result)") }
        }
        #expect(try sha256(session.path(of: deleted)) == deleted.sha256)
        #expect(try sha256(session.path(of: overwritten)) == overwritten.sha256)
        #expect(try await verifier.verify().isClean)
        let names = try FileManager.default.contentsOfDirectory(atPath: session.destination).filter {
            !$0.hasPrefix(".")
        }
        #expect(names.sorted() == ["IMG_0001.JPG", "IMG_0002.MP4"], "restored in place, no second copy")
    }

    @Test("verify reads on several threads: every problem found once, in the catalog's order, the bytes counted")
    func verifyFindsEachProblemInOrder() async throws {
        let scratch = try Scratch()
        let seed = try Data(contentsOf: URL(fileURLWithPath: try Fixtures.path(.jpegEXIF)))
        // More photos than readers, each unique (bytes after the JPEG's end).
        let photos = try (0..<24).map { number in
            try scratch.write(Array(seed) + Array(repeating: UInt8(number), count: 64), as: "IMG_\(1000 + number).JPG")
        }
        let session = try ImportSession(destination: scratch.library)
        #expect(await session.run(try requests(photos)).compactMap(\.item).count == photos.count)
        let items = try await session.catalog.items()
        let files = items.compactMap(\.primary)
        #expect(files.count == photos.count)
        // Three problems spread over the catalog: missing, cut short, same size but other bytes.
        unlink(session.path(of: files[3]))
        #expect(truncate(session.path(of: files[11]), 100) == 0)
        var changed = try Data(contentsOf: session.url(of: files[19]))
        changed[changed.count - 1] ^= 0xFF
        try changed.write(to: session.url(of: files[19]))
        let shown = LockedValue<[Int64]>([])
        let report = try await LibraryVerifier(folder: session.destination, catalog: session.catalog).verify {
            read, _ in shown.withValue { $0.append(read) }
        }
        #expect(report.items == photos.count && report.files == photos.count)
        #expect(report.findings.map(\.name) == [files[3].name, files[11].name, files[19].name])
        #expect(report.findings.map(\.problem) == [.missing, .damaged, .damaged])
        #expect(report.findings[1].detail.hasPrefix("100 bytes"))
        #expect(report.findings[2].detail.hasPrefix("its SHA-256 is"))
        let whole = files.reduce(Int64(0)) { $0 + $1.size }
        #expect(report.bytesRead == whole - files[3].size - files[11].size + 100)
        let progress = shown.current
        #expect(progress == progress.sorted(), "the bytes shown never go back")
        #expect(progress.last == report.bytesRead)
    }

    @Test("--rehash over a library that holds everything reads each source and writes nothing")
    func rehashWritesNothingForWhatIsThere() async throws {
        let scratch = try Scratch()
        let photo = try scratch.add(.jpegEXIF, as: "IMG_0001.JPG")
        let movie = try scratch.add(.mp4Faststart, as: "IMG_0002.MP4")
        let first = try ImportSession(destination: scratch.library)
        #expect(await first.run(try requests([photo, movie])).compactMap(\.item).count == 2)
        let session = try ImportSession(destination: scratch.library, options: ImportOptions(rehash: true))
        let run = session.start(try requests([photo, movie]))
        var copies = 0
        for await event in run.events { if case .started = event { copies += 1 } }
        let results = await run.results()
        #expect(results.allSatisfy { if case .reused = $0 { return true } else { return false } }, "\(results)")
        #expect(copies == 0, "nothing copied to find it there: the sources' SHA-256 found the items")
        // A byte changed behind the same size: read, found different, copied.
        var changed = try Data(contentsOf: URL(fileURLWithPath: photo))
        changed[changed.count / 2] ^= 0x01
        try changed.write(to: URL(fileURLWithPath: photo))
        let again = await session.run(try requests([photo]))
        if case .imported = again.first {} else { Issue.record("expected imported, got \(again)") }
    }

    @Test("an emptied catalog: importing again records the files already there instead of copying them twice")
    func emptiedCatalog() async throws {
        let scratch = try Scratch()
        let photo = try scratch.add(.jpegEXIF, as: "IMG_0001.JPG")
        var session: ImportSession? = try ImportSession(destination: scratch.library)
        #expect(await session?.run(try requests([photo])).first?.item != nil)
        session = nil
        for suffix in ["", "-wal", "-shm"] { unlink(scratch.library + "/.pickup/catalog.sqlite" + suffix) }
        let fresh = try ImportSession(destination: scratch.library)
        let again = await fresh.run(try requests([photo]))
        if case .reused = again[0] {} else { Issue.record("expected already there, got \(again[0])") }
        let names = try FileManager.default.contentsOfDirectory(atPath: scratch.library).filter { !$0.hasPrefix(".") }
        #expect(names == ["IMG_0001.JPG"])
        #expect(try await fresh.catalog.items().count == 1)
    }

    @Test(
        "a nearly full disk: what fits is imported in selection order, the rest fails at once with the space it needs",
        .enabled(if: getuid() == 0, "mounting a small tmpfs needs root"))
    func nearlyFullDisk() async throws {
        let scratch = try Scratch()
        var paths: [String] = []
        for index in 0..<11 {
            let path = try scratch.add(.jpegPlain, as: "IMG_\(1000 + index).JPG")
            // Each photo a distinct 300 KB file.
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(repeating: UInt8(index), count: 300_000))
            try handle.close()
            paths.append(path)
        }
        var outcomes: Set<[Bool]> = []
        for _ in 0..<3 {
            try await scratch.withMount("-t tmpfs -o size=3m tmpfs", at: "small") { mount in
                let session = try ImportSession(
                    destination: mount + "/library", options: ImportOptions(concurrency: 4))
                let results = await session.run(try requests(paths))
                outcomes.insert(results.map { $0.item != nil })
                let refused = results.compactMap(\.error)
                #expect(refused.allSatisfy { $0.code == .destinationFull }, "\(refused)")
                #expect(refused.allSatisfy { $0.hint.contains("Free at least") })
                #expect(refused.allSatisfy { !$0.description.contains("damaged") })
                let imported = results.filter { $0.item != nil }.count
                #expect(try await session.catalog.items().count == imported)
            }
        }
        #expect(outcomes.count == 1, "the same items fit every run: \(outcomes)")
        let fits = try #require(outcomes.first)
        #expect(fits.firstIndex(of: false).map { fits[$0...].allSatisfy { !$0 } } ?? true, "a prefix fits")
        #expect(fits.contains(true) && fits.contains(false))
    }
}
