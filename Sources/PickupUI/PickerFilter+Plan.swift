#if canImport(PhotosUI) && canImport(SwiftUI)
    import Pickup
    import PhotosUI

    extension PickerFilterPlan.Node {
        /// The plan in PhotosUI's terms. Filters newer than the running iOS are left out of
        /// `any` (and the plan's `needsCheckAfterLoading` covers what that widens).
        public var phPickerFilter: PHPickerFilter {
            switch self {
            case .images: return .images
            case .videos: return .videos
            case .livePhotos: return .livePhotos
            case .screenshots: return .screenshots
            case .screenRecordings: return .screenRecordings
            case .slomoVideos: return .slomoVideos
            case .panoramas: return .panoramas
            case .bursts:
                if #available(iOS 16.0, *) { return .bursts }
                return .images
            case .any(let nodes): return .any(of: nodes.map(\.phPickerFilter))
            case .all(let nodes): return .all(of: nodes.map(\.phPickerFilter))
            case .not(let node): return .not(node.phPickerFilter)
            }
        }
    }

    extension PickerFilterPlan {
        /// The PHPickerFilter for the picker (nil: everything).
        public var phPickerFilter: PHPickerFilter? { node?.phPickerFilter }
    }
#endif
