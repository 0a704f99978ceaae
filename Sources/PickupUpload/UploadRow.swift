import Pickup

/// What one upload shows in an upload screen, decided here (and tested on
/// Linux): the words, the progress, and which buttons make sense.
public struct UploadRow: Sendable, Hashable, Identifiable {
    public let id: Int
    public var title: String
    public var status: String
    /// 0...1 of the bytes the server confirmed.
    public var progress: Double
    public var isFinished: Bool
    public var canPause: Bool
    public var canResume: Bool
    /// A failed upload offers "Try Again" (it goes on from the server's offset).
    public var canRetry: Bool
    public var canCancel: Bool
    public var accessibilityLabel: String

    public init(_ item: UploadQueue.Item) {
        id = item.id
        let name = item.path.split(separator: "/").last.map(String.init) ?? item.path
        title = name
        progress = item.size > 0 ? min(1, Double(item.confirmed) / Double(item.size)) : 0
        let sizes = "\(ByteCountLabel.string(item.confirmed)) of \(ByteCountLabel.string(item.size))"
        switch item.state {
        case .waiting:
            status = "Waiting"
        case .uploading:
            if let (error, delay) = item.retrying {
                status = "Retrying in \(max(1, Int(delay.rounded()))) s: \(error.message)"
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
        case .failed(let error): status = "Failed: \(error.message)"
        }
        isFinished = item.state == .done || item.state == .cancelled
        canPause = item.state == .uploading || item.state == .waiting
        canResume = item.state == .paused
        if case .failed = item.state { canRetry = true } else { canRetry = false }
        canCancel = !isFinished
        accessibilityLabel = "\(name), \(status)"
    }
}
