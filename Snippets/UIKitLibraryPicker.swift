// The library picker as PHPickerViewController (for a UIKit flow or a sheet): the
// same filter, limit and order as LibraryPicker, each item loaded into the app's
// library while Photos' temporary copy exists, results in the person's order.

// snippet.hide
#if canImport(SwiftUI) && canImport(UIKit) && canImport(PhotosUI)
// snippet.show
import Pickup
import PickupImport
import PickupUI
import SwiftUI

@MainActor
struct PhotoSheetScreen: View {
    @State private var showing = false
    @State private var items: [PickedItem] = []
    @State private var failures: [String] = []

    var body: some View {
        Button("Choose Photos") { showing = true }
            .sheet(isPresented: $showing) {
                PhotoPickerController(
                    options: .init(filter: .images, limit: 10)
                ) { results in
                    showing = false
                    for result in results {
                        switch result {
                        case .success(let item): items.append(item)
                        case .failure(let failure):
                            failures.append("\(failure)")
                        }
                    }
                }
            }
        Text("\(items.count) photos, \(failures.count) failed")
    }
}
// snippet.hide
#endif
