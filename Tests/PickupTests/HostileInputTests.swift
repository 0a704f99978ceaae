import Foundation
import Pickup
import PickupTestSupport
import Testing

/// Bad input gets a clear error naming the problem, quickly; never a crash or a hang.
@Suite("Hostile input")
struct HostileInputTests {
    let probe = MediaProbe()

    func expectError(
        _ bytes: [UInt8], _ code: ProbeError.Code? = nil, mentions: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let started = ContinuousClock.now
        do {
            let info = try probe.probe(bytes: bytes)
            Issue.record("expected an error, got \(info.kind) \(info.container)", sourceLocation: sourceLocation)
        } catch {
            if let code { #expect(error.code == code, "\(error)", sourceLocation: sourceLocation) }
            if let mentions {
                #expect(error.description.contains(mentions), "\(error)", sourceLocation: sourceLocation)
            }
            #expect(!error.hint.isEmpty, sourceLocation: sourceLocation)
        }
        #expect(ContinuousClock.now - started < .seconds(1), sourceLocation: sourceLocation)
    }

    @Test("zero bytes") func empty() { expectError([], .empty, mentions: "empty") }

    @Test("text named like a movie")
    func text() throws {
        let folder = Temporary.url("hostile")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { Temporary.remove(folder) }
        let path = folder.appendingPathComponent("movie.mov").path
        try Data("This is a text file that merely ends in .mov\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: ProbeError.self) { try probe.probe(path: path) }
        do {
            _ = try probe.probe(path: path)
        } catch {
            #expect(error.code == .unrecognized)
            #expect(error.path == path)
            #expect(error.description.contains("plain text"))
        }
    }

    @Test("a missing file and a folder are unreadable, with the path")
    func unreadable() {
        do {
            _ = try probe.probe(path: "/nonexistent/clip.mp4")
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .unreadable)
            #expect(error.description.contains("/nonexistent/clip.mp4"))
        }
        #expect(throws: ProbeError.self) { try probe.probe(path: FileManager.default.temporaryDirectory.path) }
    }

    @Test("a box that claims 2^62 bytes")
    func hugeBox() {
        var w = ByteWriter()
        w.append(BoxBuilder.ftyp("isom"))
        w.u32(1)
        w.ascii("moov")
        w.u64(1 << 62)
        w.zeros(64)
        expectError(w.bytes, .truncated, mentions: "'moov'")
    }

    @Test("100,000 nested boxes")
    func deepNesting() {
        let depth = 100_000
        var bytes = BoxBuilder.ftyp("isom")
        var size = UInt32(8 * depth + 8)
        for _ in 0..<depth {
            var w = ByteWriter()
            w.u32(size)
            w.ascii("moov")
            bytes += w.bytes
            size -= 8
        }
        bytes += [0, 0, 0, 8] + Array("free".utf8)
        expectError(bytes, mentions: "moov")
    }

    @Test("nesting that the parser does descend is bounded too")
    func deepMeta() {
        // udta > meta > ilst > item > data ... repeated: each level is read at most once.
        var inner = BoxBuilder.box("free", [])
        for _ in 0..<5000 { inner = BoxBuilder.box("udta", inner) }
        var spec = BoxBuilder.MovieSpec()
        spec.extraMoovChildren = [inner]
        let started = ContinuousClock.now
        _ = try? probe.probe(bytes: BoxBuilder.movie(spec))
        #expect(ContinuousClock.now - started < .seconds(1))
    }

    @Test("counts larger than the file can hold")
    func hugeCounts() {
        // An edit list that claims 2^32-1 entries.
        var spec = BoxBuilder.MovieSpec()
        spec.edits = [1000]
        var bytes = BoxBuilder.movie(spec)
        if let at = find(bytes, "elst") {
            bytes.replaceSubrange(at + 12..<at + 16, with: [0xFF, 0xFF, 0xFF, 0xFF])
        }
        expectError(bytes, .malformed, mentions: "edit list")

        // An IFD that claims 65535 entries in a 30-byte block.
        var w = ByteWriter()
        w.ascii("MM")
        w.u16(42)
        w.u32(8)
        w.u16(0xFFFF)
        w.zeros(16)
        let info = try? probe.probe(bytes: TIFFBuilder.jpeg(width: 8, height: 8, exif: w.bytes))
        #expect(info?.width == 8, "a broken EXIF block must not lose the picture's facts")
    }

    @Test("a JPEG segment that runs past the end")
    func jpegSegment() {
        expectError([0xFF, 0xD8, 0xFF, 0xE1, 0xFF, 0xF0, 0x45, 0x78], .truncated, mentions: "segment")
    }

    @Test("a JPEG or HEIC cut inside its image data is cut short; bytes after a whole image are not a cut")
    func cutImageData() throws {
        let jpeg = TIFFBuilder.jpeg(width: 8, height: 8, exif: nil)
        expectError(Array(jpeg.dropLast(2)), .truncated, mentions: "end marker (FF D9)")
        expectError(Array(jpeg.dropLast(1)), .truncated, mentions: "end marker (FF D9)")
        // Zero padding, Samsung's trailer, a motion photo's movie: the image before them is whole.
        for after in [[UInt8](repeating: 0, count: 100), Array("SEFH-records-SEFT".utf8), BoxBuilder.movie(.init())] {
            #expect(try probe.probe(bytes: jpeg + after).width == 8)
        }
        // Longer data after the image: the marker is looked for a block at a time from the end,
        // and is found where it falls across two blocks (4095 and 69,631 bytes after it).
        for count in [4095, 4096, 69_631, 200_000] {
            #expect(try probe.probe(bytes: jpeg + [UInt8](repeating: 1, count: count)).width == 8, "\(count)")
        }
        let heic = HEIFBuilder().build()
        expectError(Array(heic.dropLast(4)), .truncated, mentions: "'mdat'")
        // A few stray bytes, or a box of some tag cut short, after the image data are not the picture.
        #expect(try probe.probe(bytes: heic + [1, 2, 3]).width == 4032)
        #expect(try probe.probe(bytes: heic + [0, 0, 0, 100] + Array("junk".utf8)).width == 4032)
    }

    @Test("PNG, GIF, WebP and Matroska headers cut short")
    func cutHeaders() {
        expectError([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48], .truncated)
        expectError(Array("GIF89a".utf8) + [1, 0], .truncated)
        expectError(Array("RIFF".utf8) + [30, 0, 0, 0] + Array("WEBPVP8 ".utf8) + [0xFF, 0xFF, 0, 0], .truncated)
        expectError([0x1A, 0x45, 0xDF, 0xA3, 0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], .truncated)
    }

    @Test("every cut of every fixture gives facts or an error", arguments: Fixture.allCases)
    func truncations(_ fixture: Fixture) throws {
        let bytes = try Fixtures.bytes(fixture)
        let started = ContinuousClock.now
        // Cut at 64 evenly spread points plus the first 300 byte boundaries, where headers live.
        var cuts = Set((0..<64).map { bytes.count * $0 / 64 })
        cuts.formUnion(0..<min(300, bytes.count))
        for cut in cuts.sorted() {
            _ = try? probe.probe(bytes: Array(bytes[0..<cut]))
        }
        #expect(ContinuousClock.now - started < .seconds(20))
    }

    @Test("random byte changes in every fixture give facts or an error", arguments: Fixture.allCases)
    func mutations(_ fixture: Fixture) throws {
        let original = try Fixtures.bytes(fixture)
        var random = SplitMix64(seed: Fixtures.stableSeed(fixture.rawValue))
        let window = min(original.count, 8192)  // headers and metadata live near the start or in moov
        for _ in 0..<300 {
            var bytes = original
            for _ in 0..<Int(random.next() % 8 + 1) {
                let index: Int
                if random.next() % 2 == 0 {
                    index = Int(random.next() % UInt64(window))
                } else {
                    index = Int(random.next() % UInt64(bytes.count))
                }
                bytes[index] = UInt8(truncatingIfNeeded: random.next())
            }
            _ = try? probe.probe(bytes: bytes)
        }
    }

    @Test("inputs the fuzzer found stay fixed")
    func fuzzRegressions() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures/fuzz-regressions")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(!names.isEmpty)
        for name in names {
            let bytes = [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
            let started = ContinuousClock.now
            _ = try? probe.probe(bytes: bytes)
            #expect(ContinuousClock.now - started < .seconds(1), "\(name)")
        }
    }

    private func find(_ bytes: [UInt8], _ type: String) -> Int? {
        let pattern = Array(type.utf8)
        guard bytes.count >= 4 else { return nil }
        for index in 4...(bytes.count - 4) where Array(bytes[index..<index + 4]) == pattern {
            return index - 4
        }
        return nil
    }
}
