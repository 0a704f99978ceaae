import Foundation
import PickupStore

/// What the journal knows was sent whole: the SHA-256 of finished uploads, and the lookups
/// that tell a file already there from one to send.
extension UploadJournal {
    /// Records the SHA-256 of a finished upload's bytes.
    public func recordSHA256(_ sha256: String, of id: String) throws(UploadError) {
        try call {
            try database.prepare("UPDATE uploads SET sha256 = ?2 WHERE id = ?1 AND state = 'done'").run([
                .text(id), .text(sha256),
            ])
        }
    }

    /// A finished upload of bytes of this size and SHA-256 to this destination, if the
    /// journal holds one: the bytes are already there.
    public func finished(
        to destination: UploadDestination, size: Int64, sha256: String
    ) throws(UploadError) -> UploadRecord? {
        try finishedRecords(to: destination, size: size, sha256: sha256).first
    }

    /// The key of a finished upload whose SHA-256 was never recorded, among
    /// ``finishedUploads(to:)``'s: its file's absolute path and modification time (never a
    /// SHA-256, which is hex).
    public static func unhashedKey(path: String, modified: Int64) -> String { "file:\(modified):\(path)" }

    /// Whether the journal holds a finished upload of this size to this destination whose
    /// SHA-256 is known: only then is a file worth hashing to see whether it is already there.
    public func hasFinished(to destination: UploadDestination, size: Int64) throws(UploadError) -> Bool {
        try !finishedRecords(to: destination, size: size, sha256: nil).isEmpty
    }

    /// For each (destination, size), the finished uploads of that many bytes there whose SHA-256
    /// is known, by that SHA-256: the whole run's "already there" candidates in one call. One
    /// whose SHA-256 was never recorded (its run was stopped first) is keyed by its file instead
    /// (``unhashedKey(path:modified:)``): the same file, unchanged, is there. Each
    /// distinct (destination, size) is one lookup in the journal's index, however many files
    /// share it (a folder of same-size photos to one tus endpoint). A file with none need not
    /// be hashed.
    public func finishedUploads(
        to files: [(destination: UploadDestination, size: Int64)]
    ) throws(UploadError) -> [[String: UploadRecord]] {
        try call {
            let statement = try database.prepare(
                UploadJournal.select + " WHERE " + UploadJournal.finishedCondition + " ORDER BY created DESC")
            let unhashed = try database.prepare(
                UploadJournal.select + " WHERE " + UploadJournal.finishedUnhashedCondition + " ORDER BY created DESC")
            var looked: [String: [Int64: [String: UploadRecord]]] = [:]
            var found: [[String: UploadRecord]] = []
            found.reserveCapacity(files.count)
            for file in files {
                let stored = file.destination.stored
                guard let text = try? UploadJournal.json(stored) else {
                    found.append([:])
                    continue
                }
                if let known = looked[text]?[file.size] {
                    found.append(known)
                    continue
                }
                var bySHA256: [String: UploadRecord] = [:]
                // The destination as given, then its twin (`…/files` for `…/files/`; S3 has none).
                var places = [(stored, text)]
                if let twin = UploadDestination.twin(ofStored: stored), let twinText = try? UploadJournal.json(twin) {
                    places.append((twin, twinText))
                }
                for (place, placeText) in places {
                    try statement.bind([.text(placeText), .integer(file.size)])
                    while try statement.step() {
                        // The newest of the same bytes, as `finished(to:size:sha256:)` answers.
                        if let sha256 = statement.text("sha256"), bySHA256[sha256] == nil {
                            bySHA256[sha256] = UploadJournal.record(statement, destination: place, home: home)
                        }
                    }
                    try unhashed.bind([.text(placeText), .integer(file.size)])
                    while try unhashed.step() {
                        let record = UploadJournal.record(unhashed, destination: place, home: home)
                        let key = UploadJournal.unhashedKey(path: record.path, modified: record.modified)
                        if bySHA256[key] == nil { bySHA256[key] = record }
                    }
                }
                looked[text, default: [:]][file.size] = bySHA256
                found.append(bySHA256)
            }
            return found
        }
    }

    /// The newest finished upload to each of these destinations, whatever its bytes (nil where
    /// none is known): what an S3 key holds now, as far as Pickup sent it. One lookup in the
    /// journal's index a destination. With each, the SHA-256 of its bytes when known.
    public func newestFinished(
        to destinations: [UploadDestination]
    ) throws(UploadError) -> [(record: UploadRecord, sha256: String?)?] {
        try call {
            let statement = try database.prepare(
                UploadJournal.select + " WHERE state = 'done' AND destination = ?1 ORDER BY created DESC LIMIT 1")
            return try destinations.map { destination -> (record: UploadRecord, sha256: String?)? in
                let stored = destination.stored
                guard let text = try? UploadJournal.json(stored) else { return nil }
                try statement.bind([.text(text)])
                defer { statement.reset() }
                guard try statement.step() else { return nil }
                return (UploadJournal.record(statement, destination: stored, home: home), statement.text("sha256"))
            }
        }
    }

    /// Records the SHA-256 of many finished uploads, in one transaction.
    public func recordSHA256(_ hashes: [(id: String, sha256: String)]) throws(UploadError) {
        guard !hashes.isEmpty else { return }
        try call {
            try database.transaction {
                let statement = try database.prepare("UPDATE uploads SET sha256 = ?2 WHERE id = ?1 AND state = 'done'")
                for hash in hashes { try statement.run([.text(hash.id), .text(hash.sha256)]) }
            }
        }
    }

    /// Finished uploads of `size` bytes to `destination` with this SHA-256, or (nil) with any known one.
    private func finishedRecords(
        to destination: UploadDestination, size: Int64, sha256: String?
    ) throws(UploadError) -> [UploadRecord] {
        guard let text = try? UploadJournal.json(destination.stored) else { return [] }
        guard let sha256 else {
            return try records(where: UploadJournal.finishedCondition, [.text(text), .integer(size)])
        }
        return try records(
            where: "state = 'done' AND destination = ?1 AND size = ?2 AND sha256 = ?3",
            [.text(text), .integer(size), .text(sha256)])
    }
}
