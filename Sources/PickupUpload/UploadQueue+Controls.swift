import Foundation
import Pickup

/// What a person does to an upload of the queue: pause, resume, cancel.
extension UploadQueue {
    /// Pauses an upload: a running one stops its request at once and keeps its place in the
    /// journal (state `paused`); a waiting one does not start. A running tus upload's server is
    /// then asked, once and for two seconds at most, what it kept of the chunk the pause cut
    /// short, so that the paused row and the journal say what it holds. One in the background
    /// is taken back from the background session first (its task cancelled): a paused tus
    /// upload goes on from the server's offset when resumed, an S3 object or a form (one
    /// request each) from the start.
    public func pause(_ id: Int) async {
        if items[id]?.state == .inBackground || takingBack[id] != nil {
            await stopInBackground(id, then: .paused)
            return
        }
        pause(id, asking: true)
    }

    /// `asking`: when it stops, its server is asked what it kept of a chunk cut short (a person's
    /// pause; not a hand-off to the background session, which asks itself, nor a stop at an
    /// endpoint that cannot be reached).
    func pause(_ id: Int, asking asks: Bool) {
        guard let item = items[id] else { return }
        switch item.state {
        case .uploading:
            // One stopping already (a cancel asked, a pause being settled) is left as it goes.
            guard stopping[id] == nil else { return }
            stopping[id] = .paused
            if asks { asking.insert(id) }
            tasks[id]?.cancel()
        case .waiting:
            update(id) { $0.state = .paused }
            settleIfIdle()
        default: return
        }
    }

    /// Puts a paused, failed or cancelled upload back in line; it goes on from the server's offset.
    /// An upload in the background is taken back through `BackgroundUploads` first.
    public func resume(_ id: Int) {
        guard let item = items[id], item.state.isSettled, item.state != .done, item.state != .inBackground else {
            return
        }
        if let uploadID = item.uploadID {
            // The endpoint as given (its query too, which the journal does not keep).
            var endpoint: URL?
            if case .upload(_, let destination, _, _, _) = jobs[id] { endpoint = destination.url }
            if case .journal(_, let given) = jobs[id] { endpoint = given }
            jobs[id] = .journal(id: uploadID, endpoint: endpoint)
        }
        update(id) {
            $0.state = .waiting
            $0.retrying = nil
        }
        startWaiting()
    }

    /// Cancels an upload: stops it, ends it on the server (tus termination, S3 abort) and
    /// marks it cancelled in the journal. An upload in the background is taken back from the
    /// background session first (its task cancelled); one whose end the session recorded
    /// meanwhile is left as it ended.
    public func cancel(_ id: Int) async {
        if items[id]?.state == .inBackground || takingBack[id] != nil {
            await stopInBackground(id, then: .cancelled)
            return
        }
        await cancelHere(id)
    }

    /// Cancels an upload the queue holds (not the background session's).
    func cancelHere(_ id: Int) async {
        guard let item = items[id], item.state != .done, item.state != .cancelled, item.state != .inBackground else {
            return
        }
        if item.state == .uploading {
            stopping[id] = .cancelled
            tasks[id]?.cancel()
            return
        }
        var record: UploadRecord?
        if let uploadID = item.uploadID { record = await uploader.cancel(id: uploadID) }
        update(id) { item in
            // Every byte landed before the cancel (a background task that finished meanwhile):
            // the journal keeps it done, and so does the row.
            if let record, record.state == .done {
                item.record = record
                item.state = .done
            } else {
                item.state = .cancelled
            }
        }
        settleIfIdle()
    }
}
