import Foundation
import PickupUpload
import Testing

/// How a background task's end is read, and when the system's completion handler is called.
@Suite("background uploads: a task's end, and the system's completion handler")
struct BackgroundDecisionTests {
    let remote = URL(string: "https://tus.example/files/abc") ?? URL(fileURLWithPath: "/")

    func tus(offset: Int64 = 0, size: Int64 = 1_000) -> BackgroundTransfer {
        BackgroundTransfer(
            id: "u1", kind: .tus, offset: offset, size: size, body: "/tmp/x", bodyIsCopy: false, url: remote)
    }

    @Test(
        "tus: the whole file confirmed is done; part of it is stopped at the server's offset; a bad offset is no progress"
    )
    func tusAnswers() {
        let transfer = tus(offset: 200)
        #expect(
            transfer.outcome(status: 204, headers: ["upload-offset": "1000"], finalURL: remote, error: nil) == .done)
        guard
            case .stopped(let confirmed, let error) = transfer.outcome(
                status: 204, headers: ["upload-offset": "600"], finalURL: remote, error: nil)
        else {
            Issue.record("part of the file is not done")
            return
        }
        #expect(confirmed == 600)
        #expect(error.code == .network)
        for bad in ["200", "1001", "x"] {
            guard
                case .stopped(nil, let error) = transfer.outcome(
                    status: 204, headers: ["upload-offset": bad], finalURL: remote, error: nil)
            else {
                Issue.record("offset \(bad) taken")
                continue
            }
            #expect(error.code == .badAnswer)
        }
        guard
            case .stopped(nil, let missing) = transfer.outcome(status: 204, headers: [:], finalURL: remote, error: nil)
        else {
            Issue.record("no offset taken as progress")
            return
        }
        #expect(missing.code == .badAnswer)
    }

    @Test("a form task's answer is joined from its pieces, kept to the journal's limit; a tus task's is not kept")
    func replies() {
        let form = BackgroundTransfer(
            id: "f1", kind: .form, offset: 0, size: 10, body: "/tmp/b", bodyIsCopy: true, url: remote
        ).taskDescription
        var replies = BackgroundReplies()
        // didReceiveData may come in pieces ("As the data may be discontiguous", NSURLSession.h:1140).
        replies.add(Data("{\"id\":".utf8), task: 7, description: form)
        replies.add(Data("42}".utf8), task: 7, description: form)
        replies.add(Data("ignored".utf8), task: 8, description: tus().taskDescription)
        #expect(replies.count == 1)
        #expect(String(decoding: replies.take(task: 7), as: UTF8.self) == "{\"id\":42}")
        #expect(replies.take(task: 8).isEmpty && replies.count == 0, "taken once; a tus answer never kept")
        // A long answer: kept to the limit and one byte more (so that it is known cut), no further.
        for _ in 0..<5 { replies.add(Data(repeating: 0x61, count: 20_000), task: 9, description: form) }
        let long = replies.take(task: 9)
        #expect(long.count == UploadRecord.replyLimit + 1)
        #expect(UploadRecord.reply(from: long)?.utf8.count == UploadRecord.replyLimit)
    }

    @Test("refusals keep their meaning: 409 offset, 404 gone, 403 credentials, 413 too large, 500 server")
    func refusals() {
        let cases: [(Int, UploadError.Code)] = [
            (409, .offsetConflict), (404, .gone), (410, .gone), (403, .unauthorized), (413, .tooLarge), (500, .server),
        ]
        for (status, code) in cases {
            guard
                case .stopped(nil, let error) = tus().outcome(
                    status: status, headers: [:], finalURL: remote, error: nil)
            else {
                Issue.record("\(status) taken as done")
                continue
            }
            #expect(error.code == code, "\(status)")
            #expect(error.status == status)
        }
    }

    @Test("a redirect the system followed to another host is not the server's answer (NSURLSession.h:1035)")
    func redirected() {
        let elsewhere = URL(string: "https://attacker.example/files/abc") ?? URL(fileURLWithPath: "/")
        guard
            case .stopped(nil, let error) = tus().outcome(
                status: 204, headers: ["upload-offset": "1000"], finalURL: elsewhere, error: nil)
        else {
            Issue.record("a redirected answer taken as done")
            return
        }
        #expect(error.code == .badTarget)
        #expect(error.message.contains("attacker.example"))
    }

    @Test("S3 and forms: any 2xx is done; the task's own error is kept as it came")
    func wholeBodies() {
        for kind in [BackgroundTransfer.Kind.s3, .form] {
            let transfer = BackgroundTransfer(
                id: "u", kind: kind, offset: 0, size: 10, body: "/tmp/x", bodyIsCopy: false, url: remote)
            #expect(transfer.outcome(status: 200, headers: [:], finalURL: remote, error: nil) == .done)
            let lost = UploadError(.network, "lost")
            #expect(
                transfer.outcome(status: nil, headers: [:], finalURL: nil, error: lost)
                    == .stopped(confirmed: nil, error: lost))
        }
    }

    @Test(
        "a form's 409 (an earlier try still being handled) waits for the foreground's backoff; tus's is an offset conflict"
    )
    func conflicts() {
        let form = BackgroundTransfer(
            id: "u", kind: .form, offset: 0, size: 10, body: "/tmp/x", bodyIsCopy: false, url: remote)
        guard case .stopped(nil, let error) = form.outcome(status: 409, headers: [:], finalURL: remote, error: nil)
        else {
            Issue.record("a form's 409 taken as done")
            return
        }
        // Not handed to a new task at once (that takes .network and .offsetConflict), but retryable.
        #expect(error.code == .server && error.status == 409 && error.isRetryable)
        guard
            case .stopped(nil, let tusError) = tus(offset: 5).outcome(
                status: 409, headers: [:], finalURL: remote, error: nil)
        else {
            Issue.record("a tus 409 taken as done")
            return
        }
        #expect(tusError.code == .offsetConflict)
    }

    @Test("a task description round-trips; another app's or another library's task is not Pickup's")
    func descriptions() throws {
        let transfer = tus(offset: 5)
        #expect(BackgroundTransfer(taskDescription: transfer.taskDescription) == transfer)
        #expect(BackgroundTransfer(taskDescription: nil) == nil)
        #expect(BackgroundTransfer(taskDescription: "{\"id\":\"x\"}") == nil)
        #expect(BackgroundTransfer(taskDescription: "pickup.upload {broken") == nil)
    }

    // NSURLSession.h:1029-1035: didSendBodyData is "Sent periodically to notify the delegate of
    // upload progress", with `totalBytesSent`: the body's bytes, whatever part of it is the file.
    @Test("a task's body bytes sent are the file's: after a tus task's first byte, past a form's head, within the file")
    func fileBytesSent() throws {
        let url = try #require(URL(string: "https://example.com/up"))
        let tus = tus(offset: 400)
        #expect(tus.fileBytes(sent: 0) == 400 && tus.fileBytes(sent: 100) == 500 && tus.fileBytes(sent: 9_999) == 1_000)
        let form = BackgroundTransfer(
            id: "f", kind: .form, offset: 0, size: 1_000, body: "/b", bodyIsCopy: true, url: url, leading: 250)
        #expect(
            form.fileBytes(sent: 200) == 0 && form.fileBytes(sent: 750) == 500 && form.fileBytes(sent: 1_400) == 1_000)
        #expect(BackgroundTransfer(taskDescription: form.taskDescription) == form)
        // A task described before `leading` existed has no such key: no head.
        var old = form
        old.leading = nil
        #expect(!old.taskDescription.contains("leading"))
        #expect(BackgroundTransfer(taskDescription: old.taskDescription)?.fileBytes(sent: 300) == 300)
    }

    // UIApplication.h:436-440: the handler comes with the launch for the session's events; the
    // delegate gets the events once a session with the identifier exists, "without any action"
    // when it already does; NSURLSession.h:955-961: urlSessionDidFinishEvents says every event
    // was delivered, "at this time it is safe to invoke the previously stored completion handler".

    @Test("the handler first: called when the events are delivered and their journal writes ended")
    func handlerFirst() {
        var gate = BackgroundEventsGate<Int>()
        #expect(gate.handlerGiven(1).isEmpty)
        gate.writeBegan()
        #expect(gate.eventsFinished() == nil, "a journal write is still running")
        #expect(gate.writeEnded() == 1)
        #expect(gate.writeEnded() == nil, "called once")
    }

    @Test("the events first (the session already existed): the handler is called as soon as it comes")
    func eventsFirst() {
        var gate = BackgroundEventsGate<Int>()
        gate.writeBegan()
        #expect(gate.writeEnded() == nil, "no handler yet")
        #expect(gate.eventsFinished() == nil)
        #expect(gate.handlerGiven(7) == [7])
        // The next launch's handler waits for its own events.
        #expect(gate.handlerGiven(8).isEmpty)
        #expect(gate.eventsFinished() == 8)
    }

    @Test("a new handler while one still waits: the old one is called at once, not kept for ever")
    func staleHandler() {
        var gate = BackgroundEventsGate<Int>()
        #expect(gate.handlerGiven(1).isEmpty)
        #expect(gate.handlerGiven(2) == [1])
        #expect(gate.eventsFinished() == 2)
    }

    @Test("one background session per identifier in a process: a second one is told the holder")
    func oneSessionPerIdentifier() {
        // NSURLSession.h:157-159 (iOS 26.2 SDK): "it is not safe to create another background
        // session with the same identifier until URLSession:didBecomeInvalidWithError: has been issued".
        final class Owner {}
        let claims = BackgroundSessionClaims()
        let first = Owner()
        let second = Owner()
        #expect(claims.claim("pickup.uploads", by: first) == nil)
        #expect(claims.claim("pickup.uploads", by: second) === first, "the second passes its calls to the first")
        #expect(claims.claim("pickup.uploads", by: first) == nil, "the holder claims again freely")
        #expect(claims.claim("pickup.share", by: second) == nil, "an extension's identifier is its own")
        claims.release("pickup.uploads", by: second)
        #expect(claims.claim("pickup.uploads", by: second) === first, "only the holder lets it go")
        claims.release("pickup.uploads", by: first)
        #expect(claims.claim("pickup.uploads", by: second) == nil, "free once the session has become invalid")
        var gone: Owner? = Owner()
        #expect(claims.claim("pickup.other", by: gone ?? first) == nil)
        gone = nil
        #expect(claims.claim("pickup.other", by: first) == nil, "a holder that went frees it")
    }
}
