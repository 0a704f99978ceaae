import Foundation
import PickupStore

/// Who sends an upload, between this process and the system's background sessions: the journal
/// says it in the `owner` column. An upload handed over is owned by `backgroundOwner` until
/// its task's outcome is recorded or the app takes it back; meanwhile no foreground sender
/// claims it and no foreground save changes it, so one upload never has two senders.
///
/// An app and each of its extensions have a background session of their own ("only one process
/// can use a background session at a time", Apple's App Extension Programming Guide, "Performing
/// Uploads and Downloads"): `background_session` names the one that sends an upload, so that one
/// session never takes back, settles or restarts what another sends. An upload handed over
/// before the column was kept (null there) is the app's one session's: a session that carries
/// it names itself there, and only the app's session takes it back.
///
/// While its task is being prepared (the server asked, a body written), a handed-over upload's
/// `lease` says until when the preparation may last; the task is started only once the journal
/// confirms it (`confirmBackground`), which clears the lease. An upload whose lease ran out
/// unconfirmed lost its preparer (an extension ended mid-way): any session's restore takes it
/// back, where otherwise it would stay with a session that has no task for it.
extension UploadJournal {
    /// The `owner` of an upload a background session sends (no process has this id).
    static let backgroundOwner: Int64 = -1

    /// The columns an upload given back to nobody clears: its owner, its session, its lease.
    private static let released = "owner = NULL, background_session = NULL, lease = NULL"

    /// Gives an upload to the background session named `session`, if nobody sends it: its owner
    /// is none (paused, failed or waiting), or a process that has died or whose lease ran out.
    /// An upload this process still sends is refused: pause it first. Returns the upload and
    /// the lease of its preparation, which its confirmation (or its giving back) names.
    func handOver(id: String, session: String) throws(UploadError) -> (record: UploadRecord, lease: Double) {
        let now = Date().timeIntervalSince1970
        let lease = now + UploadJournal.leaseSeconds
        let refusal: UploadError? = try call {
            try database.transaction { () throws -> UploadError? in
                let statement = try database.prepare("SELECT owner, lease, state FROM uploads WHERE id = ?1")
                try statement.bind([.text(id)])
                guard try statement.step() else { return UploadError(.badTarget, "the journal has no upload \(id)") }
                let state = statement.text("state") ?? ""
                if state == UploadRecord.State.done.rawValue || state == UploadRecord.State.cancelled.rawValue {
                    return UploadError(.badTarget, "upload \(id) is \(state): there is nothing left to send")
                }
                if !statement.isNull("owner") {
                    let owner = statement.integer("owner")
                    if owner == UploadJournal.backgroundOwner {
                        return UploadError(.busy, "upload \(id) is already with a background session")
                    }
                    let alive = owner == UploadJournal.processID || UploadJournal.isRunning(owner)
                    if alive, statement.real("lease") > now {
                        return UploadError(
                            .busy,
                            "upload \(id) is still being sent by process \(owner): pause it before handing it over"
                        )
                    }
                }
                try database.prepare(
                    "UPDATE uploads SET owner = ?2, background_session = ?4, lease = ?5, state = 'uploading', "
                        + "error = NULL, error_code = NULL, error_status = NULL, updated = ?3 WHERE id = ?1"
                ).run([
                    .text(id), .integer(UploadJournal.backgroundOwner), .real(now), .text(session), .real(lease),
                ])
                return nil
            }
        }
        if let refusal { throw refusal }
        guard let record = try record(id: id) else { throw UploadError(.journal, "upload \(id) left the journal") }
        return (record, lease)
    }

