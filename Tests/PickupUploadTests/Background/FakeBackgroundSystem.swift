import Foundation
import PickupUpload

/// The system's side of background `URLSession`s, as Apple documents it, for the decisions in
/// `BackgroundTransfers`. The system sends a task's bytes itself, outside the app: here through
/// `transport` (a real server on 127.0.0.1, or the in-memory tus server). Each behaviour cites
/// the line it models (NSURLSession.h and UIApplication.h of the iPhoneOS 26.2 SDK).
///
/// `@unchecked Sendable` is safe: every field is read and written under `lock`.
final class FakeBackgroundSystem: @unchecked Sendable {
    /// One task the system holds.
    struct SystemTask: Sendable {
        let identifier: Int
        let session: String
        let request: HTTPRequest
        let file: String
        let description: String
        var resumed = false
        var completed = false
        /// Cancelled, its end not yet delivered: still among "all outstanding tasks".
        var cancelling = false
        /// `countOfBytesSent`: "number of body bytes already sent" (NSURLSession.h:353-354), or
        /// `NSURLSessionTransferSizeUnknown` (-1) when "it is not possible to know how many bytes
        /// will be transferred" (NSURLSession.h:348-350); a test sets it as the system would.
        var bodyBytesSent: Int64 = 0
    }

    /// How a task ended, as the session's delegate hears it (`didCompleteWithError`).
    struct Completion: Sendable {
        let description: String?
        let status: Int?
        let headers: [String: String]
        let finalURL: URL?
        let error: UploadError?
        /// The answer's body in the pieces `didReceiveData` gives it ("Sent when data is available
        /// for the delegate to consume. As the data may be discontiguous…", NSURLSession.h:
        /// 1139-1141), here 16 KB each, before the task's end, with the task's identifier.
        var pieces: [Data] = []
        var identifier = 0
    }

    /// What the app does with a task's end: `BackgroundTransfers.completed`.
    typealias Delegate = @Sendable (Completion) async -> Void
    /// What the app does with a task's progress: its description and the body's bytes sent.
    typealias ProgressDelegate = @Sendable (_ description: String, _ totalBytesSent: Int64) -> Void

    private let lock = NSLock()
    private var tasks: [SystemTask] = []
    private var nextIdentifier = 0
    private var delegates: [String: Delegate] = [:]
    private var progressDelegates: [String: ProgressDelegate] = [:]
    private var held: [String: [Completion]] = [:]
    private var cancellations: [Int] = []
    private var cancelHold: (@Sendable () async -> Void)?
    let transport: any HTTPTransport

    init(transport: any HTTPTransport) { self.transport = transport }

    /// A session made with `identifier`. Its delegate gets the events of every task made with
    /// that identifier, also those an earlier process made: "Once a session has been created
    /// from a configuration object with that identifier, the session's delegate will begin
    /// receiving callbacks" (UIApplication.h:438). Events held while no app was there come
    /// once the delegate's queue runs (`deliverHeld`): BackgroundUploads makes its session on
    /// a suspended delegate queue and starts the queue once it is ready for them.
    /// `progress`: told a task's body bytes sent while the app runs ("Sent periodically to notify
    /// the delegate of upload progress", NSURLSession.h:1069), here as the transport writes them.
    func session(
        _ identifier: String, delegate: @escaping Delegate, progress: ProgressDelegate? = nil
    ) -> FakeBackgroundSession {
        lock.withLock {
            delegates[identifier] = delegate
            progressDelegates[identifier] = progress
        }
        return FakeBackgroundSession(system: self, identifier: identifier)
    }

    /// Delivers the events held for `identifier` to its session's delegate.
    func deliverHeld(_ identifier: String) async {
        let (delegate, waiting) = lock.withLock { () -> (Delegate?, [Completion]) in
            guard let delegate = delegates[identifier] else { return (nil, []) }
            return (delegate, held.removeValue(forKey: identifier) ?? [])
        }
        guard let delegate else { return }
        for completion in waiting { await delegate(completion) }
    }

