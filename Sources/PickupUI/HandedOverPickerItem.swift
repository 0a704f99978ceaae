#if canImport(PhotosUI) && canImport(SwiftUI)
    import PhotosUI
    import SwiftUI

    /// A `PhotosPickerItem` handed from the main actor to the one task that loads it.
    ///
    /// `@unchecked Sendable`, and why that is safe: the iOS 16 and 17 SDKs do not mark
    /// `PhotosPickerItem` `Sendable` (a struct of an identifier, content types and the
    /// picker's handle to load from), though loading it is an `async` API meant to run off
    /// the main actor. Each box is made from the picker's selection, moved into exactly one
    /// loading task, and never read by the main actor again: no two threads ever touch the
    /// same copy at once, which is all `Sendable` promises.
    @available(iOS 16.0, macOS 13.0, *)
    struct HandedOverPickerItem: @unchecked Sendable {
        let item: PhotosPickerItem
        let key: String
    }
#endif