    /// Records what the background session named `session` did with an upload it owns, and gives
    /// the upload back to nobody (a finished one, or one the foreground resumes from the server's
    /// offset). Nil when that session no longer owns it (the app took it back): nothing is changed.
    func settleFromBackground(
        id: String, session: String, state: UploadRecord.State, confirmed: Int64?, error: UploadError?
    ) throws(UploadError) -> UploadRecord? {
        let changed: Bool = try call {
            try database.transaction { () throws -> Bool in
                guard try owns(id, session: session) else { return false }
                try database.prepare(
                    """
                    UPDATE uploads SET state = ?2, offset = max(offset, coalesce(?3, offset)),
                        error = ?4, error_code = ?5, error_status = ?6, \(UploadJournal.released), updated = ?7
                    WHERE id = ?1
                    """
                ).run([
                    .text(id), .text(state.rawValue), confirmed.map { .integer($0) } ?? .null,
                    error.map { .text($0.message) } ?? .null,
                    error.map { .text($0.code.rawValue) } ?? .null, error?.status.map { .integer(Int64($0)) } ?? .null,
                    .real(Date().timeIntervalSince1970),
                ])
                return true
            }
        }
        return changed ? try record(id: id) : nil
    }

    /// Whether the background session named `session` still owns the upload by the hand-over
    /// whose preparation holds `lease`, once its task exists: then the preparation is over (the
    /// lease cleared), and the task may start. False when it was taken back meanwhile, even if
    /// handed over again since (another preparation, another lease).
    func confirmBackground(id: String, session: String, lease: Double) throws(UploadError) -> Bool {
        try call {
            try database.transaction { () throws -> Bool in
                guard try owns(id, session: session, lease: lease) else { return false }
                try database.prepare("UPDATE uploads SET lease = NULL WHERE id = ?1").run([.text(id)])
                return true
            }
        }
    }

    /// Takes back every upload handed to a background session whose preparation ran out before
    /// its task was confirmed (its preparer ended): paused, nobody's, for a restore to resume.
    func takeBackUnconfirmed() throws(UploadError) {
        try call {
            try database.prepare(
                "UPDATE uploads SET \(UploadJournal.released), state = 'paused', updated = ?2 "
                    + "WHERE owner = ?1 AND lease IS NOT NULL AND lease < ?2"
            ).run([.integer(UploadJournal.backgroundOwner), .real(Date().timeIntervalSince1970)])
        }
    }

    /// Names `session` on the uploads handed over before sessions were named that its tasks
    /// carry (`ids`): from then on they are that session's only.
    func adopt(_ ids: Set<String>, session: String) throws(UploadError) {
        guard !ids.isEmpty else { return }
        try call {
            let statement = try database.prepare(
                "UPDATE uploads SET background_session = ?2 WHERE id = ?1 AND owner = ?3 AND background_session IS NULL"
            )
            for id in ids {
                try statement.run([.text(id), .text(session), .integer(UploadJournal.backgroundOwner)])
            }
        }
    }

    /// Whether the background session named `session` owns the upload (one handed over before
    /// sessions were named counts as any session's), by the hand-over whose preparation holds
    /// `lease` when one is given; read inside the caller's transaction.
    private func owns(_ id: String, session: String, lease: Double? = nil) throws -> Bool {
        let statement = try database.prepare(
            "SELECT 1 FROM uploads WHERE id = ?1 AND owner = ?2 AND coalesce(background_session, ?3) = ?3 "
                + "AND (?4 IS NULL OR lease = ?4)")
        try statement.bind([
            .text(id), .integer(UploadJournal.backgroundOwner), .text(session), lease.map { .real($0) } ?? .null,
        ])
        return try statement.step()
    }

    /// Records that a background task brought every byte to the server, whoever owns the upload
    /// now (one taken back meanwhile is done too: its sender finds it so); a cancelled one stays
    /// cancelled. Nil when the journal has no such upload.
    func finishFromBackground(id: String, size: Int64, reply: String? = nil) throws(UploadError) -> UploadRecord? {
        try call {
            try database.prepare(
                """
                UPDATE uploads SET state = 'done', offset = ?2, error = NULL, error_code = NULL, error_status = NULL,
                    reply = coalesce(?5, reply),
                    lease = CASE WHEN owner = ?3 THEN NULL ELSE lease END,
                    background_session = CASE WHEN owner = ?3 THEN NULL ELSE background_session END,
                    owner = CASE WHEN owner = ?3 THEN NULL ELSE owner END, updated = ?4
                WHERE id = ?1 AND state != 'cancelled'
                """
            ).run([
                .text(id), .integer(size), .integer(UploadJournal.backgroundOwner),
                .real(Date().timeIntervalSince1970), reply.map { .text($0) } ?? .null,
            ])
        }
        return try record(id: id)
    }

