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
    public final class BackgroundUploads: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        public let identifier: String
        public let journal: UploadJournal
        public let chunkSize: Int
        private let queue: OperationQueue
        private var session: URLSession?
        private var finishEvents: (() -> Void)?
        private let lock = NSLock()
        private let folder: URL

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
                // Linux Foundation has no background sessions; this branch exists only so that
                // scripts/check-apple-ui.sh can type-check the rest of the file there.
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
        /// so its `remote` URL is known), from the offset the journal holds.
        public func sendNextChunk(of id: String) async throws {
            guard let record = try await journal.record(id: id), let remote = record.remote.flatMap(URL.init(string:))
            else { throw UploadError(.journal, "no tus upload \(id) with a server URL in the journal") }
            guard record.offset < record.size else { return }
            let length = Int(min(Int64(chunkSize), record.size - record.offset))
            let chunk = folder.appendingPathComponent("\(id)-\(record.offset).chunk")
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: record.path))
            try handle.seek(toOffset: UInt64(record.offset))
            let data = try handle.read(upToCount: length) ?? Data()
            try handle.close()
            try data.write(to: chunk, options: .atomic)
            var request = URLRequest(url: remote)
            request.httpMethod = "PATCH"
            request.setValue("1.0.0", forHTTPHeaderField: "Tus-Resumable")
            request.setValue(String(record.offset), forHTTPHeaderField: "Upload-Offset")
            request.setValue("application/offset+octet-stream", forHTTPHeaderField: "Content-Type")
            guard let session else { throw UploadError(.network, "the background session is not set up") }
            let task = session.uploadTask(with: request, fromFile: chunk)
            task.taskDescription = id + " " + chunk.path
            task.resume()
        }

        public func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
            let parts = (task.taskDescription ?? "").split(separator: " ", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { return }
            try? FileManager.default.removeItem(atPath: parts[1])
            let id = parts[0]
            let response = task.response as? HTTPURLResponse
            let offset = response?.value(forHTTPHeaderField: "Upload-Offset").flatMap { Int64($0) }
            let journal = self.journal
            Task {
                guard var record = try? await journal.record(id: id) else { return }
                if error == nil, let offset, offset > record.offset {
                    record.offset = offset
                    record.state = offset >= record.size ? .done : .uploading
                    try? await journal.save(record)
                    if record.state != .done { try? await self.sendNextChunk(of: id) }
                } else {
                    // The foreground Uploader asks the server's offset when it resumes.
                    record.error = error?.localizedDescription ?? "the server answered \(response?.statusCode ?? 0)"
                    try? await journal.save(record)
                }
            }
        }

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
