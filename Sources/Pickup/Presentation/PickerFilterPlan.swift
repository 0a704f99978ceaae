/// How a `MediaFilter` becomes Photos' own `PHPickerFilter`, decided here so
/// that Linux tests reach it; `PickupUI` only spells the result in PhotosUI.
///
/// Photos can filter by every rule but one: it has no filter for depth
/// photos, so `.depthPhotos` asks the picker for images and leaves the rest to
/// Pickup's own check once the file is loaded (`needsCheckAfterLoading`).
public struct PickerFilterPlan: Sendable, Hashable {
    /// A PHPickerFilter, as a tree of its named filters.
    public indirect enum Node: Sendable, Hashable {
        /// PHPickerFilter's named filters.
        case images, videos, livePhotos, screenshots, screenRecordings, slomoVideos, bursts, panoramas
        /// Any of these (PHPickerFilter's `any(of:)`).
        case any([Node])
        /// All of these (`all(of:)`).
        case all([Node])
        /// Not this (`not(_:)`).
        case not(Node)
    }

    /// What the picker is asked for (nil: everything).
    public var node: Node?
    /// Whether some rule could not be told to Photos and must be checked on the loaded file.
    public var needsCheckAfterLoading: Bool
    /// The lowest iOS version whose PHPickerFilter has every filter used.
    public var minimumIOS: Int

    /// The plan for a filter (nil: everything).
    public init(_ filter: MediaFilter?) {
        guard let filter else {
            self.init(node: nil, needsCheckAfterLoading: false, minimumIOS: 14)
            return
        }
        var inexact = false
        let node = PickerFilterPlan.node(filter, inexact: &inexact)
        self.init(node: node, needsCheckAfterLoading: inexact, minimumIOS: PickerFilterPlan.minimumIOS(node))
    }

    init(node: Node?, needsCheckAfterLoading: Bool, minimumIOS: Int) {
        self.node = node
        self.needsCheckAfterLoading = needsCheckAfterLoading
        self.minimumIOS = minimumIOS
    }

    private static func node(_ filter: MediaFilter, inexact: inout Bool) -> Node {
        switch filter {
        case .images: return .images
        case .videos: return .videos
        case .livePhotos: return .livePhotos
        case .screenshots: return .screenshots
        case .screenRecordings: return .screenRecordings
        case .slomoVideos: return .slomoVideos
        case .bursts: return .bursts
        case .panoramas: return .panoramas
        case .depthPhotos:
            inexact = true
            return .images
        case .any(let filters): return .any(filters.map { node($0, inexact: &inexact) })
        case .all(let filters): return .all(filters.map { node($0, inexact: &inexact) })
        case .not(let inner):
            // "not depth photos" cannot be narrowed to "not images": ask for everything, check later.
            var innerInexact = false
            let negated = node(inner, inexact: &innerInexact)
            if innerInexact {
                inexact = true
                return .any([.images, .videos])
            }
            return .not(negated)
        }
    }

    /// iOS 14 brought images, videos, livePhotos, any; iOS 15 all, not, panoramas,
    /// screenshots, screenRecordings, slomoVideos; iOS 16 bursts.
    private static func minimumIOS(_ node: Node) -> Int {
        switch node {
        case .images, .videos, .livePhotos: return 14
        case .panoramas, .screenshots, .screenRecordings, .slomoVideos: return 15
        case .bursts: return 16
        case .any(let nodes): return nodes.map(minimumIOS).max() ?? 14
        case .all(let nodes), .not(.any(let nodes)): return max(15, nodes.map(minimumIOS).max() ?? 15)
        case .not(let inner): return max(15, minimumIOS(inner))
        }
    }
}
