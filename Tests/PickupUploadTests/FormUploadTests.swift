import Foundation
import PickupTestSupport
import PickupUpload
import Testing

/// Form POST uploads (multipart/form-data, streamed) to a real form server on 127.0.0.1.
@Suite("form uploads", .serialized)
struct FormUploadTests {
    /// A new 1 MB file sent to `server`'s form by an uploader that retries after 10-20 ms: the
    /// record, and the file (the test removes it).
    func sentWithQuickRetries(to server: FormServer) async throws -> (UploadRecord, String) {
        let path = try UploadTestFiles.random(megabytes: 1)
        let uploader = Uploader(
            journal: try UploadTestFiles.journal(), options: UploadOptions(baseDelay: 0.01, maxDelay: 0.02))
        return (await uploader.upload(path: path, to: .form(FormTarget(url: server.url))), path)
    }

    @Test("a file posted as multipart/form-data arrives whole, with its name, fields and the server's Location")
    func post() async throws {
        let server = try FormServer()
        let path = try UploadTestFiles.random(megabytes: 3)
        defer { Temporary.remove(path) }
        let uploader = Uploader(journal: try UploadTestFiles.journal())
        let target = FormTarget(
            url: server.url, field: "media", fields: [FormField(name: "album", value: "trip \"2026\"")])
        let record = await uploader.upload(path: path, to: .form(target), type: "video/mp4")
        #expect(record.state == .done, "\(record.why)")
        #expect(record.offset == record.size)
        let name = (path as NSString).lastPathComponent
        #expect(record.remote == "http://127.0.0.1:\(server.port)/files/\(name)")
        #expect(record.target == server.url.absoluteString)
        #expect(try server.fields(of: name).fields == ["album": "trip \"2026\""])
        #expect(UploadTestFiles.sha256(try server.stored(name)) == (try UploadTestFiles.sha256(file: path)))
        // The web app's answer (what it says of the file it took) is kept, in the journal too.
        let reply = try #require(record.reply)
        let answer = try #require(try JSONSerialization.jsonObject(with: Data(reply.utf8)) as? [String: Any])
        #expect(answer["sha256"] as? String == (try UploadTestFiles.sha256(file: path)))
        #expect(try await uploader.journal.record(id: record.id)?.reply == reply)
    }