    /// The app's process ends (killed, or suspended for good): the tasks go on without it
    /// ("A background session can be used to perform networking operations on behalf of a
    /// suspended application", NSURLSession.h:725) and their events wait for a new session.
    func appEnded(_ identifier: String) {
        lock.withLock {
            _ = delegates.removeValue(forKey: identifier)
            _ = progressDelegates.removeValue(forKey: identifier)
        }
    }

    /// Makes a task: its body is "created from the file referenced by fileURL"
    /// (NSURLSession.h:188), read when the system sends it. "Task objects are always created
    /// in a suspended state and must be sent the -resume message before they will execute"
    /// (NSURLSession.h:253-254): the task runs only once resumed. (The file is checked by
    /// BackgroundUploads before it makes the task; URLSession itself would fail the task.)
    func make(_ request: HTTPRequest, file: String, description: String, session: String) throws(UploadError) -> Int {
        guard FileManager.default.fileExists(atPath: file) else {
            throw UploadError(.sourceUnreadable, "no file at \(file) to upload from")
        }
        return lock.withLock {
            nextIdentifier += 1
            tasks.append(
                SystemTask(
                    identifier: nextIdentifier, session: session, request: request, file: file,
                    description: description))
            return nextIdentifier
        }
    }

    /// The system has sent `bytes` of a task's body and goes on sending it: its
    /// `countOfBytesSent` (NSURLSession.h:353-354) says so from now on, and a delegate there is
    /// told ("Sent periodically to notify the delegate of upload progress", NSURLSession.h:1069).
    func sentPart(_ identifier: Int, bytes: Int64) {
        let told = lock.withLock { () -> (ProgressDelegate, String)? in
            guard let index = tasks.firstIndex(where: { $0.identifier == identifier && !$0.completed }) else {
                return nil
            }
            tasks[index].bodyBytesSent = bytes
            return progressDelegates[tasks[index].session].map { ($0, tasks[index].description) }
        }
        if let (progress, description) = told { progress(description, bytes) }
    }

    /// `-resume`: the task may run.
    func resume(_ identifier: Int) {
        lock.withLock {
            if let index = tasks.firstIndex(where: { $0.identifier == identifier }) { tasks[index].resumed = true }
        }
    }

    /// "All outstanding tasks" (NSURLSession.h:175): those not completed.
    func outstanding(_ session: String) -> [SystemTask] {
        lock.withLock { tasks.filter { $0.session == session && !$0.completed } }
    }

    /// Every task ever started in `session`, completed or not.
    func all(_ session: String) -> [SystemTask] { lock.withLock { tasks.filter { $0.session == session } } }

    /// "-cancel returns immediately, but marks a task as being canceled. The task will signal
    /// -URLSession:task:didCompleteWithError: with an error value of { NSURLErrorDomain,
    /// NSURLErrorCancelled }" (NSURLSession.h:371-373): the task stays outstanding, being
    /// cancelled, until its end is delivered later (`drain`).
    func cancel(_ identifier: Int) async {
        // A test's hold on this moment (not a behaviour of the system): the app waits in `-cancel`.
        let hold = lock.withLock { () -> (@Sendable () async -> Void)? in
            defer { cancelHold = nil }
            return cancelHold
        }
        if let hold { await hold() }
        let found = lock.withLock { () -> SystemTask? in
            guard let index = tasks.firstIndex(where: { $0.identifier == identifier && !$0.completed }),
                !tasks[index].cancelling
            else { return nil }
            tasks[index].cancelling = true
            return tasks[index]
        }
        guard let found else { return }
        lock.withLock { cancellations.append(found.identifier) }
    }

    /// Runs `hold` when the app next cancels a task, before the cancellation: a test holds the
    /// app there to ask something else meanwhile.
    func holdNextCancel(_ hold: @escaping @Sendable () async -> Void) { lock.withLock { cancelHold = hold } }

    /// Delivers the end of every task cancelled so far (or holds it for a session to come). The
    /// task "may signal other work before it acknowledges the cancelation" (NSURLSession.h:
    /// 373-374): one that ended meanwhile (`answer`) has no second end.
    func drain() async {
        while let identifier = lock.withLock({ cancellations.isEmpty ? nil : cancellations.removeFirst() }) {
            guard let task = lock.withLock({ tasks.first { $0.identifier == identifier && !$0.completed } }) else {
                continue
            }
            complete(identifier)
            await deliver(
                Completion(
                    description: task.description, status: nil, headers: [:], finalURL: nil,
                    error: UploadError(.cancelled, "the background upload stopped: cancelled (URL error -999)")),
                to: task.session)
        }
    }

