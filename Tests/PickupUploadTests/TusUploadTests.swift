import Foundation
import PickupStore
import PickupTestSupport
import PickupUpload
import Testing

/// Uploads to a real tus server on 127.0.0.1: whole, chunked, resumed after a
/// cancel, a server restart or an expiry; the stored bytes' SHA-256 always
/// equals the source's.
@Suite("tus uploads", .serialized)
struct TusUploadTests {

    /// Starts an upload and stops it — cancelled, or by `stop` (killing the server) — once the
    /// server has confirmed `bytes`; returns the record as the upload left it.
    func uploadUntil(
        _ bytes: Int64, _ uploader: Uploader, path: String, server: TusServer, stop: (() -> Void)? = nil
    ) async -> UploadRecord {
        let task = uploader.start(path: path, to: .tus(endpoint: server.endpoint))
        for await event in task.events {
            if case .progress(_, let confirmed, _, _) = event, confirmed >= bytes {
                if let stop { stop() } else { task.cancel() }
                break
            }
        }
        let record = await task.result()
        return record
    }

    @Test("a movie uploads whole; the stored bytes equal the source's")
    func whole() async throws {
        let server = try TusServer()
        let path = try Fixtures.path(.mp4Large)
        let uploader = Uploader(journal: try UploadTestFiles.journal())
        let record = await uploader.upload(path: path, to: .tus(endpoint: server.endpoint))
        #expect(record.state == .done, "\(record.why)")
        #expect(record.offset == record.size)
        let remote = try #require(record.remote)
        #expect(UploadTestFiles.sha256(try server.stored(remote)) == (try UploadTestFiles.sha256(file: path)))
    }

    @Test("the app's metadata reaches the server beside the file's name and type, and its own keys win")
    func metadata() async throws {
        let server = try TusServer()
        let path = try Fixtures.path(.jpegPlain)
        let uploader = Uploader(journal: try UploadTestFiles.journal())
        let record = await uploader.upload(
            path: path, to: .tus(endpoint: server.endpoint), type: "image/jpeg",
            metadata: ["album": "Trip to Kyōto, 2026", "filename": "IMG_0042.JPG"])
        #expect(record.state == .done, "\(record.why)")
        #expect(record.metadata["album"] == "Trip to Kyōto, 2026")
        #expect(try await uploader.journal.record(id: record.id)?.metadata == record.metadata)
        // What the server recorded for the upload (tuspyserver's .info beside its file).
        let id = try #require(record.remote.map { ($0 as NSString).lastPathComponent })
        let info = try String(contentsOfFile: server.folder + "/" + id + ".info", encoding: .utf8)
        let stored = try #require(try JSONSerialization.jsonObject(with: Data(info.utf8)) as? [String: Any])
        let told = try #require(stored["metadata"] as? [String: String], "\(info)")
        #expect(told == ["album": "Trip to Kyōto, 2026", "filename": "IMG_0042.JPG", "filetype": "image/jpeg"])
    }

    @Test("metadata tus cannot carry, or on an upload that is not tus, is refused before anything is sent")
    func metadataRefused() async throws {
        let uploader = Uploader(journal: try UploadTestFiles.journal())
        let path = try Fixtures.path(.jpegPlain)
        let endpoint = try #require(URL(string: "http://127.0.0.1:9/files/"))
        let spaced = await uploader.upload(path: path, to: .tus(endpoint: endpoint), metadata: ["my album": "x"])
        #expect(spaced.state == .failed && spaced.error?.message.contains("'my album' has a space") == true)
        let form = await uploader.upload(
            path: path, to: .form(FormTarget(url: endpoint, field: "file")), metadata: ["album": "x"])
        #expect(form.state == .failed && form.error?.message.contains("tus uploads only") == true)
        #expect(try await uploader.journal.all().isEmpty, "nothing recorded")
    }

