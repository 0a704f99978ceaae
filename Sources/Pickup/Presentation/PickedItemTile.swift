/// What one picked item shows in a selection grid, decided here (and tested on
/// Linux): its badges, its state, and what VoiceOver says and offers.
public struct PickedItemTile<ID: Hashable & Sendable>: Sendable, Hashable, Identifiable {
    /// Where a picked item stands.
    public enum State: Sendable, Hashable {
        /// Being copied out of the library (iCloud downloads report a fraction).
        case loading(fraction: Double?)
        /// Loaded into the app's library.
        case ready
        /// Could not be loaded; the message says why and what to do.
        case failed(message: String)
    }

    /// The picked item's identifier.
    public let id: ID
    /// Image, video or audio, as far as known before it loaded.
    public var kind: MediaKind
    /// Whether it is a Live Photo (a badge on its tile).
    public var isLivePhoto: Bool
    /// `m:ss` for videos.
    public var durationBadge: String?
    /// The place in an ordered selection, from 1.
    public var orderBadge: Int?
    /// Loading, ready or failed.
    public var state: State
    /// What VoiceOver reads: the kind, the duration, the place in the order and the state.
    public var accessibilityLabel: String
    /// The actions VoiceOver offers: remove, and retry when loading failed.
    public var accessibilityActions: [String]

    /// A tile from an item's facts (nil while loading), its place in the order, the selection's size and its state.
    public init(
        id: ID, info: MediaInfo?, kind: MediaKind, isLivePhoto: Bool, orderBadge: Int?, count: Int, state: State
    ) {
        self.id = id
        self.kind = kind
        self.isLivePhoto = isLivePhoto
        self.orderBadge = orderBadge
        self.state = state
        let duration = kind == .video ? info?.duration : nil
        durationBadge = duration.map { DurationLabel.string(seconds: $0) }
        var words = [isLivePhoto ? "Live Photo" : kind == .video ? "Video" : kind == .audio ? "Audio" : "Photo"]
        if let duration { words.append(PickedItemTile.spokenDuration(duration)) }
        if let orderBadge { words.append("selected \(orderBadge) of \(count)") }
        switch state {
        case .loading(let fraction):
            words.append(fraction.map { "loading, \(Self.percent($0)) percent" } ?? "loading")
        case .ready: break
        case .failed(let message): words.append("could not be loaded: \(message)")
        }
        accessibilityLabel = words.joined(separator: ", ")
        if case .failed = state {
            accessibilityActions = ["Remove", "Try Again"]
        } else {
            accessibilityActions = ["Remove"]
        }
    }

    /// A loading fraction in whole percent, 0 to 100 (0 for one that is not a number).
    static func percent(_ fraction: Double) -> Int {
        fraction.isFinite ? Int((min(max(fraction, 0), 1) * 100).rounded()) : 0
    }

    /// "1 minute, 5 seconds", as VoiceOver should say a duration (not "1:05").
    public static func spokenDuration(_ seconds: Double) -> String {
        // As `DurationLabel`: nothing for a duration that is not one, and at most 99,999 hours (a
        // header can say 2^62 s), so that it is never an Int past Int.max.
        let total = seconds.isFinite && seconds > 0 ? Int(min(seconds, 359_999_999).rounded()) : 0
        let hours = total / 3600
        let minutes = total / 60 % 60
        let rest = total % 60
        var parts: [String] = []
        if hours > 0 { parts.append("\(hours) hour\(hours == 1 ? "" : "s")") }
        if minutes > 0 { parts.append("\(minutes) minute\(minutes == 1 ? "" : "s")") }
        if rest > 0 || parts.isEmpty { parts.append("\(rest) second\(rest == 1 ? "" : "s")") }
        return parts.joined(separator: ", ")
    }
}

extension Selection {
    /// The grid's tiles in selection order; `facts` and `states` come from the loader.
    public func tiles(
        facts: [ID: MediaInfo], states: [ID: PickedItemTile<ID>.State]
    ) -> [PickedItemTile<ID>] {
        items.map { id in
            let info = facts[id]
            return PickedItemTile(
                id: id, info: info, kind: info?.kind ?? .image, isLivePhoto: info?.livePhotoRole != nil,
                orderBadge: policy.ordered ? badge(for: id) : nil, count: count,
                state: states[id] ?? .loading(fraction: nil))
        }
    }
}