    /// Takes an upload back from the background session named `session`: nobody owns it, paused,
    /// so that the foreground claims it and asks the server's offset. False when that session did
    /// not own it (another session's upload is left to it).
    /// With `lease`, only while the hand-over whose preparation holds it is still being prepared.
    @discardableResult
    func takeBack(id: String, session: String, lease: Double? = nil) throws(UploadError) -> Bool {
        try call {
            try database.transaction { () throws -> Bool in
                guard try owns(id, session: session, lease: lease) else { return false }
                try database.prepare(
                    "UPDATE uploads SET \(UploadJournal.released), state = 'paused', updated = ?2 WHERE id = ?1"
                ).run([.text(id), .real(Date().timeIntervalSince1970)])
                return true
            }
        }
    }

    /// Records the server's URL of an upload the background session named `session` owns (a tus
    /// upload created while handing it over).
    func recordRemote(id: String, remote: String, session: String) throws(UploadError) {
        try call {
            try database.transaction {
                guard try owns(id, session: session) else { return }
                try database.prepare("UPDATE uploads SET remote = ?2, updated = ?3 WHERE id = ?1").run([
                    .text(id), .text(redacted(remote)), .real(Date().timeIntervalSince1970),
                ])
            }
        }
    }

    /// The uploads the background session named `session` owns (with those handed over before
    /// sessions were named when it is the app's: `adoptingUnnamed`), and those other sessions own
    /// (an extension's, to be left to it).
    func backgroundIDs(
        session: String, adoptingUnnamed: Bool
    ) throws(UploadError) -> (own: Set<String>, others: Set<String>) {
        try call {
            let statement = try database.prepare(
                "SELECT id, coalesce(background_session, ?3) = ?2 FROM uploads WHERE owner = ?1")
            try statement.bind([
                .integer(UploadJournal.backgroundOwner), .text(session),
                adoptingUnnamed ? .text(session) : .null,
            ])
            var own: Set<String> = []
            var others: Set<String> = []
            while try statement.step() {
                guard let id = statement.text("id") else { continue }
                if statement.integer(1) != 0 { own.insert(id) } else { others.insert(id) }
            }
            return (own, others)
        }
    }

    /// The uploads this process or the background session owns: those another process cannot
    /// have left behind.
    func heldHere() throws(UploadError) -> Set<String> {
        try owned(by: [UploadJournal.backgroundOwner, UploadJournal.processID])
    }

    /// The uploads another live process is sending now (its claim holds: `claim(id:)`), each
    /// with that process's id.
    package func sentElsewhere() throws(UploadError) -> [String: Int64] {
        let now = Date().timeIntervalSince1970
        return try call {
            // Owned by a process (the background session's owner is negative), the lease running.
            let statement = try database.prepare("SELECT id, owner, lease FROM uploads WHERE owner > 0 AND lease > ?1")
            try statement.bind([.real(now)])
            var sent: [String: Int64] = [:]
            while try statement.step() {
                let owner = statement.integer(1)
                if let id = statement.text("id"), UploadJournal.holds(owner: owner, lease: statement.real(2), now: now)
                {
                    sent[id] = owner
                }
            }
            return sent
        }
    }

    private func owned(by owners: [Int64]) throws(UploadError) -> Set<String> {
        try call {
            let marks = owners.indices.map { "?\($0 + 1)" }.joined(separator: ", ")
            let statement = try database.prepare("SELECT id FROM uploads WHERE owner IN (\(marks))")
            try statement.bind(owners.map { .integer($0) })
            var ids: Set<String> = []
            while try statement.step() { if let id = statement.text("id") { ids.insert(id) } }
            return ids
        }
    }
}
