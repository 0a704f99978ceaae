import Foundation

/// The answers of a background session's form tasks, as URLSession gives them: in pieces
/// (`didReceiveData`: "Sent when data is available for the delegate to consume. As the data
/// may be discontiguous…", NSURLSession.h:1139-1141), then the task's end takes its answer.
/// Only a form's answer is kept (a tus PATCH's or an S3 PUT's says nothing the journal keeps),
/// and only as much as the journal keeps, and one byte more, so that a longer one is known cut.
package struct BackgroundReplies: Sendable {
    private var bodies: [Int: Data] = [:]

    package init() {}

    /// Keeps a piece of the answer of task `identifier` (unique in its session: NSURLSession.h,
    /// `taskIdentifier`), when the task carries a form (its `taskDescription`).
    package mutating func add(_ data: Data, task identifier: Int, description: String?) {
        guard BackgroundTransfer(taskDescription: description)?.kind == .form else { return }
        let room = UploadRecord.replyLimit + 1 - (bodies[identifier]?.count ?? 0)
        guard room > 0 else { return }
        bodies[identifier, default: Data()].append(data.prefix(room))
    }

    /// The answer of task `identifier` so far, let go of here (its task has ended).
    package mutating func take(task identifier: Int) -> Data {
        bodies.removeValue(forKey: identifier) ?? Data()
    }

    /// How many tasks' answers are held.
    package var count: Int { bodies.count }
}
