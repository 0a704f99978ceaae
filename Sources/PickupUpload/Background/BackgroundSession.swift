import Foundation

/// What Pickup asks of the system's background `URLSession`
/// (`URLSessionConfiguration.background(withIdentifier:)`): PickupUI's `BackgroundUploads`
/// is the one on iPhone; the Linux tests drive the same decisions through a fake that behaves
/// as Apple documents. A background session runs upload tasks from a file only, made with the
/// delegate API; they go on while the app is suspended or killed, and a session made again
/// with the same identifier (after a relaunch) finds them and gets their events.
package protocol BackgroundSession: Sendable {
    /// The session's identifier (`URLSessionConfiguration.identifier`): an app and each of its
    /// extensions have their own, as "only one process can use a background session at a time"
    /// (Apple's App Extension Programming Guide, "Performing Uploads and Downloads").
    var identifier: String { get }
    /// Makes an upload task that sends the file at `path` as the body of `request` (its own
    /// body is ignored), labelled `description` (the task's `taskDescription`, which the
    /// session keeps with the task across relaunches), and starts it if `confirm` says so
    /// once it exists; otherwise cancels it. Returns whether it started. Throws when there is
    /// no file at `path`.
    func startUpload(
        _ request: HTTPRequest, fromFile path: String, description: String,
        confirm: @escaping @Sendable () async -> Bool
    ) async throws(UploadError) -> Bool
    /// The session's tasks that have not completed (`allTasks`), being cancelled ones too.
    func pendingTasks() async -> [BackgroundTaskInfo]
    /// Cancels a task; its completion still arrives (with a cancellation error).
    func cancelTask(_ identifier: Int) async
}

/// A task of a background session, as `pendingTasks` lists it.
package struct BackgroundTaskInfo: Sendable, Hashable {
    /// The task's `taskIdentifier`, unique within its session.
    package var identifier: Int
    /// The task's `taskDescription`.
    package var description: String?
    /// Whether it runs or waits to (`running` or `suspended`), not being cancelled.
    package var isRunning: Bool
    /// The body bytes the system has sent for it so far (`countOfBytesSent`, "number of body
    /// bytes already sent"), as far as the system has told the app, which may lag; 0 when
    /// unknown (`NSURLSessionTransferSizeUnknown`, -1).
    package var bodyBytesSent: Int64

    /// A task numbered `identifier`, labelled `description`, `bodyBytesSent` of its body sent.
    package init(identifier: Int, description: String?, isRunning: Bool = true, bodyBytesSent: Int64 = 0) {
        self.identifier = identifier
        self.description = description
        self.isRunning = isRunning
        self.bodyBytesSent = max(0, bodyBytesSent)
    }

    /// The upload it carries, when it is one of Pickup's.
    package var transfer: BackgroundTransfer? { BackgroundTransfer(taskDescription: description) }
}
