import Foundation
import Pickup
import PickupImport
import PickupStore
import PickupTestSupport
import Testing

/// Importing real media into a destination folder through the public API.
@Suite("Import", .timeLimit(.minutes(2)))
struct ImportSessionTests {
    let probe = MediaProbe()

    /// A fresh scratch folder with `sources/` and a destination path `library/`.
    final class Scratch {
        let root: String
        var sources: String { root + "/sources" }
        var library: String { root + "/library" }

        init() throws {
            root = try Temporary.folder("import", inside: "sources")
        }

        deinit { try? FileManager.default.removeItem(atPath: root) }

        @discardableResult
        func add(_ fixture: Fixture, as name: String, in folder: String = "") throws -> String {
            let directory = sources + (folder.isEmpty ? "" : "/" + folder)
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let path = directory + "/" + name
            try FileManager.default.copyItem(atPath: try Fixtures.path(fixture), toPath: path)
            return path
        }

        func write(_ bytes: [UInt8], as name: String) throws -> String {
            let path = sources + "/" + name
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            return path
        }

        /// Mounts a file system (`mount ARGUMENTS DIR`) at `name` in the scratch folder for the
        /// length of `body`, which gets its path; unmounted before this returns or throws.
        func withMount(_ arguments: String, at name: String, _ body: (String) async throws -> Void) async throws {
            let mount = root + "/" + name
            try FileManager.default.createDirectory(atPath: mount, withIntermediateDirectories: true)
            let mounted = try Shell.run("mount \(arguments) \"$M\"", environment: ["M": mount])
            try #require(mounted.status == 0, "mount \(arguments) failed: \(mounted.errorText)")
            defer { _ = try? Shell.run("umount \"$M\"", environment: ["M": mount]) }
            try await body(mount)
        }

