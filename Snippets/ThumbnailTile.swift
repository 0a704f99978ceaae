// A tile: an upright thumbnail made with AVFoundation and a duration badge.

// snippet.hide
#if canImport(SwiftUI) && canImport(UIKit)
// snippet.show
import Foundation
import Pickup
import PickupImport
import PickupUI
import SwiftUI
import UIKit

struct ThumbnailTile: View {
    let library: ImportSession
    let item: ImportedItem
    @State private var image: UIImage?

    var body: some View {
        ZStack(alignment: .bottomTrailing) {
            Color.gray.opacity(0.2)
            if let image {
                Image(uiImage: image).resizable().scaledToFill()
            }
            if let seconds = item.info.duration, item.kind == .video {
                Text(DurationLabel.string(seconds: seconds)).font(
                    .caption.monospacedDigit()
                ).padding(4)
            }
        }
        .frame(width: 100, height: 100).clipped()
        .task {
            guard let file = item.primary else { return }
            let request = ThumbnailRequest(
                size: PixelSize(width: 200, height: 200), mode: .fill,
                format: .jpeg)
            if let rendered = try? await AVFoundationThumbnailer()
                .thumbnail(
                    of: library.path(of: file), request)
            {
                image = UIImage(data: Data(rendered.data))
            }
        }
    }
}
// snippet.hide
#endif
