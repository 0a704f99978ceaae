// Stand-in for Apple's AVKit, with the SwiftUI VideoPlayer it offers when both
// are imported (test-only; see scripts/check-apple-ui.sh).
@_exported import AVFoundation
import SwiftUI

public struct VideoPlayer<VideoOverlay: View>: View {
    public typealias Body = Never
    public var body: Never { fatalError() }
}

extension VideoPlayer where VideoOverlay == EmptyView {
    public init(player: AVPlayer?) { fatalError() }
}