        /// Names in the library folder, hidden ones left out.
        func stored() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: library).filter { !$0.hasPrefix(".") }.sorted()
        }

        func everything() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: library).sorted()
        }
    }

    func requests(_ paths: [String]) throws -> [ImportRequest] {
        try paths.map { ImportRequest(path: $0, info: try probe.probe(path: $0)) }
    }

    func sha256(_ path: String) throws -> String {
        let hasher = DigestHasher()
        hasher.update([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        return hasher.finalizeHex()
    }

    @Test("files are copied whole, hashed, named readably and recorded; results keep the selection order")
    func basic() async throws {
        let scratch = try Scratch()
        let movie = try scratch.add(.mp4Faststart, as: "IMG_0002.MP4")
        let photo = try scratch.add(.jpegEXIF, as: "IMG_0001.JPG")
        let session = try ImportSession(destination: scratch.library)
        let results = await session.run(try requests([movie, photo]))
        #expect(results.count == 2)
        let first = try #require(results[0].item)
        let second = try #require(results[1].item)
        #expect(first.originalName == "IMG_0002.MP4" && second.originalName == "IMG_0001.JPG")
        #expect(try scratch.stored() == ["IMG_0001.JPG", "IMG_0002.MP4"])
        #expect(first.primary?.sha256 == (try sha256(movie)))
        #expect(try sha256(scratch.library + "/IMG_0002.MP4") == (try sha256(movie)))
        #expect(first.id == String(try sha256(movie).prefix(12)))
        let catalog = try await session.catalog.items()
        #expect(Set(catalog.map(\.id)) == [first.id, second.id])
        #expect(catalog.first { $0.id == second.id }?.info.exifOrientation == 8)
    }

    @Test("an item is found by its stored file's path, as an upload's record keeps it; another path finds none")
    func itemAtPath() async throws {
        let scratch = try Scratch()
        let photo = try scratch.add(.jpegEXIF, as: "IMG_0001.JPG")
        let session = try ImportSession(destination: scratch.library, options: ImportOptions(layout: .date))
        let item = try #require(await session.run(try requests([photo])).first?.item)
        let stored = session.path(of: try #require(item.primary))
        #expect(stored.contains("/2024/"), "a date layout's subfolder: \(stored)")
        #expect(try await session.item(at: stored)?.id == item.id)
        #expect(try await session.item(at: photo) == nil, "the source is not the library's")
        #expect(try await session.item(at: scratch.library + "/2024/05/other.jpg") == nil)
        _ = try await session.remove(item)
        #expect(try await session.item(at: stored) == nil, "removed")
    }

    @Test("a copy keeps its source's modification time, as cp -p does")
    func modificationTime() async throws {
        let scratch = try Scratch()
        let movie = try scratch.add(.mp4Faststart, as: "IMG_0003.MP4")
        let photo = try scratch.add(.jpegEXIF, as: "IMG_0004.JPG")
        // A camera file's own date: 2019-08-07 06:05:04.25 UTC.
        let taken = Date(timeIntervalSince1970: 1_565_157_904.25)
        for path in [movie, photo] {
            try FileManager.default.setAttributes([.modificationDate: taken], ofItemAtPath: path)
        }
        let session = try ImportSession(destination: scratch.library)
        let results = await session.run(try requests([movie, photo]))
        for result in results {
            let file = try #require(result.item?.primary)
            let attributes = try FileManager.default.attributesOfItem(atPath: session.path(of: file))
            let modified = try #require(attributes[.modificationDate] as? Date)
            #expect(abs(modified.timeIntervalSince(taken)) < 0.001, "\(file.name): \(modified)")
        }
    }

    @Test("an iPhone's edits (.AAE) are stored with their item, verified, and put back when lost")
    func edits() async throws {
        let scratch = try Scratch()
        let photo = try scratch.add(.jpegEXIF, as: "IMG_0005.JPG")
        let edits = try scratch.write(Array("<plist><dict/></plist>".utf8), as: "IMG_0005.AAE")
        let session = try ImportSession(destination: scratch.library)
        let request = ImportRequest(path: photo, info: try probe.probe(path: photo), edits: edits)
        let item = try #require(await session.run([request]).first?.item)
        #expect(item.files.map(\.role) == [.primary, .edits])
        let editsHash = try sha256(edits)
        #expect(item.files.last?.name == "IMG_0005.AAE" && item.files.last?.sha256 == editsHash)
        #expect(try scratch.stored() == ["IMG_0005.AAE", "IMG_0005.JPG"])
        #expect(try await LibraryVerifier(folder: scratch.library, catalog: session.catalog).verify().isClean)
        // The edits file lost from the library: importing again puts it back, checked.
        try FileManager.default.removeItem(atPath: scratch.library + "/IMG_0005.AAE")
        let again = try #require(await session.run([request]).first)
        if case .restored(let restored) = again {
            #expect(restored.files.map(\.role) == [.primary, .edits])
        } else {
            Issue.record("expected restored, got \(again)")
        }
        #expect(try sha256(scratch.library + "/IMG_0005.AAE") == editsHash)
    }

    @Test("two files with one name from different folders never overwrite each other")
    func collisions() async throws {
        let scratch = try Scratch()
        let a = try scratch.add(.jpegPlain, as: "IMG_0001.JPG", in: "DCIM/100APPLE")
        let b = try scratch.add(.jpegEXIF, as: "IMG_0001.JPG", in: "DCIM/101APPLE")
        let c = try scratch.add(.pngRGBA, as: "IMG_0001.JPG", in: "Downloads")
        let session = try ImportSession(destination: scratch.library, options: ImportOptions(concurrency: 3))
        let results = await session.run(try requests([a, b, c]))
        #expect(results.allSatisfy { $0.item != nil })
        #expect(try scratch.stored() == ["IMG_0001 2.JPG", "IMG_0001 3.JPG", "IMG_0001.JPG"])
        let hashes = Set(try scratch.stored().map { try sha256(scratch.library + "/" + $0) })
        #expect(hashes == Set([try sha256(a), try sha256(b), try sha256(c)]))
    }

    @Test("small photos and a large video, many at a time: each item reported imported is named, recorded, intact")
    func manySmallAndOneLarge() async throws {
        let scratch = try Scratch()
        let photo = try Fixtures.bytes(.jpegPlain)
        // Small photos share their flushes (FlushRounds); the video, over 8 MB, is flushed alone.
        var paths = try (0..<120).map { number in
            try scratch.write(photo + Array("unique \(number)".utf8), as: "IMG_\(1000 + number).JPG")
        }
        var video = try Fixtures.bytes(.mp4Large)
        let padding = 20 << 20  // a `free` box after the movie: still a valid MP4
        video += withUnsafeBytes(of: UInt32(padding).bigEndian, Array.init) + Array("free".utf8)
        video += [UInt8](repeating: 3, count: padding - 8)
        paths.insert(try scratch.write(video, as: "IMG_0999.MP4"), at: 60)
        let session = try ImportSession(destination: scratch.library, options: ImportOptions(concurrency: 2))
        let results = await session.run(try requests(paths))
        #expect(results.allSatisfy { if case .imported = $0 { return true } else { return false } })
        #expect(try scratch.stored().count == 121)
        #expect(try await LibraryVerifier(folder: scratch.library, catalog: session.catalog).verify().isClean)
        // A session opened afresh over the folder knows every item: nothing is copied again.
        let again = await (try ImportSession(destination: scratch.library)).run(try requests(paths))
        #expect(again.allSatisfy { if case .reused = $0 { return true } else { return false } })
        #expect(try scratch.stored().count == 121)
    }

    @Test("same-named files from two folders are named in selection order, whichever copy ends first")
    func namesInSelectionOrder() async throws {
        for _ in 0..<3 {
            let scratch = try Scratch()
            // The first is large (a JPEG with 40 MB after its end: slow to copy), the second small.
            var large = try Fixtures.bytes(.jpegPlain)
            large += [UInt8](repeating: 7, count: 40 << 20)
            try FileManager.default.createDirectory(
                atPath: scratch.sources + "/100APPLE", withIntermediateDirectories: true)
            let first = try scratch.write(large, as: "100APPLE/IMG_0001.JPG")
            let second = try scratch.add(.jpegEXIF, as: "IMG_0001.JPG", in: "101APPLE")
            let session = try ImportSession(destination: scratch.library, options: ImportOptions(concurrency: 2))
            let results = await session.run(try requests([first, second]))
            #expect(results.map { $0.item?.primary?.name } == ["IMG_0001.JPG", "IMG_0001 2.JPG"])
        }
    }

    @Test("small photos copied in one batch each end as alone: names in order, one twin, one refused")
    func batch() async throws {
        let scratch = try Scratch()
        let first = try scratch.add(.jpegPlain, as: "IMG_0001.JPG", in: "100APPLE")
        let second = try scratch.add(.jpegEXIF, as: "IMG_0001.JPG", in: "101APPLE")
        let swapped = try scratch.add(.heic, as: "IMG_0002.HEIC")
        let twin = try scratch.add(.jpegPlain, as: "IMG_0003.JPG")
        var batch = try requests([first, second, swapped, twin])
        // The third is replaced by another file after it was found: refused when its copy begins.
        batch[2].expected[swapped] = try #require(FileStatus(path: swapped)).identity
        let other = try scratch.add(.heic, as: "other.HEIC")  // made while the first is there: another inode
        #expect(rename(other, swapped) == 0)
        let session = try ImportSession(destination: scratch.library)
        let results = await session.run(batch)
        #expect(results.map { $0.item?.primary?.name } == ["IMG_0001.JPG", "IMG_0001 2.JPG", nil, "IMG_0001.JPG"])
        guard case .imported(let item) = results[0], case .imported = results[1], case .reused(let same) = results[3]
        else {
            Issue.record("expected imported, imported, failed, reused: \(results)")
            return
        }
        #expect(same.id == item.id)
        #expect(results[2].error?.code == .sourceUnreadable)
        #expect(try scratch.stored() == ["IMG_0001 2.JPG", "IMG_0001.JPG"])
        #expect(try await session.catalog.items().count == 2)
    }

    @Test("importing again reuses what is there: no second copy")
    func reuse() async throws {
        let scratch = try Scratch()
        let photo = try scratch.add(.heic, as: "IMG_0003.HEIC")
        let twin = try scratch.add(.heic, as: "copy of IMG_0003.HEIC", in: "elsewhere")
        let session = try ImportSession(destination: scratch.library)
        let first = await session.run(try requests([photo]))
        guard case .imported(let item) = first[0] else { Issue.record("not imported: \(first)"); return }
        let again = await session.run(try requests([photo, twin]))
        guard case .reused(let same) = again[0], case .reused(let content) = again[1] else {
            Issue.record("expected reuse, got \(again)")
            return
        }
        #expect(same.id == item.id && content.id == item.id)
        #expect(try scratch.stored() == ["IMG_0003.HEIC"])
        #expect(try await session.catalog.items().count == 1)
    }

    /// A Live Photo: `NAME.HEIC` (its content identifier in Apple's maker note) and `NAME.MOV`.
    func livePhoto(in scratch: Scratch, named name: String) throws -> (still: String, movie: String) {
        let movie = try scratch.add(.movAppleKeys, as: name + ".MOV")
        var tiff = TIFFBuilder()
        tiff.exif = [
            (0x927C, .undefined(TIFFBuilder.appleMakerNote(contentIdentifier: "1E2D3C4B-5A69-7887-96A5-B4C3D2E1F001")))
        ]
        var heif = HEIFBuilder()
        heif.exif = tiff.build()
        return (try scratch.write(heif.build(), as: name + ".HEIC"), movie)
    }

    @Test("a Live Photo's still and movie are imported together as one item")
    func livePhoto() async throws {
        let scratch = try Scratch()
        let (still, movie) = try livePhoto(in: scratch, named: "IMG_0004")
        let plan = ImportPlan(files: [(movie, try probe.probe(path: movie)), (still, try probe.probe(path: still))])
        #expect(plan.requests.count == 1)
        #expect(plan.requests[0].livePhotoMovie == movie)
        let results = await (try ImportSession(destination: scratch.library)).run(plan.requests)
        let item = try #require(results[0].item)
        #expect(item.isLivePhoto)
        #expect(item.files.map(\.role) == [.primary, .livePhotoMovie])
        #expect(try scratch.stored() == ["IMG_0004.HEIC", "IMG_0004.MOV"])
    }

    @Test(
        "a Live Photo's still imported alone, then the pair: the movie is added to the item, not dropped",
        arguments: [false, true])
    func livePhotoCompleted(rehash: Bool) async throws {
        let scratch = try Scratch()
        let (still, movie) = try livePhoto(in: scratch, named: "IMG_0005")
        var options = ImportOptions()
        options.rehash = rehash
        let session = try ImportSession(destination: scratch.library, options: options)
        let alone = try #require(await session.run(try requests([still]))[0].item)
        #expect(!alone.isLivePhoto)
        let plan = ImportPlan(files: [(movie, try probe.probe(path: movie)), (still, try probe.probe(path: still))])
        let run = session.start(plan.requests)
        var counts: (imported: Int, reused: Int, failed: Int)?
        for await event in run.events {
            if case .completed(let imported, let reused, let failed) = event { counts = (imported, reused, failed) }
        }
        let pair = await run.results()
        guard case .completed(let completed, let added) = pair[0] else {
            Issue.record("not completed: \(pair)")
            return
        }
        #expect(added == ["IMG_0005.MOV"])
        #expect(counts.map { [$0.imported, $0.reused, $0.failed] } == [1, 0, 0], "files were copied in: not failed")
        #expect(completed.id == alone.id)
        #expect(completed.files.map(\.role) == [.primary, .livePhotoMovie])
        #expect(try scratch.stored() == ["IMG_0005.HEIC", "IMG_0005.MOV"])
        let stored = try Data(contentsOf: URL(fileURLWithPath: scratch.library + "/IMG_0005.MOV"))
        #expect(stored == (try Data(contentsOf: URL(fileURLWithPath: movie))))
        let items = try await session.catalog.items()
        #expect(items.count == 1 && items.first?.isLivePhoto == true, "\(items)")
        // Whole now: the pair again is reused, nothing copied.
        guard case .reused = await session.run(plan.requests)[0] else {
            Issue.record("not reused the third time")
            return
        }
        #expect(try scratch.stored() == ["IMG_0005.HEIC", "IMG_0005.MOV"])
    }

    @Test(
        "a Live Photo's movie picked alone after the pair was imported is that item's: already there, or put back",
        arguments: [false, true])
    func livePhotoMovieAlone(rehash: Bool) async throws {
        let scratch = try Scratch()
        let (still, movie) = try livePhoto(in: scratch, named: "IMG_0006")
        var options = ImportOptions()
        options.rehash = rehash
        let session = try ImportSession(destination: scratch.library, options: options)
        let plan = ImportPlan(files: [(movie, try probe.probe(path: movie)), (still, try probe.probe(path: still))])
        let pair = try #require(await session.run(plan.requests)[0].item)
        #expect(pair.isLivePhoto)
        // The movie alone: the dry run and the import agree it is there, as the pair's movie.
        let alone = try requests([movie])
        let preview = await ImportPreview.run(alone, catalog: session.catalog)
        #expect((try? preview[0].get()) == .alreadyThere(pair), "\(preview)")
        guard case .reused(let reused) = await session.run(alone)[0] else {
            Issue.record("the movie alone was not found in its Live Photo")
            return
        }
        #expect(reused.id == pair.id)
        #expect(try scratch.stored() == ["IMG_0006.HEIC", "IMG_0006.MOV"])
        #expect(try await session.catalog.items().count == 1)
        // Its stored copy gone: the movie alone puts it back under its name, in the same item.
        try FileManager.default.removeItem(atPath: scratch.library + "/IMG_0006.MOV")
        let again = await ImportPreview.run(alone, catalog: session.catalog)
        #expect((try? again[0].get()) == .wouldRestore(pair), "\(again)")
        guard case .restored(let restored) = await session.run(alone)[0] else {
            Issue.record("the missing movie was not put back")
            return
        }
        #expect(restored.id == pair.id)
        #expect(try scratch.stored() == ["IMG_0006.HEIC", "IMG_0006.MOV"])
        let back = try Data(contentsOf: URL(fileURLWithPath: scratch.library + "/IMG_0006.MOV"))
        #expect(back == (try Data(contentsOf: URL(fileURLWithPath: movie))))
        #expect(try await session.catalog.items().count == 1)
    }

    @Test(
        "a Live Photo's still imported alone, then its movie alone (in a catalog of an earlier version too): the movie completes the still",
        arguments: [false, true])
    func livePhotoStillThenMovieAlone(olderCatalog: Bool) async throws {
        let scratch = try Scratch()
        let (still, movie) = try livePhoto(in: scratch, named: "IMG_0007")
        let first = try ImportSession(destination: scratch.library)
        let alone = try #require(await first.run(try requests([still]))[0].item)
        #expect(!alone.isLivePhoto)
        if olderCatalog {
            // As a catalog of version 4 left it: no content identifiers kept apart, no index.
            let database = try SQLiteDatabase(path: scratch.library + "/.pickup/catalog.sqlite")
            try database.execute("DROP INDEX items_by_content_id")
            try database.execute("ALTER TABLE items DROP COLUMN content_id")
            try database.execute("PRAGMA user_version = 4")
            // Opened only to read (a dry run), it answers without the column: not found.
            let reader = try ImportCatalog(folder: scratch.library, readOnly: true)
            let read = await ImportPreview.run(try requests([movie]), catalog: reader)
            #expect((try? read[0].get()) == .wouldImport, "\(read)")
        }
        let session = try ImportSession(destination: scratch.library)
        let lone = try requests([movie])
        let preview = await ImportPreview.run(lone, catalog: session.catalog)
        #expect((try? preview[0].get()) == .wouldComplete(alone), "\(preview)")
        guard case .completed(let completed, let added) = await session.run(lone)[0] else {
            Issue.record("the movie alone did not complete its still")
            return
        }
        #expect(completed.id == alone.id && completed.isLivePhoto && added == ["IMG_0007.MOV"])
        #expect(completed.files.map(\.role) == [.primary, .livePhotoMovie])
        #expect(try scratch.stored() == ["IMG_0007.HEIC", "IMG_0007.MOV"])
        let items = try await session.catalog.items()
        #expect(items.count == 1 && items.first?.isLivePhoto == true, "\(items)")
        #expect(items.first?.files.last?.duration != nil, "the movie's duration is kept")
        // Again: already there, nothing copied.
        guard case .reused = await session.run(lone)[0] else {
            Issue.record("not reused the second time")
            return
        }
        #expect(try scratch.stored() == ["IMG_0007.HEIC", "IMG_0007.MOV"])
    }

    @Test("a stored copy that rotted behind its size: found by --rehash, which reads it, and put back from the source")
    func rehashReadsStoredCopies() async throws {
        let scratch = try Scratch()
        let photo = try scratch.add(.jpegEXIF, as: "IMG_0008.JPG")
        let session = try ImportSession(destination: scratch.library)
        let item = try #require(await session.run(try requests([photo]))[0].item)
        let stored = scratch.library + "/IMG_0008.JPG"
        let handle = try #require(FileHandle(forUpdatingAtPath: stored))
        try handle.seek(toOffset: 200)
        let byte = try #require(try handle.read(upToCount: 1)?.first)
        try handle.seek(toOffset: 200)
        try handle.write(contentsOf: Data([byte ^ 0xFF]))
        try handle.close()
        // Without --rehash, sizes decide: already there (`library verify` reads the bytes).
        guard case .reused = await session.run(try requests([photo]))[0] else {
            Issue.record("not reused without --rehash")
            return
        }
        var options = ImportOptions()
        options.rehash = true
        let thorough = try ImportSession(destination: scratch.library, options: options)
        let preview = await ImportPreview.run(try requests([photo]), catalog: thorough.catalog, rehash: true)
        #expect((try? preview[0].get()) == .wouldRestore(item), "\(preview)")
        guard case .restored(let restored) = await thorough.run(try requests([photo]))[0] else {
            Issue.record("the rotted copy was not put back")
            return
        }
        #expect(restored.id == item.id)
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: stored)) == (try Data(contentsOf: URL(fileURLWithPath: photo))))
        guard case .reused = await thorough.run(try requests([photo]))[0] else {
            Issue.record("not reused once whole again")
            return
        }
    }

    @Test(
        "a Live Photo's movie imported alone first, then its pair or its still: one Live Photo, the movie not stored twice",
        arguments: [true, false])
    func livePhotoMovieFirst(pair: Bool) async throws {
        let scratch = try Scratch()
        let (still, movie) = try livePhoto(in: scratch, named: "IMG_0009")
        let session = try ImportSession(destination: scratch.library)
        let video = try #require(await session.run(try requests([movie]))[0].item)
        #expect(video.kind == .video)
        let plan =
            pair
            ? ImportPlan(files: [(movie, try probe.probe(path: movie)), (still, try probe.probe(path: still))])
            : ImportPlan(files: [(still, try probe.probe(path: still))])
        // Completed: the library held its movie, and only the still was added (a picker that
        // deselects it keeps the movie it held before).
        guard case .completed(let livePhoto, let added) = await session.run(plan.requests)[0] else {
            Issue.record("the Live Photo was not made of the movie held and the still")
            return
        }
        #expect(added == ["IMG_0009.HEIC"])
        #expect(livePhoto.isLivePhoto && livePhoto.files.map(\.role) == [.primary, .livePhotoMovie])
        #expect(livePhoto.files.last?.name == "IMG_0009.MOV", "the movie's file is the video item's")
        #expect(try scratch.stored() == ["IMG_0009.HEIC", "IMG_0009.MOV"])
        let items = try await session.catalog.items()
        #expect(items.map(\.id) == [livePhoto.id], "the video item is now the Live Photo's movie: \(items)")
        let stored = try Data(contentsOf: URL(fileURLWithPath: scratch.library + "/IMG_0009.MOV"))
        #expect(stored == (try Data(contentsOf: URL(fileURLWithPath: movie))))
        let verified = try await LibraryVerifier(folder: scratch.library, catalog: session.catalog).verify()
        #expect(verified.findings.isEmpty, "\(verified.findings)")
        // Again: already there, nothing copied.
        guard case .reused = await session.run(plan.requests)[0] else {
            Issue.record("not reused the second time")
            return
        }
        #expect(try scratch.stored() == ["IMG_0009.HEIC", "IMG_0009.MOV"])
    }

    @Test("two stills of one content identifier and the movie imported before: one takes it over, the other is a photo")
    func twoStillsOneMovie() async throws {
        let scratch = try Scratch()
        let (still, movie) = try livePhoto(in: scratch, named: "IMG_0010")
        // A JPEG of the same Live Photo (an export), with the same content identifier.
        var tiff = TIFFBuilder()
        tiff.exif = [
            (0x927C, .undefined(TIFFBuilder.appleMakerNote(contentIdentifier: "1E2D3C4B-5A69-7887-96A5-B4C3D2E1F001")))
        ]
        let export = scratch.sources + "/IMG_0010.JPG"
        try Data(TIFFBuilder.jpeg(width: 8, height: 8, exif: tiff.build())).write(to: URL(fileURLWithPath: export))
        let session = try ImportSession(destination: scratch.library)
        _ = try #require(await session.run(try requests([movie]))[0].item)
        let results = await session.run(try requests([still, export]))
        #expect(results.allSatisfy { $0.item != nil }, "\(results)")
        let items = try await session.catalog.items()
        #expect(items.count == 2 && items.filter(\.isLivePhoto).count == 1, "\(items)")
        #expect(try scratch.stored() == ["IMG_0010.HEIC", "IMG_0010.JPG", "IMG_0010.MOV"])
    }

    @Test("plans: filter, order, limit, files listed twice")
    func planning() throws {
        let scratch = try Scratch()
        let old = try scratch.add(.mp4AndroidLocation, as: "IMG_10.MP4")  // 2022
        let new = try scratch.add(.jpegEXIF, as: "IMG_9.JPG")  // 2024
        let none = try scratch.add(.pngRGBA, as: "img_1.png")  // no date
        let files = try [old, new, none, old].map { ($0, try probe.probe(path: $0)) }
        func names(_ plan: ImportPlan) -> [String] { plan.requests.map(\.name) }
        #expect(names(ImportPlan(files: files)) == ["IMG_10.MP4", "IMG_9.JPG", "img_1.png"])
        #expect(ImportPlan(files: files).skipped.map(\.error.code) == [.duplicateSource])
        #expect(names(ImportPlan(files: files, order: .newest)) == ["IMG_9.JPG", "IMG_10.MP4", "img_1.png"])
        #expect(names(ImportPlan(files: files, order: .oldest)) == ["IMG_10.MP4", "IMG_9.JPG", "img_1.png"])
        #expect(names(ImportPlan(files: files, order: .name)) == ["img_1.png", "IMG_9.JPG", "IMG_10.MP4"])
        #expect(names(ImportPlan(files: files, filter: .images)) == ["IMG_9.JPG", "img_1.png"])
        #expect(names(ImportPlan(files: files, order: .newest, limit: 1)) == ["IMG_9.JPG"])
    }

    @Test("names with newlines and leading dots are stored safely; long names are cut to 200 bytes")
    func awkwardNames() async throws {
        let scratch = try Scratch()
        let newline = try scratch.add(.jpegPlain, as: "two\nlines.jpg")
        let dotted = try scratch.add(.pngRGBA, as: ".hidden.png")
        let long = try scratch.add(.gifAnimated, as: String(repeating: "é", count: 120) + ".gif")  // 245 bytes
        let session = try ImportSession(destination: scratch.library)
        let results = await session.run(try requests([newline, dotted, long]))
        #expect(results.allSatisfy { $0.item != nil })
        let stored = try scratch.stored()
        #expect(stored.contains("two_lines.jpg"))
        #expect(stored.contains("hidden.png"))
        #expect(stored.contains { $0.hasPrefix("éé") && $0.hasSuffix(".gif") })
        #expect(stored.allSatisfy { $0.utf8.count <= 200 && !$0.contains("\n") })
        let cut = ImportNaming.storedName(for: String(repeating: "é", count: 300) + ".jpg")
        #expect(cut.utf8.count <= 200 && cut.hasSuffix(".jpg"))
    }

    @Test("bad sources fail alone; good items import; nothing partial is left")
    func badSources() async throws {
        let scratch = try Scratch()
        let good = try scratch.add(.jpegPlain, as: "good.jpg")
        let vanishing = try scratch.add(.pngRGBA, as: "vanishing.png")
        let locked = try scratch.add(.gifAnimated, as: "locked.gif")
        var list = try requests([good, vanishing, locked])
        try FileManager.default.removeItem(atPath: vanishing)
        chmod(locked, 0)
        defer { chmod(locked, 0o644) }
        list.append(ImportRequest(path: scratch.sources, info: list[0].info))  // a folder, not a file
        let session = try ImportSession(destination: scratch.library)
        let results = await session.run(list)
        #expect(results[0].item != nil)
        #expect(results[1].error?.code == .sourceUnreadable)
        #expect(results[1].error?.description.contains("vanishing.png") == true)
        if getuid() != 0 {  // root reads files whatever their mode
            #expect(results[2].error?.code == .permissionDenied)
        }
        #expect(results[3].error != nil)
        #expect(try scratch.everything().allSatisfy { !$0.hasPrefix(".pickup-partial") })
    }

    @Test(
        "a full destination fails the item that does not fit, keeps the others, leaves nothing partial",
        .enabled(if: getuid() == 0, "mounting a small tmpfs needs root"))
    func destinationFull() async throws {
        let scratch = try Scratch()
        let small = try scratch.add(.jpegPlain, as: "small.jpg")  // ~40 KB
        let big = try scratch.add(.mp4Large, as: "big.mp4")  // several MB
        try await scratch.withMount("-t tmpfs -o size=1536k tmpfs", at: "tiny") { mount in
            // One copy at a time: with two in flight, the big one could fill the disk under the small one.
            let session = try ImportSession(destination: mount + "/library", options: ImportOptions(concurrency: 1))
            let results = await session.run(try requests([small, big]))
            #expect(results[0].item != nil)
            let error = try #require(results[1].error)
            #expect(error.code == .destinationFull)
            #expect(error.description.contains("full"))
            let names = try FileManager.default.contentsOfDirectory(atPath: mount + "/library").filter {
                $0 != ".pickup"
            }
            #expect(names == ["small.jpg"])
            #expect(try await session.catalog.items().count == 1)
        }
    }

    @Test("a source inside the destination is refused")
    func sourceInsideDestination() async throws {
        let scratch = try Scratch()
        let session = try ImportSession(destination: scratch.library)
        let inside = scratch.library + "/already.jpg"
        try FileManager.default.copyItem(atPath: try Fixtures.path(.jpegPlain), toPath: inside)
        let results = await session.run(try requests([inside]))
        #expect(results[0].error?.code == .sourceInsideDestination)
    }

    @Test("events: planned, started, progress, finished, completed")
    func events() async throws {
        let scratch = try Scratch()
        let movie = try scratch.add(.mp4Large, as: "big.mp4")
        let session = try ImportSession(destination: scratch.library)
        let run = session.start(try requests([movie]))
        var seen: [String] = []
        var lastBytes: Int64 = 0
        for await event in run.events {
            switch event {
            case .planned(let items, let bytes):
                #expect(items == 1 && bytes > 1_000_000)
                seen.append("planned")
            case .started: seen.append("started")
            case .progress(_, let bytes, let total):
                #expect(bytes > lastBytes && bytes <= total)
                lastBytes = bytes
            case .finished: seen.append("finished")
            case .thumbnailFailed: seen.append("thumbnailFailed")
            case .completed(let imported, _, let failed):
                #expect(imported == 1 && failed == 0)
                seen.append("completed")
            }
        }
        #expect(seen == ["planned", "started", "finished", "completed"])
        #expect(lastBytes == Int64(try Data(contentsOf: URL(fileURLWithPath: movie)).count))
    }

    @Test("cancelling leaves no partial file and a catalog that names only whole files")
    func cancellation() async throws {
        let scratch = try Scratch()
        var paths: [String] = []
        for number in 0..<12 { paths.append(try scratch.add(.mp4Large, as: "clip\(number).mp4")) }
        // Make each copy distinct so that none is reused.
        for (number, path) in paths.enumerated() {
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data("\(number)".utf8))
            try handle.close()
        }
        let session = try ImportSession(destination: scratch.library, options: ImportOptions(concurrency: 2))
        let run = session.start(try requests(paths))
        for await event in run.events {
            if case .progress = event { run.cancel() }
        }
        let results = await run.results()
        #expect(results.contains { $0.error?.code == .cancelled })
        #expect(try scratch.everything().allSatisfy { !$0.hasPrefix(".pickup-partial") })
        let catalog = try await session.catalog.items()
        for item in catalog {
            for file in item.files {
                #expect(try sha256(scratch.library + "/" + file.name) == file.sha256)
            }
        }
        #expect(Set(try scratch.stored()) == Set(catalog.flatMap { $0.files.map(\.name) }))
    }

    @Test("temporary files a killed import left are swept when the destination opens")
    func sweep() throws {
        let scratch = try Scratch()
        _ = try ImportSession(destination: scratch.library)
        let leftover = scratch.library + "/.pickup-partial-abc"
        try Data("torn".utf8).write(to: URL(fileURLWithPath: leftover))
        _ = try ImportSession(destination: scratch.library)
        #expect(!FileManager.default.fileExists(atPath: leftover))
    }

    @Test("a copy another session is writing (its temporary locked) survives a second session opening the library")
    func sweepLeavesACopyInFlight() throws {
        let scratch = try Scratch()
        _ = try ImportSession(destination: scratch.library)
        // As a writer holds it: a hidden temporary, locked for as long as the copy is in flight.
        let inFlight = scratch.library + "/.pickup-partial-inflight"
        let writer = open(inFlight, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        try #require(writer >= 0)
        try #require(flock(writer, LOCK_EX | LOCK_NB) == 0)
        _ = try ImportSession(destination: scratch.library)
        #expect(FileManager.default.fileExists(atPath: inFlight))
        // The writer gone (killed: its descriptor closed), the next session sweeps it.
        close(writer)
        _ = try ImportSession(destination: scratch.library)
        #expect(!FileManager.default.fileExists(atPath: inFlight))
    }

    @Test("items can be listed, found by id prefix, and removed with their files")
    func library() async throws {
        let scratch = try Scratch()
        let photo = try scratch.add(.jpegPlain, as: "a.jpg")
        let session = try ImportSession(destination: scratch.library)
        let item = try #require(await session.run(try requests([photo]))[0].item)
        #expect(try await session.catalog.item(id: String(item.id.prefix(5)))?.id == item.id)
        #expect(try await session.catalog.remove(id: item.id)?.id == item.id)
        #expect(try scratch.stored().isEmpty)
        #expect(try await session.catalog.items().isEmpty)
    }
}
