#if canImport(UIKit)
    import Foundation
    #if canImport(FoundationNetworking)
        import FoundationNetworking  // only where the stand-ins type-check this file (Linux)
    #endif
    import PickupUpload
    import UIKit

    /// tus uploads that go on while the app is suspended or killed: each chunk is
    /// written to a file and sent by a background `URLSession` with
    /// `uploadTask(with:fromFile:)`; the journal (the same `UploadJournal` the
    /// foreground `Uploader` uses) records every confirmed offset, so either one can
    /// take over. On relaunch for background events, call `reattach` from the app
    /// delegate's `application(_:handleEventsForBackgroundURLSession:completionHandler:)`.
    ///
    /// `@unchecked Sendable` is safe: the mutable state (`finishEvents`) is only touched
    /// under `lock`; `session` is set once in `init`; everything else is immutable.
    ///
    /// ```swift
    /// let journal = try UploadJournal()  // the queue's journal too
    /// let background = BackgroundUploads(journal: journal)
    /// // leaving the screen, for a tus upload the queue has paused:
    /// try await background.sendNextChunk(of: uploadID)
    /// // in the app delegate:
    /// background.reattach(identifier: identifier, completionHandler: completionHandler)
    /// ```
    public final class BackgroundUploads: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        /// The background session's identifier.
        public let identifier: String
        /// The journal the uploads are recorded in.
        public let journal: UploadJournal
        /// Bytes sent in one background request (at least 256 KB).
        public let chunkSize: Int
        private let queue: OperationQueue
        private var session: URLSession?
        private var finishEvents: (() -> Void)?
        private let lock = NSLock()
        private let folder: URL

        /// Background uploads on a session named `identifier`, recording in `journal`.
        public init(identifier: String = "pickup.uploads", journal: UploadJournal, chunkSize: Int = 8 << 20) {
            self.identifier = identifier
            self.journal = journal
            self.chunkSize = max(256 << 10, chunkSize)
            queue = OperationQueue()
            queue.maxConcurrentOperationCount = 1
            folder = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask)[0]
                .appendingPathComponent("PickupBackgroundChunks")
            super.init()
            try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            #if os(Linux)
                // Linux Foundation has no background sessions (this file is Apple-only in practice).
                let configuration = URLSessionConfiguration.default
            #else
                let configuration = URLSessionConfiguration.background(withIdentifier: identifier)
                configuration.sessionSendsLaunchEvents = true
                configuration.isDiscretionary = false
            #endif
            session = URLSession(configuration: configuration, delegate: self, delegateQueue: queue)
        }

        /// Call from `application(_:handleEventsForBackgroundURLSession:completionHandler:)`.
        public func reattach(identifier: String, completionHandler: @escaping () -> Void) {
            guard identifier == self.identifier else { return }
            lock.lock()
            finishEvents = completionHandler
            lock.unlock()
        }

        /// Sends the next chunk of a journaled tus upload (created by the foreground `Uploader`,
        /// so its `remote` URL is known), from the offset the journal holds. Each later chunk is
        /// started inside the delegate callback of the one before, before it returns.
        public func sendNextChunk(of id: String) async throws {
            guard let record = try await journal.record(id: id), let remote = record.remote.flatMap(URL.init(string:))
            else { throw UploadError(.journal, "no tus upload \(id) with a server URL in the journal") }
            guard record.offset < record.size else { return }
            let chunk = BackgroundChunk(
                id: id, path: record.path, size: record.size, remote: remote, offset: record.offset,
                length: min(Int64(chunkSize), record.size - record.offset))
            try send(chunk)
        }

        /// Writes the chunk to a file of its own and starts its background upload task.
        private func send(_ chunk: BackgroundChunk) throws {
            guard let session else { throw UploadError(.network, "the background session is not set up") }
            let file = chunkFile(chunk)
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: chunk.path))
            defer { try? handle.close() }
            try handle.seek(toOffset: UInt64(chunk.offset))
            let data = try handle.read(upToCount: Int(chunk.length)) ?? Data()
            guard data.count == Int(chunk.length) else {
                throw UploadError(.sourceUnreadable, "\(chunk.path) is shorter than when the upload began")
            }
            try data.write(to: file, options: .atomic)
            var request = URLRequest(url: chunk.remote)
            request.httpMethod = "PATCH"
            request.setValue("1.0.0", forHTTPHeaderField: "Tus-Resumable")
            request.setValue(String(chunk.offset), forHTTPHeaderField: "Upload-Offset")
            request.setValue("application/offset+octet-stream", forHTTPHeaderField: "Content-Type")
            let task = session.uploadTask(with: request, fromFile: file)
            task.taskDescription = chunk.taskDescription
            task.resume()
        }

        private func chunkFile(_ chunk: BackgroundChunk) -> URL {
            folder.appendingPathComponent("\(chunk.id)-\(chunk.offset).chunk")
        }

        /// Records the chunk's outcome in the journal and starts the next one (URLSession calls it).
        public func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
            guard let chunk = BackgroundChunk(taskDescription: task.taskDescription) else { return }
            try? FileManager.default.removeItem(at: chunkFile(chunk))
            let response = task.response as? HTTPURLResponse
            var next = chunk.next(
                status: response?.statusCode,
                serverOffset: response?.value(forHTTPHeaderField: "Upload-Offset").flatMap { Int64($0) },
                error: error?.localizedDescription, chunkSize: Int64(chunkSize))
            // The next task exists before this callback returns: the system calls
            // urlSessionDidFinishEvents only once no task is left.
            if case .send(let following) = next {
                do {
                    try send(following)
                } catch {
                    next = .stop(
                        offset: following.offset,
                        error: (error as? UploadError) ?? UploadError(.network, error.localizedDescription))
                }
            }
            let journal = self.journal
            let decided = next
            Task {
                guard var record = try? await journal.record(id: chunk.id) else { return }
                switch decided {
                case .send(let following):
                    record.offset = max(record.offset, following.offset)
                    record.state = .uploading
                case .finished(let offset):
                    record.offset = offset
                    record.state = .done
                case .stop(let offset, let error):
                    // The foreground Uploader asks the server's offset when it resumes.
                    if let offset { record.offset = max(record.offset, offset) }
                    record.error = error
                }
                try? await journal.save(record)
            }
        }

        /// Calls the completion handler iOS gave with the session's events (URLSession calls it).
        public func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession) {
            lock.lock()
            let finish = finishEvents
            finishEvents = nil
            lock.unlock()
            // UIKit wants it called on the main thread.
            guard let finish else { return }
            let call = MainThreadCall(run: finish)
            DispatchQueue.main.async { call.run() }
        }
    }

    /// UIKit's completion handler, handed to the main thread.
    ///
    /// `@unchecked Sendable` is safe: the closure is called once, on the main thread, and
    /// touched nowhere else after it is handed over.
    struct MainThreadCall: @unchecked Sendable {
        let run: () -> Void
    }
#endif