    @Test("a form refused keeps the web app's answer, and its error says what the answer said")
    func refusalKeepsTheAnswer() async throws {
        let server = try FormServer(token: "sekrit")
        let path = try UploadTestFiles.random(megabytes: 1)
        defer { Temporary.remove(path) }
        var options = UploadOptions()
        options.maxAttempts = 1
        let uploader = Uploader(journal: try UploadTestFiles.journal(), options: options)
        let record = await uploader.upload(path: path, to: .form(FormTarget(url: server.url, field: "media")))
        #expect(record.state == .failed && record.error?.code == .unauthorized)
        #expect(
            record.error?.message.hasSuffix("(\"{\"error\": \"wrong or missing token\"}\")") == true, "\(record.why)")
        #expect(record.reply?.contains("wrong or missing token") == true)
        #expect(try await uploader.journal.record(id: record.id)?.reply == record.reply)
    }

    @Test("a form's answer is kept up to 64 KB, never cut inside a character; an empty one is none")
    func replyLimit() {
        #expect(UploadRecord.reply(from: Data()) == nil)
        #expect(UploadRecord.reply(from: Data("{\"id\":7}".utf8)) == "{\"id\":7}")
        // 70,000 bytes of three-byte characters: cut at 64 KB, on a character's edge.
        let long = String(repeating: "写", count: 70_000 / 3)
        let kept = UploadRecord.reply(from: Data(long.utf8)) ?? ""
        #expect(kept.utf8.count <= UploadRecord.replyLimit && kept.utf8.count > 65_000)
        #expect(kept.allSatisfy { $0 == "写" }, "no half character at the end")
        // A character that ends exactly at the limit is kept whole.
        let even = UploadRecord.reply(from: Data(String(repeating: "é", count: 40_000).utf8)) ?? ""
        #expect(even.utf8.count == UploadRecord.replyLimit && even.allSatisfy { $0 == "é" })
    }

    @Test("a reply's first line as a person reads it: trimmed, cut with an ellipsis, more lines told")
    func replyFirstLine() {
        let one = UploadRecord.firstLine(of: "  {\"id\": 7}  \n{\"more\": 1}", limit: 20)
        #expect(one.line == "{\"id\": 7}" && !one.cut && one.more)
        let long = UploadRecord.firstLine(of: String(repeating: "x", count: 30), limit: 20)
        #expect(long.line == String(repeating: "x", count: 20) + "…" && long.cut && !long.more)
        #expect(UploadRecord.firstLine(of: "\n\nlater", limit: 20).line == "later", "empty lines skipped")
    }

    @Test(
        "a form is one request for the whole file: the bytes sent rise while it goes, before the server answers",
        arguments: Transport.allCases)
    func bytesSentWhileItGoes(transport: Transport) async throws {
        let server = try FormServer()
        let path = try UploadTestFiles.random(megabytes: 12)
        defer { Temporary.remove(path) }
        var options = UploadOptions(transport: transport.make())
        options.clock = TickingClock()  // each count told, however fast the loopback
        // Not cut while the server takes its time to answer on a loaded machine: a retry would
        // send the file again, and this test is about one request's counts.
        options.stallTimeout = 600
        let uploader = Uploader(journal: try UploadTestFiles.journal(), options: options)
        let task = uploader.start(path: path, to: .form(FormTarget(url: server.url, field: "media")))
        var sent: [Int64] = []
        var confirmedFirst: Int?
        for await event in task.events {
            if case .sending(_, let bytes, _, _) = event { sent.append(bytes) }
            if case .progress = event, confirmedFirst == nil { confirmedFirst = sent.count }
        }
        let record = await task.result()
        #expect(record.state == .done, "\(record.why)")
        // AsyncHTTPClient tells each 1 MB piece written; libcurl each buffer it sent.
        let before = sent.prefix(confirmedFirst ?? sent.count)
        #expect(before.contains { $0 > 0 && $0 < record.size }, "\(sent)")
        #expect(sent == sent.sorted() && sent.allSatisfy { $0 <= record.size }, "\(sent)")
        #expect(
            UploadTestFiles.sha256(try server.stored((path as NSString).lastPathComponent))
                == (try UploadTestFiles.sha256(file: path)))
    }

    @Test("a form upload resumed from the journal sends its fields and file field again, not just the URL")
    func resumedFormKeepsItsFields() async throws {
        // The server fails the first try (503): the upload waits in the journal.
        let server = try FormServer(fail: 1)
        let path = try UploadTestFiles.random(megabytes: 1)
        defer { Temporary.remove(path) }
        let journal = try UploadTestFiles.journal()
        let target = FormTarget(
            url: server.url, field: "media",
            fields: [FormField(name: "album", value: "trip"), FormField(name: "rating", value: "5")])
        let failed = await Uploader(journal: journal, options: UploadOptions(maxAttempts: 1))
            .upload(path: path, to: .form(target))
        #expect(failed.state == .failed && failed.error?.status == 503, "\(failed.why)")
        // A new uploader, as in a new process: everything comes from the journal.
        let resumed = await Uploader(journal: try UploadJournal(path: journal.path))
            .resume(id: failed.id).result()
        #expect(resumed.state == .done, "\(resumed.why)")
        let kept = try server.fields(of: (path as NSString).lastPathComponent)
        #expect(kept.fields == ["album": "trip", "rating": "5"])
        #expect(kept.fileField == "media")
    }

    @Test("the server failing (503) is retried with backoff; the file is sent again whole and arrives")
    func retried() async throws {
        let server = try FormServer(fail: 2)
        let path = try UploadTestFiles.random(megabytes: 1)
        defer { Temporary.remove(path) }
        let uploader = Uploader(
            journal: try UploadTestFiles.journal(), options: UploadOptions(baseDelay: 0.01, maxDelay: 0.02))
        let task = uploader.start(path: path, to: .form(FormTarget(url: server.url)))
        let record = await task.result()
        let stream = task.events
        var retries = 0
        for await event in stream { if case .retrying(_, let error, _) = event, error.status == 503 { retries += 1 } }
        #expect(record.state == .done, "\(record.why)")
        #expect(retries == 2)
        let name = (path as NSString).lastPathComponent
        #expect(UploadTestFiles.sha256(try server.stored(name)) == (try UploadTestFiles.sha256(file: path)))
    }

    @Test(
        "a reply lost after the server stored the file: the try again is the same request, and a server that honours its Idempotency-Key stores the file once"
    )
    func lostReplyStoredOnce() async throws {
        let server = try FormServer(loseReplies: 1)
        let (record, path) = try await sentWithQuickRetries(to: server)
        defer { Temporary.remove(path) }
        #expect(record.state == .done, "\(record.why)")
        let name = (path as NSString).lastPathComponent
        // The answer to the try again is the first one, Location and all.
        #expect(record.remote == "http://127.0.0.1:\(server.port)/files/\(name)")
        let stores = server.stores()
        #expect(stores.count == 1, "\(stores)")
        // A quoted UUID (RFC 9651 string), version 4.
        let key = try #require(stores.first?.key)
        #expect(
            key.wholeMatch(of: /"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"/) != nil, "\(key)"
        )
        #expect(UploadTestFiles.sha256(try server.stored(name)) == (try UploadTestFiles.sha256(file: path)))
    }

    @Test(
        "without the key honoured, the lost reply's file is stored twice, from the same key and the same body: the test above can fail"
    )
    func lostReplyIgnoredKeys() async throws {
        let server = try FormServer(loseReplies: 1, ignoreKeys: true)
        let (record, path) = try await sentWithQuickRetries(to: server)
        defer { Temporary.remove(path) }
        #expect(record.state == .done, "\(record.why)")
        let stores = server.stores()
        #expect(stores.count == 2, "\(stores)")
        #expect(Set(stores.map(\.key)).count == 1 && Set(stores.map(\.boundary)).count == 1, "\(stores)")
    }

    @Test("resumed in a new process after the reply was lost, the upload is still the same request: stored once")
    func lostReplyResumedLater() async throws {
        let server = try FormServer(loseReplies: 1)
        let path = try UploadTestFiles.random(megabytes: 1)
        defer { Temporary.remove(path) }
        let journal = try UploadTestFiles.journal()
        let failed = await Uploader(journal: journal, options: UploadOptions(maxAttempts: 1))
            .upload(path: path, to: .form(FormTarget(url: server.url)))
        #expect(failed.state == .failed, "\(failed.why)")
        let resumed = await Uploader(journal: try UploadJournal(path: journal.path)).resume(id: failed.id).result()
        #expect(resumed.state == .done, "\(resumed.why)")
        #expect(server.stores().count == 1, "\(server.stores())")
    }

    @Test(
        "a fixed Idempotency-Key in the app's headers is not every upload's: each upload sends its own, and both are stored"
    )
    func fixedKeyReplaced() async throws {
        let server = try FormServer()
        let first = try UploadTestFiles.random(megabytes: 1)
        let second = try UploadTestFiles.random(megabytes: 1)
        defer {
            Temporary.remove(first)
            Temporary.remove(second)
        }
        let uploader = Uploader(
            journal: try UploadTestFiles.journal(), options: UploadOptions(headers: ["Idempotency-Key": "\"mine\""]))
        for path in [first, second] {
            let record = await uploader.upload(path: path, to: .form(FormTarget(url: server.url)))
            #expect(record.state == .done, "\(record.why)")
        }
        let keys = server.stores().map(\.key)
        #expect(keys.count == 2 && Set(keys).count == 2 && !keys.contains("\"mine\""), "\(keys)")
    }

    @Test("an uploader told to send no key sends none, for a server that refuses the header")
    func keyLeftOut() async throws {
        let server = try FormServer()
        let path = try UploadTestFiles.random(megabytes: 1)
        defer { Temporary.remove(path) }
        var options = UploadOptions()
        options.idempotencyKey = false
        let uploader = Uploader(journal: try UploadTestFiles.journal(), options: options)
        let record = await uploader.upload(path: path, to: .form(FormTarget(url: server.url)))
        #expect(record.state == .done, "\(record.why)")
        #expect(server.stores().map(\.key) == [nil])
    }

    @Test("409 while an earlier try is still being handled is asked again after a wait, and the file arrives once")
    func conflictRetried() async throws {
        // Retried, and said as what it is, not as a server that failed.
        let conflict = UploadError(.server, "the server is still handling an earlier try", status: 409)
        #expect(conflict.isRetryable && conflict.hint.hasPrefix("The server is still handling an earlier try"))
        let server = try FormServer(conflicts: 2)
        let (record, path) = try await sentWithQuickRetries(to: server)
        defer { Temporary.remove(path) }
        #expect(record.state == .done, "\(record.why)")
        #expect(server.stores().count == 1, "\(server.stores())")
    }

    @Test("a token from the options goes in the Authorization header; a wrong one fails at once, not stored")
    func authorization() async throws {
        let server = try FormServer(token: "s3cret-token")
        let path = try UploadTestFiles.random(megabytes: 1)
        defer { Temporary.remove(path) }
        let journal = try UploadTestFiles.journal()
        let wrong = Uploader(journal: journal, options: UploadOptions(headers: ["Authorization": "Bearer nope"]))
        let refused = await wrong.upload(path: path, to: .form(FormTarget(url: server.url)))
        #expect(refused.state == .failed)
        #expect(refused.why.contains("HTTP 401") == true, "\(refused.why)")
        let right = Uploader(
            journal: journal, options: UploadOptions(headers: ["Authorization": "Bearer s3cret-token"]))
        let record = await right.upload(path: path, to: .form(FormTarget(url: server.url)))
        #expect(record.state == .done, "\(record.why)")
        for saved in try await journal.all() {
            #expect(!"\(saved)".contains("s3cret") && !"\(saved)".contains("nope"))
        }
    }
}

