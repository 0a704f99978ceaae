#if canImport(UIKit)
    import Foundation
    import Pickup
    import PickupUpload
    import UIKit

    /// Uploads that go on while the app is suspended or killed, sent by a background
    /// `URLSession` that the system runs outside the app: one upload task a file (a tus
    /// upload's rest in one PATCH, an S3 object in one presigned PUT, a form in one POST),
    /// recorded in the same `UploadJournal` as the foreground queue. The journal says which
    /// of the two sends an upload, so that nothing is sent twice.
    ///
    /// Make it at launch, with the identifier it had before: iOS gives a session's events to a
    /// session made with the same identifier. Make one for each identifier and keep it (the app
    /// delegate's, or a static). A second one for an identifier whose session this process still
    /// holds makes no session ("it is not safe to create another background session with the
    /// same identifier until URLSession:didBecomeInvalidWithError: has been issued",
    /// NSURLSession.h:157-159): it passes every call to the first, which sends with its own
    /// uploader and journal (``invalidate()`` too: the session is let go), until the first's
    /// session has become invalid; its next call then makes its own. Call ``restore(into:)`` once at launch,
    /// ``handOff(_:)`` when the app leaves the screen, ``takeBack(_:)`` when it returns, and
    /// ``reattach(identifier:completionHandler:)`` from the app delegate's
    /// `application(_:handleEventsForBackgroundURLSession:completionHandler:)`.
    ///
    /// An app extension (a share extension) has a session of its own: another identifier, and
    /// `sharedContainerIdentifier` set to an App Group that it shares with its app, where the
    /// journal and the library live too (``/Pickup/PickupStorage/appGroup(_:)``). The journal
    /// says which session sends each upload: one session never takes back, or resumes, what
    /// another sends. When the extension has ended, iOS launches the app for its session's
    /// events: make a `BackgroundUploads` with the extension's identifier there, and reattach.
    ///
    /// Requests carry the uploader's `UploadOptions.headers` (and a form's own headers), as
    /// in the foreground; the system follows redirects in the background (NSURLSession.h,
    /// "redirections will always be followed"), so an answer from another host is recorded
    /// as a failure, never as done.
    ///
    /// `@unchecked Sendable` is safe: `gate`, `queue` and `answers` are only touched under `lock`;
    /// `session` and `transfers` are set once, under `setUpLock` and `lock` (`holderNow()`);
    /// everything else is immutable.
    public final class BackgroundUploads: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        /// The background session's identifier.
        public let identifier: String
        /// The uploader whose journal, headers and S3 authorization background uploads use.
        public let uploader: Uploader
        private let lock = NSLock()
        private var gate = BackgroundEventsGate<MainThreadCall>()
        private var queue: UploadQueue?
        /// Each form task's answer so far (`BackgroundReplies`).
        private var answers = BackgroundReplies()
        private var session: URLSession?
        private var transfers: BackgroundTransfers?
        private let delegateQueue = OperationQueue()
        /// Set once `invalidate()` lets the session go: no task may be made in it after that.
        /// Why no task may be made in the session any more (nil while it can be used): it was let
        /// go (`invalidate()`), or it became invalid on its own (another process holds its
        /// identifier). A task made in an invalidated session raises, so none is made.
        private let letGo = LockedValue<UploadError?>(nil)
        /// Who waits for the session's end (`urlSession(_:didBecomeInvalidWithError:)`), and whether it came.
        private var invalidWaiters: [CheckedContinuation<Void, Never>] = []
        private var isInvalid = false
        /// What making the session takes, kept for a second object that makes it once the first
        /// has let it go.
        private let setup: Setup
        /// Held while the session is made: it is made once.
        private let setUpLock = NSLock()

        private struct Setup {
            let appGroup: String?
            let storage: PickupStorage
            let background: any BackgroundTimeGranting
            let network: BackgroundNetwork
            let sharedFolder: String?
        }

        /// The app's background uploads, on a session named `identifier`, for `uploader`'s
        /// journal; the bodies a task needs (the rest of a tus upload, a form) are written under
        /// `storage`'s folder (`outbox`, excluded from backup). Background time while handing
        /// over comes from `UIApplication`, which app extensions cannot use: an extension uses
        /// ``init(extensionIdentifier:appGroup:uploader:network:)``. `network`: which networks
        /// the session may send on (``/PickupUpload/BackgroundNetwork``; any, unless said).
        @available(iOSApplicationExtension, unavailable)
        public convenience init(
            identifier: String = BackgroundUploads.appIdentifier, uploader: Uploader,
            storage: PickupStorage = .standard, network: BackgroundNetwork = .any
        ) {
            self.init(
                identifier: identifier, appGroup: nil, uploader: uploader, storage: storage,
                background: UIKitBackgroundTime(), network: network)
        }

        /// An app extension's background uploads (a share extension's), on a session of its own
        /// named `extensionIdentifier`: "only one process can use a background session at a
        /// time", so the app and each extension need their own (Apple's App Extension Programming
        /// Guide, "Performing Uploads and Downloads"). `appGroup` is the App Group the extension
        /// shares with its app: the session's `sharedContainerIdentifier` ("App extensions wishing
        /// to use background sessions *must* set this property to a valid container identifier",
        /// NSURLSession.h:787 in the iOS 26.2 SDK, :784 in 17.4), and where the outbox is, so that
        /// the files a task sends outlive the extension. `uploader`'s journal must be there too
        /// (``/Pickup/PickupStorage/appGroup(_:)``'s `journal`), where the app sees it.
        ///
        /// The app makes the same one, with the same arguments, when iOS launches it for the
        /// extension's session (`application(_:handleEventsForBackgroundURLSession:completionHandler:)`).
        /// Background time while handing over comes from `ProcessInfo`'s expiring activity, which
        /// extensions may use. Throws when the identifier is the app's default, or the group or
        /// the journal is not where the app can see them.
        public convenience init(
            extensionIdentifier: String, appGroup: String, uploader: Uploader, network: BackgroundNetwork = .any
        ) throws(UploadError) {
            guard extensionIdentifier != BackgroundUploads.appIdentifier else {
                throw UploadError(
                    .badTarget,
                    "\(extensionIdentifier) is the app's background session: give the extension an identifier of its own"
                )
            }
            guard let storage = PickupStorage.appGroup(appGroup),
                let container = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: appGroup)
            else {
                throw UploadError(
                    .badTarget,
                    "there is no App Group container \(appGroup): add the group to the app's and the extension's entitlements"
                )
            }
            let journal = URL(fileURLWithPath: uploader.journal.path).resolvingSymlinksInPath().path
            let group = container.resolvingSymlinksInPath().path
            guard journal.hasPrefix(group + "/") else {
                throw UploadError(
                    .journal,
                    "the upload journal at \(uploader.journal.path) is not in the App Group \(appGroup), where the app "
                        + "would see the extension's uploads: open it at PickupStorage.appGroup(\"\(appGroup)\")?.journal"
                )
            }
            self.init(
                identifier: extensionIdentifier, appGroup: appGroup, uploader: uploader, storage: storage,
                background: ExpiringActivityTime(), network: network, sharedFolder: group)
        }

        /// The app's background session's identifier unless it is given another.
        public static let appIdentifier = "pickup.uploads"

        private init(
            identifier: String, appGroup: String?, uploader: Uploader, storage: PickupStorage,
            background: any BackgroundTimeGranting, network: BackgroundNetwork, sharedFolder: String? = nil
        ) {
            self.identifier = identifier
            self.uploader = uploader
            setup = Setup(
                appGroup: appGroup, storage: storage, background: background, network: network,
                sharedFolder: sharedFolder)
            super.init()
            _ = holderNow()
        }

        /// Who sends for this object: nil when it holds its identifier's session (made now, when
        /// the identifier is free), else the object that does. One session per identifier in a
        /// process (NSURLSession.h:157-159): a second object makes none while the first holds it,
        /// and passes its calls to it; once the first's session has become invalid, the next
        /// call makes this one's.
        private func holderNow() -> BackgroundUploads? {
            setUpLock.withLock { () -> BackgroundUploads? in
                if lock.withLock({ session != nil }) { return nil }
                if let first = BackgroundSessionClaims.process.claim(identifier, by: self) as? BackgroundUploads {
                    return first
                }
                makeSession()
                return nil
            }
        }

        private func makeSession() {
            let (appGroup, storage, network) = (setup.appGroup, setup.storage, setup.network)
            let configuration = URLSessionConfiguration.background(withIdentifier: identifier)
            configuration.sessionSendsLaunchEvents = true
            configuration.isDiscretionary = false
            configuration.allowsCellularAccess = network.cellular
            configuration.allowsExpensiveNetworkAccess = network.expensive
            configuration.allowsConstrainedNetworkAccess = network.constrained
            if let appGroup { configuration.sharedContainerIdentifier = appGroup }
            // The delegate queue is serial: URLSession calls the delegate one event at a time. It
            // starts suspended: a relaunched app's session gets the events of its earlier tasks at
            // once, and none may come before `transfers` can record them.
            delegateQueue.maxConcurrentOperationCount = 1
            delegateQueue.isSuspended = true
            let made = URLSession(configuration: configuration, delegate: self, delegateQueue: delegateQueue)
            let folder = storage.root + "/outbox"
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            storage.excludeFromBackup(folder)
            lock.withLock {
                session = made
                // The app's session takes the uploads an earlier version handed over without
                // naming a session (there was only the app's then); an extension's does not.
                transfers = BackgroundTransfers(
                    uploader: uploader,
                    session: SystemBackgroundSession(session: made, identifier: identifier, letGo: letGo),
                    folder: folder, background: setup.background, adoptsUnnamedUploads: appGroup == nil,
                    sharedFolder: setup.sharedFolder)
            }
            delegateQueue.isSuspended = false
        }

        /// Lets the session's tasks run on and ends this object's use of the session
        /// (`finishTasksAndInvalidate`); returns once the session says it has ended. The app calls
        /// it on an extension's `BackgroundUploads` once that session's events are handled (the
        /// handler given to ``reattach(identifier:completionHandler:)`` has been called), and
        /// makes no other for that identifier until it returns: "it is not safe to create another
        /// background session with the same identifier until URLSession:didBecomeInvalidWithError:
        /// has been issued" (NSURLSession.h:157-159 in the iOS 26.2 SDK). No task is made in the
        /// session after this is called ("New tasks may not be created"): an upload it would
        /// have handed over again stays with the foreground.
        public func invalidate() async {
            if let holder = holderNow() { return await holder.invalidate() }
            letGo.withValue { reason in
                if reason == nil {
                    reason = UploadError(
                        .network, "the background session \(identifier) was let go: this upload stays here")
                }
            }
            await withCheckedContinuation { (ended: CheckedContinuation<Void, Never>) in
                // Over already: nothing to wait for.
                let session = lock.withLock { () -> URLSession? in
                    guard !isInvalid, let session = self.session else { return nil }
                    invalidWaiters.append(ended)
                    return session
                }
                if let session {
                    session.finishTasksAndInvalidate()
                } else {
                    ended.resume()
                }
            }
        }

        /// The session has ended (URLSession calls it): after `invalidate()`, or on its own. "A
        /// session will only become invalid because of a systemic error or when it has been
        /// explicitly invalidated" (NSURLSession.h:941-943 in the iOS 26.2 SDK): an extension's
        /// session whose identifier the app still holds (it handles that session's events)
        /// becomes invalid at once, NSURLErrorBackgroundSessionInUseByAnotherProcess
        /// (NSURLError.h). Its uploads then stay in the foreground, none raising.
        public func urlSession(_ session: URLSession, didBecomeInvalidWithError error: Error?) {
            let inUse = (error as? URLError)?.code == .backgroundSessionInUseByAnotherProcess
            letGo.withValue { reason in
                if reason == nil {
                    reason =
                        inUse
                        ? UploadError(
                            .busy,
                            "another process (the app, handling this session's earlier uploads) holds the background "
                                + "session \(identifier): this upload stays here")
                        : UploadError(.network, "the background session \(identifier) ended: this upload stays here")
                }
            }
            // "Safe to create another background session with the same identifier" from here
            // (NSURLSession.h:157-159).
            BackgroundSessionClaims.process.release(identifier, by: self)
            let waiting = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
                isInvalid = true
                defer { invalidWaiters = [] }
                return invalidWaiters
            }
            for waiter in waiting { waiter.resume() }
        }

        private var running: BackgroundTransfers? { lock.withLock { transfers } }

        /// At launch: adds to `queue` every unfinished upload of the journal, resumed from the
        /// server's offset, and shows those the background session still sends as in the
        /// background. Returns the queue ids of the uploads resumed here.
        @discardableResult
        public func restore(into queue: UploadQueue) async throws(UploadError) -> [Int] {
            if let holder = holderNow() { return try await holder.restore(into: queue) }
            lock.withLock { self.queue = queue }
            guard let transfers = running else { return [] }
            // The events the session already has (a relaunch for them) are recorded first, so
            // that a task that ended is not taken for one lost.
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                delegateQueue.addOperation { done.resume() }
            }
            while lock.withLock({ gate.pendingWrites }) > 0 { try? await Task.sleep(nanoseconds: 20_000_000) }
            return try await transfers.restore(into: queue)
        }

        /// The app leaves the screen: every upload of `queue` that runs or waits is paused and
        /// handed to the background session (its place is in the journal; the server's offset
        /// is asked first). One that cannot go (an S3 multipart upload under way, a file larger
        /// than S3 takes in one PUT) is put back in line, for the background time iOS gives.
        /// Returns how many were handed over.
        @discardableResult
        public func handOff(_ queue: UploadQueue) async -> Int {
            if let holder = holderNow() { return await holder.handOff(queue) }
            lock.withLock { self.queue = queue }
            guard let transfers = running else { return 0 }
            return await transfers.handOff(queue)
        }

        /// Sends a new upload through the background session from the start, while the app is on
        /// screen: a task started then is not left to the system's discretion, as one started
        /// after the app left the screen is (a long video may otherwise wait for Wi-Fi and
        /// power). `queue` shows it as in the background; one the background session cannot
        /// send (a file over 5 GB to S3) goes in the queue. Returns its queue id. An extension's
        /// file must be in its App Group's container (the app resumes what the extension leaves):
        /// one outside is refused (`UploadError.outsideSharedContainer`), nothing sent.
        /// `metadata`: what a tus upload carries besides its file's name and type
        /// (`UploadRecord.metadata`), kept in the journal for the task that creates it.
        @discardableResult
        public func send(
            path: String, to destination: UploadDestination, type: String = "application/octet-stream",
            metadata: [String: String] = [:], on queue: UploadQueue
        ) async throws(UploadError) -> Int {
            if let holder = holderNow() {
                return try await holder.send(path: path, to: destination, type: type, metadata: metadata, on: queue)
            }
            lock.withLock { self.queue = queue }
            guard let transfers = running else {
                throw UploadError(.network, "the background session is not set up")
            }
            return try await transfers.send(
                path: path, to: destination, type: type, expected: nil, metadata: metadata, on: queue)
        }

        /// The app is back on screen: every tus upload the background session sends is taken
        /// back (the journal first, then its task is cancelled) and resumed in `queue` from the
        /// server's offset: the background session may have sent part of it, or all. S3 and
        /// form uploads stay with the background session (one request each: taken back, they
        /// would start over); the queue shows them until they end.
        public func takeBack(_ queue: UploadQueue) async {
            if let holder = holderNow() { return await holder.takeBack(queue) }
            guard let transfers = running else { return }
            await transfers.takeBack(queue)
        }

        /// Call from `application(_:handleEventsForBackgroundURLSession:completionHandler:)`.
        /// The handler is called on the main thread once the session has delivered its events
        /// and the journal has recorded them; for an identifier that is not this session's it
        /// is called at once (an app with other background sessions passes only this one's).
        public func reattach(identifier: String, completionHandler: @escaping () -> Void) {
            if let holder = holderNow() {
                return holder.reattach(identifier: identifier, completionHandler: completionHandler)
            }
            let call = MainThreadCall(run: completionHandler)
            guard identifier == self.identifier else {
                call.onMain()
                return
            }
            for ready in lock.withLock({ gate.handlerGiven(call) }) { ready.onMain() }
        }

        /// Records a task's end in the journal (URLSession calls it).
        public func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
            guard let transfers = running else { return }
            let response = task.response as? HTTPURLResponse
            var headers: [String: String] = [:]
            for (name, value) in response?.allHeaderFields ?? [:] {
                if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
            }
            let description = task.taskDescription
            let status = response?.statusCode
            let finalURL = response?.url
            let failure = error.map { error -> UploadError in
                let code = (error as NSError).code
                // Cancelled: taken back, or the person force-quit the app (the system then
                // cancels the session's tasks). Anything else is the connection.
                return UploadError(
                    code == NSURLErrorCancelled ? .cancelled : .network,
                    "the background upload stopped: \(error.localizedDescription) (URL error \(code))")
            }
            let answered = headers
            let body = lock.withLock { () -> Data in
                gate.writeBegan()
                return answers.take(task: task.taskIdentifier)
            }
            Task {
                let record = await transfers.completed(
                    description: description, status: status, headers: answered, finalURL: finalURL, error: failure,
                    body: body)
                if let record, let queue = self.lock.withLock({ self.queue }) { await queue.backgroundEnded(record) }
                self.lock.withLock { self.gate.writeEnded() }?.onMain()
            }
        }

        /// Keeps the first bytes of a task's answer, a form's reply (URLSession calls it: "Sent
        /// when data is available for the delegate to consume", NSURLSession.h:1139 in the iOS
        /// 26.2 SDK); the task's end records them.
        public func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            let description = dataTask.taskDescription
            lock.withLock { answers.add(data, task: dataTask.taskIdentifier, description: description) }
        }

        /// Shows a task's bytes on the queue's row while the app runs (URLSession calls it, "Sent
        /// periodically to notify the delegate of upload progress", NSURLSession.h); the queue
        /// takes them four times a second at most.
        public func urlSession(
            _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
            totalBytesExpectedToSend: Int64
        ) {
            guard let transfer = BackgroundTransfer(taskDescription: task.taskDescription),
                let queue = lock.withLock({ self.queue })
            else { return }
            let bytes = transfer.fileBytes(sent: totalBytesSent)
            Task { await queue.backgroundSent(journalID: transfer.id, bytes: bytes) }
        }

        /// Calls the completion handler iOS gave, once the journal has recorded every event (URLSession calls it).
        public func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession) {
            lock.withLock { gate.eventsFinished() }?.onMain()
        }
    }

    /// The background `URLSession` as `BackgroundTransfers` sees it.
    struct SystemBackgroundSession: BackgroundSession {
        let session: URLSession
        let identifier: String
        /// Why the session may make no task any more (`BackgroundUploads.letGo`): a task made in
        /// an invalidated session is a programming error that raises, so none is made. The check
        /// and the task's making are under its lock, as `invalidate()` marks it before it ends
        /// the session.
        let letGo: LockedValue<UploadError?>

        func startUpload(
            _ request: HTTPRequest, fromFile path: String, description: String,
            confirm: @escaping @Sendable () async -> Bool
        ) async throws(UploadError) -> Bool {
            var urlRequest = URLRequest(url: request.url)
            urlRequest.httpMethod = request.method
            for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
            // The task would only fail at its end without the file: say so now.
            guard FileManager.default.fileExists(atPath: path) else {
                throw UploadError(.sourceUnreadable, "no file at \(path) to upload from")
            }
            // A background session runs upload tasks from a file only, made with the delegate API;
            // made only while the session may still make one, under the same lock as its marking.
            let task = try letGo.withValue { (reason: inout UploadError?) throws(UploadError) -> URLSessionUploadTask in
                if let reason { throw reason }
                return session.uploadTask(with: urlRequest, fromFile: URL(fileURLWithPath: path))
            }
            task.taskDescription = description
            guard await confirm() else {
                task.cancel()
                return false
            }
            task.resume()
            return true
        }

        func pendingTasks() async -> [BackgroundTaskInfo] {
            await session.allTasks.filter { $0.state != .completed }.map {
                // countOfBytesSent: "number of body bytes already sent" (NSURLSession.h); it may be
                // NSURLSessionTransferSizeUnknown (-1), which BackgroundTaskInfo takes as 0.
                BackgroundTaskInfo(
                    identifier: $0.taskIdentifier, description: $0.taskDescription,
                    isRunning: $0.state == .running || $0.state == .suspended, bodyBytesSent: $0.countOfBytesSent)
            }
        }

        func cancelTask(_ identifier: Int) async {
            for task in await session.allTasks where task.taskIdentifier == identifier { task.cancel() }
        }
    }

    /// UIKit's completion handler, handed to the main thread.
    ///
    /// `@unchecked Sendable` is safe: the closure is called once, on the main thread, and
    /// touched nowhere else after it is handed over.
    struct MainThreadCall: @unchecked Sendable {
        let run: () -> Void

        /// Calls it on the main thread (UIKit wants the handler called there).
        func onMain() {
            let call = self
            DispatchQueue.main.async { call.run() }
        }
    }
#endif
