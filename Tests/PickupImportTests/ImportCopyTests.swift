import Foundation
import Pickup
import PickupImport
import PickupStore
import PickupTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The bytes of a copy around the sizes where the copy loop changes what it
/// does: whole chunks streamed to the disk, a chunk's end, a tail of less than a block.
@Suite("Import copies")
struct ImportCopyTests {
    typealias Scratch = ImportSessionTests.Scratch
    let probe = MediaProbe()

    /// A valid JPEG of exactly `size` bytes: the fixture, then unique bytes after its end marker.
    func jpeg(_ size: Int, seed: UInt64, in scratch: Scratch) throws -> String {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try Fixtures.path(.jpegPlain))))
        var state = seed
        while bytes.count < size {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            bytes.append(UInt8(truncatingIfNeeded: state >> 33))
        }
        return try scratch.write(bytes, as: "IMG_\(size)_\(seed).JPG")
    }

    @Test("files ending on, just before and just after block and chunk boundaries are copied byte for byte")
    func boundaries() async throws {
        let scratch = try Scratch()
        let chunk = 4 << 20
        let sizes = [65_535, 65_536, 65_537, chunk - 1, chunk, chunk + 1, chunk + 4096, 3 * chunk + 123]
        var paths: [String] = []
        for (number, size) in sizes.enumerated() { paths.append(try jpeg(size, seed: UInt64(number + 1), in: scratch)) }
        let session = try ImportSession(destination: scratch.library)
        let results = await session.run(try paths.map { ImportRequest(path: $0, info: try probe.probe(path: $0)) })
        for (index, result) in results.enumerated() {
            let item = try #require(result.item, "\(sizes[index]) bytes: \(result)")
            let stored = try Data(contentsOf: URL(fileURLWithPath: scratch.library + "/" + item.files[0].name))
            let source = try Data(contentsOf: URL(fileURLWithPath: paths[index]))
            #expect(stored.count == sizes[index])
            #expect(stored == source, "\(sizes[index]) bytes differ after the copy")
            #expect(item.files[0].size == Int64(sizes[index]))
        }
    }

    @Test("a file swapped for a link after the walk is refused, and the link's target is not copied")
    func swappedForALink() async throws {
        let scratch = try Scratch()
        let path = try scratch.add(.jpegPlain, as: "IMG_0001.JPG")
        let other = try scratch.add(.jpegEXIF, as: "elsewhere.jpg", in: "outside")
        var request = ImportRequest(path: path, info: try probe.probe(path: path))
        request.expected[path] = try #require(FileStatus(path: path)).identity
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: other)
        let session = try ImportSession(destination: scratch.library)
        let results = await session.run([request])
        let error = try #require(results.first?.error, "imported: \(results)")
        #expect(error.code == .sourceUnreadable)
        #expect("\(error)".contains("no longer the file found"), "\(error)")
        let stored = (try? FileManager.default.subpathsOfDirectory(atPath: scratch.library)) ?? []
        #expect(!stored.contains { $0.hasSuffix(".JPG") || $0.hasSuffix(".jpg") }, "\(stored)")
    }

    /// The most items an import had started and not finished at one moment, and the results.
    func mostInFlight(_ paths: [String], into library: String, concurrency: Int) async throws -> (Int, [ImportResult]) {
        let session = try ImportSession(destination: library, options: ImportOptions(concurrency: concurrency))
        let run = session.start(try paths.map { ImportRequest(path: $0, info: try probe.probe(path: $0)) })
        var inFlight = 0
        var most = 0
        for await event in run.events {
            switch event {
            case .started: inFlight += 1
            case .finished(_, let result) where result.item != nil: inFlight -= 1
            default: break
            }
            most = max(most, inFlight)
        }
        return (most, await run.results())
    }

    @Test("small files copy several at a time; large ones no more than asked, so memory stays the same")
    func slots() async throws {
        let scratch = try Scratch()
        var small: [String] = []
        for number in 0..<24 { small.append(try jpeg(70_000, seed: UInt64(100 + number), in: scratch)) }
        let (smallMost, smallResults) = try await mostInFlight(
            small, into: scratch.library + "-small", concurrency: 2)
        #expect(smallResults.allSatisfy { $0.item != nil })
        #expect(smallMost > 8 && smallMost <= 32, "\(smallMost) small files at once")
        var large: [String] = []
        for number in 0..<4 { large.append(try jpeg(5 << 20, seed: UInt64(200 + number), in: scratch)) }
        let (largeMost, largeResults) = try await mostInFlight(
            large, into: scratch.library + "-large", concurrency: 2)
        #expect(largeResults.allSatisfy { $0.item != nil })
        #expect(largeMost <= 2, "\(largeMost) large files at once")
    }

    @Test(
        "on ext4 a large copy does not stay in the page cache once it is flushed",
        .enabled(if: ImportCopyTests.onExt4(), "checked where this machine's disk is ext4"))
    func pastThePageCache() async throws {
        let scratch = try Scratch()
        let path = try jpeg(9 << 20 + 1000, seed: 42, in: scratch)
        let session = try ImportSession(destination: scratch.library)
        let item = try #require(
            await session.run([ImportRequest(path: path, info: try probe.probe(path: path))])[0].item)
        let (resident, pages) = try ImportCopyTests.residentPages(scratch.library + "/" + item.files[0].name)
        #expect(pages > 2000)
        #expect(resident == 0, "\(resident) of \(pages) pages of the copy are in the page cache")
    }

    @Test(
        "on XFS the copy is a reflink: it shares the source's blocks, and its SHA-256 is still that of the bytes",
        .enabled(
            if: getuid() == 0 && FileManager.default.fileExists(atPath: "/dev/loop-control")
                && FileManager.default.isExecutableFile(atPath: "/usr/sbin/mkfs.xfs"),
            "mounting an XFS image needs root, loop devices and mkfs.xfs (scripts/setup.sh installs xfsprogs)"))
    func reflinkOnXFS() async throws {
        let scratch = try Scratch()
        let image = scratch.root + "/xfs.img"
        let made = try Shell.run("truncate -s 400M \"$I\" && mkfs.xfs -q \"$I\"", environment: ["I": image])
        try #require(made.status == 0, "XFS image: \(made.errorText)")
        let picture = try jpeg(20 << 20 + 123, seed: 7, in: scratch)
        try await scratch.withMount("-o loop '\(image)'", at: "xfs") { mount in
            // Source and library on the same XFS file system: only there can blocks be shared.
            let source = mount + "/DCIM/IMG_0001.JPG"
            try FileManager.default.createDirectory(atPath: mount + "/DCIM", withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: picture, toPath: source)
            let session = try ImportSession(destination: mount + "/Library")
            let item = try #require(
                await session.run([ImportRequest(path: source, info: try probe.probe(path: source))])[0].item)
            let copy = mount + "/Library/" + item.files[0].name
            let extents = try Shell.run("filefrag -v \"$F\"", environment: ["F": copy]).outputText
            #expect(extents.contains("shared"), "the copy's blocks are its own: \(extents)")
            #expect(
                try Data(contentsOf: URL(fileURLWithPath: copy)) == Data(contentsOf: URL(fileURLWithPath: source)))
            let hasher = DigestHasher()
            hasher.update([UInt8](try Data(contentsOf: URL(fileURLWithPath: source))))
            #expect(item.files[0].sha256 == hasher.finalizeHex())
            #expect(item.files[0].method == .reflinked)
            #expect(item.files[0].bytesWritten == 0)
            #expect(try await session.catalog.item(id: item.id)?.files[0].method == .reflinked)
            // A second file system: no blocks can be shared, the bytes are copied.
            let other = try Scratch()
            let elsewhere = try other.add(.jpegPlain, as: "IMG_0002.JPG")
            let copied = try #require(
                await session.run([ImportRequest(path: elsewhere, info: try probe.probe(path: elsewhere))])[0].item)
            #expect(copied.files[0].method == .copied)
            #expect(copied.files[0].bytesWritten == copied.files[0].size)
        }
    }

    @Test(
        "on a file system with no disk and no writeback (ramfs), copies are byte for byte",
        .enabled(if: getuid() == 0, "mounting ramfs needs root"))
    func withoutWriteback() async throws {
        let scratch = try Scratch()
        let sizes = [4 << 20, 9 << 20 + 4097]
        var paths: [String] = []
        for (number, size) in sizes.enumerated() {
            paths.append(try jpeg(size, seed: UInt64(300 + number), in: scratch))
        }
        try await scratch.withMount("-t ramfs ramfs", at: "ram") { mount in
            let session = try ImportSession(destination: mount + "/Library")
            let results = await session.run(
                try paths.map { ImportRequest(path: $0, info: try probe.probe(path: $0)) })
            for (index, result) in results.enumerated() {
                let item = try #require(result.item, "\(result)")
                let stored = try Data(contentsOf: URL(fileURLWithPath: mount + "/Library/" + item.files[0].name))
                #expect(stored == (try Data(contentsOf: URL(fileURLWithPath: paths[index]))))
            }
        }
    }

    static func onExt4() -> Bool {
        let type = try? Shell.run(
            "stat -f -c %t \"$D\"", environment: ["D": FileManager.default.temporaryDirectory.path])
        return type?.outputText.trimmingCharacters(in: .whitespacesAndNewlines) == "ef53"
    }

    /// How many of a file's pages are in the page cache (mincore), and how many it has.
    static func residentPages(_ path: String) throws -> (resident: Int, pages: Int) {
        let descriptor = open(path, O_RDONLY)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        var info = stat()
        try #require(fstat(descriptor, &info) == 0)
        let size = Int(info.st_size)
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let mapping = mmap(nil, size, PROT_READ, MAP_SHARED, descriptor, 0)
        try #require(mapping != MAP_FAILED)
        defer { munmap(mapping, size) }
        let pages = (size + page - 1) / page
        var vector = [UInt8](repeating: 0, count: pages)
        try #require(mincore(mapping, size, &vector) == 0)
        return (vector.filter { $0 & 1 != 0 }.count, pages)
    }
}
