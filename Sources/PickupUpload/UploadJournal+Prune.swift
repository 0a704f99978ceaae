import Foundation

extension UploadJournal {
    /// The states of uploads that are over: what `prune` removes. Failed, paused and unfinished
    /// ones are kept (they can be resumed).
    public static let prunable: Set<UploadRecord.State> = [.done, .cancelled]

    /// Removes the records of finished uploads (done or cancelled) last changed before
    /// `updatedBefore` (seconds since 1970; nil: any time), and returns them; with `dryRun`,
    /// returns them and removes nothing. A removed done upload is no longer "already there":
    /// its bytes would be sent again.
    public func prune(updatedBefore: Double? = nil, dryRun: Bool = false) throws(UploadError) -> [UploadRecord] {
        let found = try all().filter { record in
            UploadJournal.prunable.contains(record.state) && updatedBefore.map { record.updated < $0 } ?? true
        }
        guard !dryRun, !found.isEmpty else { return found }
        try call {
            try database.transaction {
                // The state is checked again: an upload resumed meanwhile is kept.
                let statement = try database.prepare(
                    "DELETE FROM uploads WHERE id = ?1 AND state IN ('done', 'cancelled')")
                for record in found { try statement.run([.text(record.id)]) }
            }
        }
        return found
    }
}
