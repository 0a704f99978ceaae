import Pickup

/// What one upload shows in an upload screen, decided here (and tested on
/// Linux): the words, the progress, and which buttons make sense.
public struct UploadRow: Sendable, Hashable, Identifiable {
    public let id: Int
    /// The file's name.
    public var title: String
    /// Where it stands, in words: "Waiting", its progress and rate, "Finishing" (every byte sent,
    /// the server's answer to come), "Paused at …", "Uploaded", "Failed: …".
    public var status: String
    /// 0...1 of the bytes on their way (`UploadQueue.Item.sent`: sent, the confirmed ones
    /// included), so that it moves while a request is in flight.
    public var progress: Double
    /// Whether it is done (no buttons but removal).
    public var isFinished: Bool
    /// Whether a Pause button makes sense.
    public var canPause: Bool
    /// Whether a Resume button makes sense.
    public var canResume: Bool
    /// A failed upload offers "Try Again" (it goes on from the server's offset).
    public var canRetry: Bool
    /// Whether a Cancel button makes sense.
    public var canCancel: Bool
    /// What VoiceOver reads: the name, the state and the progress.
    public var accessibilityLabel: String

    /// The row of a queue item.
    public init(_ item: UploadQueue.Item) {
        id = item.id
        let name = item.path.split(separator: "/").last.map(String.init) ?? item.path
        title = name
        progress = item.size > 0 ? min(1, Double(item.progressBytes) / Double(item.size)) : 0
        let sizes = "\(ByteCountLabel.string(item.confirmed)) of \(ByteCountLabel.string(item.size))"
        switch item.state {
        case .waiting:
            status = "Waiting"
        case .uploading:
            if let (error, delay) = item.retrying {
                status = "Retrying in \(max(1, Int(delay.rounded()))) s: \(error.message)"
            } else if item.size > 0, item.progressBytes >= item.size {
                // Every byte is sent: the server's answer, or the upload's completion, is to come.
                status = "Finishing"
            } else if item.size > 0 {
                var parts = ["\(Int((progress * 100).rounded(.down)))%"]
                if item.bytesPerSecond > 0 { parts.append(ByteCountLabel.string(Int64(item.bytesPerSecond)) + "/s") }
                if let left = item.secondsLeft { parts.append(DurationLabel.string(seconds: left) + " left") }
                status = parts.joined(separator: " · ")
            } else {
                status = "Starting"
            }
        case .paused: status = "Paused at \(sizes)"
        case .done: status = "Uploaded"
        case .cancelled: status = "Cancelled"
        case .inBackground: status = "Uploading in the background"
        case .failed(let error): status = "Failed: \(error.message)"
        }
        isFinished = item.state == .done || item.state == .cancelled
        // One in the background is taken back from the background session to pause or cancel it.
        canPause = item.state == .uploading || item.state == .waiting || item.state == .inBackground
        canResume = item.state == .paused
        // A file changed since its upload began cannot be finished: only a new upload sends it.
        if case .failed(let error) = item.state { canRetry = error.code != .sourceChanged } else { canRetry = false }
        canCancel = !isFinished
        accessibilityLabel = "\(name), \(status)"
    }
}