/// The upload queue: a concurrency limit, pause, resume and cancel, reported as updates.
@Suite("upload queue", .serialized)
struct UploadQueueTests {
    @Test("one at a time: paused mid-way it stops, the next starts; resumed, it goes on and everything arrives")
    func pauseResume() async throws {
        let server = try TusServer()
        let paths = try (0..<3).map { _ in try UploadTestFiles.random(megabytes: 4) }
        defer { for path in paths { try? FileManager.default.removeItem(atPath: path) } }
        let uploader = Uploader(journal: try UploadTestFiles.journal(), options: UploadOptions(chunkSize: 256 << 10))
        let queue = UploadQueue(uploader: uploader, concurrency: 1)
        let ids = await paths.asyncMap {
            await queue.add(.upload(path: $0, to: .tus(endpoint: server.endpoint), type: "application/octet-stream"))
        }
        var mostAtOnce = 0
        var pausedAt: Int64?
        var sawRate = false
        for await item in queue.updates {
            let running = await queue.all().filter { $0.state == .uploading }.count
            mostAtOnce = max(mostAtOnce, running)
            if item.id == ids[0], item.state == .uploading, item.confirmed >= 1 << 20, pausedAt == nil {
                pausedAt = item.confirmed
                await queue.pause(ids[0])
            }
            if item.bytesPerSecond > 0 && item.secondsLeft != nil { sawRate = true }
            if item.id == ids[0], item.state == .paused {
                #expect(await queue.item(ids[1])?.state == .uploading, "the next one took the free place")
                await queue.resume(ids[0])
            }
            if await queue.all().allSatisfy({ $0.state == .done }) { break }
        }
        let items = await queue.waitUntilSettled()
        await queue.close()
        #expect(mostAtOnce == 1)
        #expect(pausedAt != nil && sawRate)
        for (item, path) in zip(items, paths) {
            #expect(item.state == .done)
            let remote = try #require(item.record?.remote)
            #expect(UploadTestFiles.sha256(try server.stored(remote)) == (try UploadTestFiles.sha256(file: path)))
        }
        // The paused one went on from where it stopped: one upload on the server, not two.
        #expect(items[0].record?.remote != nil && Set(items.compactMap { $0.record?.remote }).count == 3)
    }

