#if canImport(SwiftUI) && canImport(UIKit)
    import Pickup
    import SwiftUI
    import UIKit

    /// The square editor an avatar picked from the library goes through (the camera has its
    /// own): pinch to zoom, drag to move, the square kept inside the photo (`SquareCrop`).
    @available(iOS 17.0, macOS 14.0, *)
    struct AvatarCropView: View {
        let image: UIImage
        let onDone: @MainActor (UIImage?) -> Void
        @State private var crop: SquareCrop
        @State private var zoomAtStart: Double = 1
        @State private var dragged: CGSize = .zero

        init(image: UIImage, onDone: @escaping @MainActor (UIImage?) -> Void) {
            self.image = image
            self.onDone = onDone
            let size = PixelSize(
                width: Int(image.size.width * image.scale), height: Int(image.size.height * image.scale))
            _crop = State(initialValue: SquareCrop(image: size))
        }

        var body: some View {
            GeometryReader { geometry in
                let side = min(geometry.size.width, geometry.size.height) - 32
                VStack(spacing: 24) {
                    Spacer()
                    preview(side: side)
                        .frame(width: side, height: side)
                        .clipShape(Circle())
                        .overlay(Circle().stroke(Color.white, lineWidth: 2))
                        .gesture(gestures(side: side))
                        .accessibilityLabel(Text(Localized.string("Profile photo crop")))
                    HStack {
                        Button(Localized.string("Cancel")) { onDone(nil) }
                        Spacer()
                        Button(Localized.string("Choose")) { onDone(cropped()) }.bold()
                    }
                    .padding(.horizontal, 24)
                    Spacer()
                }
                .frame(maxWidth: .infinity)
            }
            .background(Color.black)
        }

        private func preview(side: CGFloat) -> some View {
            let rect = crop.rect
            let scale = side / CGFloat(max(1, rect.side))
            let pixelWidth = image.size.width * image.scale
            let pixelHeight = image.size.height * image.scale
            return Image(uiImage: image)
                .resizable()
                .frame(width: pixelWidth * scale, height: pixelHeight * scale)
                .offset(
                    x: (pixelWidth / 2 - CGFloat(rect.x) - CGFloat(rect.side) / 2) * scale,
                    y: (pixelHeight / 2 - CGFloat(rect.y) - CGFloat(rect.side) / 2) * scale)
        }

        private func gestures(side: CGFloat) -> some Gesture {
            let drag = DragGesture()
                .onChanged { value in
                    crop.drag(
                        dx: value.translation.width - dragged.width, dy: value.translation.height - dragged.height,
                        viewSide: side)
                    dragged = value.translation
                }
                .onEnded { _ in dragged = .zero }
            let pinch = MagnifyGesture()
                .onChanged { value in crop.zoom(to: zoomAtStart * value.magnification) }
                .onEnded { _ in zoomAtStart = crop.zoom }
            return drag.simultaneously(with: pinch)
        }

        /// The square, drawn upright at no more than 1024 pixels.
        private func cropped() -> UIImage {
            let rect = crop.rect
            let side = min(1024, rect.side)
            let format = UIGraphicsImageRendererFormat()
            format.scale = 1
            let renderer = UIGraphicsImageRenderer(size: CGSize(width: side, height: side), format: format)
            let scale = CGFloat(side) / CGFloat(rect.side)
            return renderer.image { _ in
                image.draw(
                    in: CGRect(
                        x: -CGFloat(rect.x) * scale, y: -CGFloat(rect.y) * scale,
                        width: image.size.width * image.scale * scale, height: image.size.height * image.scale * scale))
            }
        }
    }
#endif
