import Foundation
import Pickup
import PickupStore

/// Handing uploads to the background session and showing what it sends.
extension UploadQueue {
    /// Stops every upload that runs or waits, so that the background session can take it over:
    /// running ones pause where they stand (the journal keeps the server's offset), waiting
    /// ones that never began get their journal record. Returns each one's queue id and journal
    /// id, in the queue's order; an upload that could not be opened stays failed here.
    package func yieldUnfinished() async -> [(queueID: Int, uploadID: String)] {
        // One being paused or cancelled already is not handed over: it settles as asked.
        // Nor one a person is pausing or cancelling out of the background.
        let yielded = all().filter {
            ($0.state == .uploading || $0.state == .waiting) && stopping[$0.id] == nil && takingBack[$0.id] == nil
        }
        .map(\.id)
        for id in yielded { pause(id, asking: false) }
        if yielded.contains(where: { tasks[$0] != nil }) { _ = await waitUntilSettled() }
        var result: [(queueID: Int, uploadID: String)] = []
        for id in yielded {
            guard let item = items[id], item.state == .paused else { continue }
            switch jobs[id] {
            case .journal(let uploadID, _):
                result.append((id, item.uploadID ?? uploadID))
            case .upload(let path, let destination, let type, let expected, let metadata):
                if let uploadID = item.uploadID {
                    jobs[id] = .journal(id: uploadID, endpoint: destination.url)
                    result.append((id, uploadID))
                    continue
                }
                do {
                    var record = try await uploader.begin(
                        path: path, to: destination, type: type, expected: expected, metadata: metadata)
                    // Paused: nobody sends it until the background session takes it.
                    record.state = .paused
                    try await uploader.journal.save(record)
                    jobs[id] = .journal(id: record.id, endpoint: destination.url)
                    update(id) {
                        $0.uploadID = record.id
                        $0.path = record.path
                        $0.size = record.size
                    }
                    result.append((id, record.id))
                } catch {
                    update(id) { $0.state = .failed(error) }
                }
            case nil: continue
            }
        }
        return result
    }

    /// Shows these items as sent by the background session.
    package func markInBackground(_ ids: [Int]) {
        for id in ids { update(id) { $0.state = .inBackground } }
        settleIfIdle()
    }

    /// Shows an upload the background session carries (found at launch) as one of the queue's
    /// items, without sending it here. Returns its queue id.
    @discardableResult
    package func track(inBackground record: UploadRecord) -> Int {
        if let held = queueID(ofJournalID: record.id) {
            update(held) { $0.state = .inBackground }
            return held
        }
        nextID += 1
        jobs[nextID] = .journal(id: record.id)
        var item = Item(id: nextID, path: record.path)
        item.uploadID = record.id
        item.size = record.size
        item.confirmed = record.offset
        item.sent = record.offset
        item.state = .inBackground
        publish(item)
        return nextID
    }

    /// The background session has sent `bytes` of the file of an upload the queue shows (its
    /// task's `didSendBodyData`, `BackgroundTransfer.fileBytes(sent:)`): the row follows them,
    /// four times a second at most, and never back (reports may come out of order).
    package func backgroundSent(journalID: String, bytes: Int64) {
        guard let id = queueID(ofJournalID: journalID), let item = items[id], item.state == .inBackground,
            bytes > item.sent
        else { return }
        let now = uploader.options.clock.now
        if bytes < item.size, let last = backgroundToldAt[id], now - last < SendMeter.interval { return }
        backgroundToldAt[id] = now
        update(id) { $0.sent = min(bytes, $0.size) }
    }

    /// What the background session recorded for an upload the queue shows: done, or stopped
    /// (then failed here, resumable from the server's offset).
    package func backgroundEnded(_ record: UploadRecord) {
        // Still the background session's (handed over again after a lost connection): no change.
        guard record.state != .uploading, let id = queueID(ofJournalID: record.id), items[id]?.state == .inBackground
        else { return }
        show(
            id, record.state == .done ? .done : .failed(record.error ?? UploadError(.network, "the upload stopped")),
            as: record)
    }

    /// Shows an item the background session no longer sends in `state`, with what the journal's
    /// `record` says of it (its bytes on the server) when there is one.
    private func show(_ id: Int, _ state: State, as record: UploadRecord?) {
        update(id) { item in
            item.state = state
            guard let record else { return }
            item.record = record
            item.confirmed = record.offset
            item.sent = record.offset
        }
    }

    /// An upload taken back from the background session goes on here, from the server's offset.
    package func backgroundTakenBack(_ id: Int) {
        guard items[id]?.state == .inBackground else { return }
        update(id) { $0.state = .paused }
        resume(id)
    }

    /// Records what sends this queue's items in the background, for `pause` and `cancel`.
    package func sentInBackground(by transfers: BackgroundTransfers) {
        senders.removeAll { $0.transfers == nil }
        if !senders.contains(where: { $0.transfers === transfers }) { senders.append(WeakSender(transfers: transfers)) }
    }

    /// Takes an item shown in the background back for a person's pause or cancel (`then`), in
    /// turn with the hand-offs and take-backs of its sender: the journal first (its task's end,
    /// when it comes, changes nothing), then its task is cancelled ("-cancel returns
    /// immediately, but marks a task as being canceled", NSURLSession.h). The item is paused
    /// here, then cancelled if that was asked. One no sender holds any more shows what the
    /// journal says (its end recorded meanwhile; or taken back as the app returned, then
    /// paused or cancelled here); another process's (an extension's still running) is left.
    func stopInBackground(_ id: Int, then wanted: State) async {
        if takingBack[id] != nil {
            // One under way ends as asked last, a cancel over a pause.
            if wanted == .cancelled { takingBack[id] = .cancelled }
            return
        }
        guard let uploadID = items[id]?.uploadID else { return }
        takingBack[id] = wanted
        var held = false
        for sender in senders.compactMap(\.transfers) where !held {
            held = await sender.takeBackInTurn(id: uploadID)
        }
        let record = try? await uploader.journal.record(id: uploadID)
        let asked = takingBack.removeValue(forKey: id) ?? wanted
        if held, items[id]?.state == .inBackground {
            backgroundToldAt[id] = nil
            show(id, .paused, as: record)
            settleIfIdle()
        } else if !held, let record, items[id]?.state == .inBackground {
            // No session of this queue holds it: paused or cancelled in the journal (taken back
            // meanwhile) shows so; ended, as it ended; still another process's, left.
            if record.state == .paused || record.state == .cancelled {
                show(id, record.state == .cancelled ? .cancelled : .paused, as: record)
                settleIfIdle()
            } else {
                backgroundEnded(record)
            }
        }
        if asked == .cancelled { await cancelHere(id) } else { pause(id, asking: true) }
    }

    /// The items the background session sends, with their journal ids.
    package func inBackground() -> [(queueID: Int, uploadID: String)] {
        all().compactMap { item in
            item.state == .inBackground ? item.uploadID.map { (item.id, $0) } : nil
        }
    }
}

/// A sender of a queue's items in the background, held weakly: the app lets an extension's go.
struct WeakSender {
    weak var transfers: BackgroundTransfers?
}