    @Test("cancelling a waiting upload: it never starts; cancelling a running one ends it on the server")
    func cancel() async throws {
        let server = try TusServer()
        let paths = try (0..<2).map { _ in try UploadTestFiles.random(megabytes: 4) }
        defer { for path in paths { try? FileManager.default.removeItem(atPath: path) } }
        let uploader = Uploader(journal: try UploadTestFiles.journal(), options: UploadOptions(chunkSize: 256 << 10))
        let queue = UploadQueue(uploader: uploader, concurrency: 1)
        let first = await queue.add(
            .upload(path: paths[0], to: .tus(endpoint: server.endpoint), type: "application/octet-stream"))
        let second = await queue.add(
            .upload(path: paths[1], to: .tus(endpoint: server.endpoint), type: "application/octet-stream"))
        await queue.cancel(second)
        for await item in queue.updates where item.id == first && item.confirmed > 0 {
            await queue.cancel(first)
            break
        }
        let items = await queue.waitUntilSettled()
        await queue.close()
        #expect(items.map(\.state) == [.cancelled, .cancelled])
        #expect(items[1].uploadID == nil, "the waiting one never began")
        let remote = try #require(items[0].record?.remote)
        #expect(throws: (any Error).self) { try server.stored(remote) }
    }
}

extension Array {
    func asyncMap<T>(_ transform: (Element) async -> T) async -> [T] {
        var result: [T] = []
        for element in self { result.append(await transform(element)) }
        return result
    }
}