    /// The person force-quits the app: "the system cancels all of the session's background
    /// transfers" (URL Loading System, "Downloading files in the background"); their
    /// cancellations wait for the next session made with the identifier.
    func forceQuit(_ identifier: String) async {
        appEnded(identifier)
        for task in outstanding(identifier) { await cancel(task.identifier) }
    }

    /// Sends every outstanding task to its end, as the system does while the app is suspended.
    /// Redirects are followed: "For tasks in background sessions, redirections will always be
    /// followed" (NSURLSession.h:1035).
    func runAll() async {
        await drain()
        while let task = lock.withLock({ tasks.first { !$0.completed && !$0.cancelling && $0.resumed } }) {
            var request = task.request
            var completion: Completion
            var hops = 0
            while true {
                do {
                    let source = try SourceFile(path: task.file)
                    request.body = .file(source, offset: 0, length: source.size)
                    // countOfBytesSent follows the body; progress reaches the app only while it
                    // runs (a delegate is there).
                    let identifier = task.identifier
                    request.onBodyBytesSent = { [weak self] total in self?.sentPart(identifier, bytes: total) }
                    let response = try await transport.send(request, limits: HTTPLimits())
                    if (300..<400).contains(response.status), hops < 5,
                        let location = response.value("Location"),
                        let next = URL(string: location, relativeTo: request.url)?.absoluteURL
                    {
                        request.url = next
                        hops += 1
                        continue
                    }
                    completion = Completion(
                        description: task.description, status: response.status, headers: response.headers,
                        finalURL: request.url, error: nil,
                        pieces: stride(from: 0, to: response.body.count, by: 16 << 10).map {
                            response.body.subdata(in: $0..<min(response.body.count, $0 + (16 << 10)))
                        }, identifier: task.identifier)
                } catch {
                    completion = Completion(
                        description: task.description, status: nil, headers: [:], finalURL: nil,
                        error: error)
                }
                break
            }
            complete(task.identifier)
            await deliver(completion, to: task.session)
        }
    }

    /// Ends a task with this answer without sending it (a 1 GB body the test does not move).
    func answer(_ identifier: Int, status: Int, headers: [String: String]) async {
        guard let task = lock.withLock({ tasks.first { $0.identifier == identifier && !$0.completed } }) else {
            return
        }
        complete(identifier)
        await deliver(
            Completion(
                description: task.description, status: status, headers: headers, finalURL: task.request.url,
                error: nil), to: task.session)
    }

    private func complete(_ identifier: Int) {
        lock.withLock {
            if let index = tasks.firstIndex(where: { $0.identifier == identifier }) { tasks[index].completed = true }
        }
    }

    /// To the session's delegate, or held until a session with that identifier is made
    /// (UIApplication.h:436-440: the app is launched or resumed for them).
    private func deliver(_ completion: Completion, to session: String) async {
        let delegate = lock.withLock { () -> Delegate? in
            if let delegate = delegates[session] { return delegate }
            held[session, default: []].append(completion)
            return nil
        }
        await delegate?(completion)
    }
}

/// One app's session on the fake system, as `BackgroundTransfers` uses it.
struct FakeBackgroundSession: BackgroundSession {
    let system: FakeBackgroundSystem
    let identifier: String

    func startUpload(
        _ request: HTTPRequest, fromFile path: String, description: String,
        confirm: @escaping @Sendable () async -> Bool
    ) async throws(UploadError) -> Bool {
        let task = try system.make(request, file: path, description: description, session: identifier)
        guard await confirm() else {
            await system.cancel(task)
            return false
        }
        system.resume(task)
        return true
    }

    func pendingTasks() async -> [BackgroundTaskInfo] {
        system.outstanding(identifier).map {
            BackgroundTaskInfo(
                identifier: $0.identifier, description: $0.description, isRunning: !$0.cancelling,
                bodyBytesSent: $0.bodyBytesSent)
        }
    }

    func cancelTask(_ identifier: Int) async { await system.cancel(identifier) }
}