    @Test("small chunks: many requests, the same bytes; progress rises to the size")
    func chunked() async throws {
        let server = try TusServer()
        let path = try Fixtures.path(.mp4Faststart)
        let uploader = Uploader(journal: try UploadTestFiles.journal(), options: UploadOptions(chunkSize: 64 << 10))
        let task = uploader.start(path: path, to: .tus(endpoint: server.endpoint))
        let record = await task.result()
        let events = task.events
        var confirmed: [Int64] = []
        for await event in events { if case .progress(_, let bytes, _, _) = event { confirmed.append(bytes) } }
        #expect(record.state == .done)
        #expect(confirmed.count >= 2 && confirmed == confirmed.sorted() && confirmed.last == record.size)
        #expect(
            UploadTestFiles.sha256(try server.stored(try #require(record.remote)))
                == (try UploadTestFiles.sha256(file: path)))
    }

    @Test("cancelled, then resumed by a new uploader from the journal: it goes on from the server's offset")
    func resume() async throws {
        let server = try TusServer()
        let path = try Fixtures.path(.mp4Large)
        let journalPath = Temporary.path("journal", suffix: ".sqlite")
        let first = Uploader(
            journal: try UploadJournal(path: journalPath), options: UploadOptions(chunkSize: 128 << 10))
        let task = first.start(path: path, to: .tus(endpoint: server.endpoint))
        for await event in task.events {
            if case .progress(_, let bytes, _, _) = event, bytes >= 256 << 10 {
                task.cancel()
                break
            }
        }
        let stopped = await task.result()
        #expect(stopped.state == .cancelled)
        #expect(stopped.offset > 0 && stopped.offset < stopped.size)

        // A new process: a new journal connection and a new uploader.
        let second = Uploader(
            journal: try UploadJournal(path: journalPath), options: UploadOptions(chunkSize: 128 << 10))
        let resuming = second.resume(id: stopped.id)
        let resumed = await resuming.result()
        var firstConfirmed: Int64?
        for await event in resuming.events {
            if case .progress(_, let bytes, _, _) = event, firstConfirmed == nil { firstConfirmed = bytes }
        }
        #expect(resumed.state == .done)
        #expect(resumed.remote == stopped.remote)
        // The first chunk after resuming starts where the server stood: at most one chunk was sent again.
        #expect((firstConfirmed ?? 0) > stopped.offset)
        #expect(
            UploadTestFiles.sha256(try server.stored(try #require(resumed.remote)))
                == (try UploadTestFiles.sha256(file: path)))
    }

    @Test("the server killed and restarted between chunks: resume asks its offset and finishes")
    func serverRestart() async throws {
        let server = try TusServer()
        let path = try Fixtures.path(.mp4Large)
        let uploader = Uploader(journal: try UploadTestFiles.journal(), options: UploadOptions(chunkSize: 128 << 10))
        let stopped = await uploadUntil(256 << 10, uploader, path: path, server: server)
        #expect(stopped.offset > 0 && stopped.offset < stopped.size)
        // Cancelling aborted the request in flight; let the server finish with it, then
        // kill it with nothing in flight. It reloads its uploads from disk when it starts.
        try await Task.sleep(nanoseconds: 500_000_000)
        server.stop()
        try server.start()
        let finished = await uploader.resume(id: stopped.id).result()
        #expect(finished.state == .done, "\(finished.why)")
        #expect(finished.remote == stopped.remote)
        #expect(
            UploadTestFiles.sha256(try server.stored(try #require(finished.remote)))
                == (try UploadTestFiles.sha256(file: path)))
    }

    @Test("the server gone in the middle: a clear network error after the set tries, resumable")
    func serverGone() async throws {
        let server = try TusServer()
        let path = try Fixtures.path(.mp4Large)
        let options = UploadOptions(chunkSize: 128 << 10, maxAttempts: 3, baseDelay: 0.05, maxDelay: 0.1)
        let uploader = Uploader(journal: try UploadTestFiles.journal(), options: options)
        let broken = await uploadUntil(256 << 10, uploader, path: path, server: server, stop: { server.stop() })
        #expect(broken.state == .failed)
        #expect(broken.why.contains("failed") == true, "\(broken.why)")
        let saved = try #require(try await uploader.journal.record(id: broken.id))
        #expect(saved.state == .failed && saved.remote != nil)
    }

    @Test("an upload the server forgot starts over and still arrives whole")
    func expired() async throws {
        let server = try TusServer()
        let path = try Fixtures.path(.mp4Large)
        let uploader = Uploader(journal: try UploadTestFiles.journal(), options: UploadOptions(chunkSize: 128 << 10))
        let stopped = await uploadUntil(256 << 10, uploader, path: path, server: server)
        // The server forgets it long after: once it has finished with the PATCH the stop cut
        // short (tuspyserver writes what it received, and would bring the upload back).
        try await Task.sleep(nanoseconds: 500_000_000)
        server.forget(try #require(stopped.remote))
        let finished = await uploader.resume(id: stopped.id).result()
        #expect(finished.state == .done)
        #expect(finished.remote != stopped.remote)
        #expect(
            UploadTestFiles.sha256(try server.stored(try #require(finished.remote)))
                == (try UploadTestFiles.sha256(file: path)))
    }

    @Test("no server: a clear network error after the configured tries, no endless retries")
    func unreachable() async throws {
        let uploader = Uploader(
            journal: try UploadTestFiles.journal(),
            options: UploadOptions(maxAttempts: 3, baseDelay: 0.01, maxDelay: 0.02))
        let task = uploader.start(
            path: try Fixtures.path(.jpegPlain),
            to: .tus(endpoint: try #require(URL(string: "http://127.0.0.1:9/files"))))
        let record = await task.result()
        var retries = 0
        for await event in task.events { if case .retrying = event { retries += 1 } }
        #expect(record.state == .failed)
        #expect(record.why.contains("failed: cannot connect to 127.0.0.1:9") == true, "\(record.why)")
        #expect(record.why.contains("refused") == true, "\(record.why)")
        #expect(retries == 2, "three tries in all, then a clear failure")
        let saved = try #require(try await uploader.journal.record(id: record.id))
        #expect(saved.state == .failed)
    }

    @Test("credentials, queries and fragments never reach errors or the journal")
    func secrets() {
        #expect(
            redacted("https://user:secret@example.com/files/abc?X-Amz-Signature=deadbeef#x")
                == "https://example.com/files/abc")
        #expect(redacted("http://127.0.0.1:8080/files") == "http://127.0.0.1:8080/files")
    }
}