/// The upload screen's rows and model, on a real queue and server.
@Suite("upload rows and model", .serialized)
struct UploadModelTests {
    @Test("rows say what each state means and offer the buttons that make sense")
    func rows() {
        var item = UploadQueue.Item(id: 1, path: "/videos/IMG_0001.MOV")
        #expect(UploadRow(item).status == "Waiting" && UploadRow(item).canPause && !UploadRow(item).canRetry)
        item.state = .uploading
        item.size = 40_000_000
        item.confirmed = 10_000_000
        item.bytesPerSecond = 2_000_000
        let uploading = UploadRow(item)
        #expect(uploading.status == "25% · 2.0 MB/s · 0:15 left" && uploading.progress == 0.25)
        #expect(uploading.title == "IMG_0001.MOV" && uploading.accessibilityLabel.hasPrefix("IMG_0001.MOV, 25%"))
        // A chunk in flight: the row follows the bytes sent; a pause tells the confirmed ones.
        item.sent = 20_000_000
        let sending = UploadRow(item)
        #expect(sending.status == "50% · 2.0 MB/s · 0:10 left" && sending.progress == 0.5, "\(sending.status)")
        item.retrying = (UploadError(.network, "the connection was lost"), 2)
        #expect(UploadRow(item).status == "Retrying in 2 s: the connection was lost")
        item.retrying = nil
        item.state = .paused
        #expect(UploadRow(item).status == "Paused at 10 MB of 40 MB" && UploadRow(item).canResume)
        item.state = .failed(UploadError(.server, "the server failed"))
        #expect(UploadRow(item).status == "Failed: the server failed" && UploadRow(item).canRetry)
        item.state = .done
        #expect(UploadRow(item).status == "Uploaded" && UploadRow(item).isFinished && !UploadRow(item).canCancel)
    }

    @MainActor
    @Test("the model follows a real queue to the end; its totals add up")
    func model() async throws {
        let server = try TusServer()
        let path = try UploadTestFiles.random(megabytes: 2)
        defer { Temporary.remove(path) }
        let uploader = Uploader(journal: try UploadTestFiles.journal(), options: UploadOptions(chunkSize: 256 << 10))
        let queue = UploadQueue(uploader: uploader, concurrency: 1)
        let model = UploadQueueModel(queue: queue)
        model.start()
        await model.add(.upload(path: path, to: .tus(endpoint: server.endpoint), type: "application/octet-stream"))
        _ = await queue.waitUntilSettled()
        for _ in 0..<100 where model.rows.first?.status != "Uploaded" { try await Task.sleep(nanoseconds: 20_000_000) }
        #expect(model.rows.count == 1 && model.rows.first?.status == "Uploaded")
        #expect(model.total == 2 << 20 && model.confirmed == model.total && model.fractionDone == 1)
        model.stop()
        await queue.close()
    }
}
