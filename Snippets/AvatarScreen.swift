// A profile photo: one picture, cropped round, imported before it is shown.

// snippet.hide
#if canImport(SwiftUI) && canImport(UIKit) && canImport(PhotosUI)
// snippet.show
import PickupImport
import PickupUI
import SwiftUI
import UIKit

struct AvatarScreen: View {
    let library: ImportSession
    @State private var avatar: UIImage?

    var body: some View {
        AvatarPicker(image: avatar, size: 120) { item in
            if let file = item.primary {
                avatar = UIImage(contentsOfFile: library.path(of: file))
            }
        }
    }
}
// snippet.hide
#endif
