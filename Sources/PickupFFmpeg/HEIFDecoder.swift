import CHeif
import Pickup

/// Decodes HEIC and AVIF stills with libheif: upright (libheif applies `irot`
/// and `imir`), the embedded thumbnail when it is big enough for the target.
/// One owner for each libheif object, released before returning.
enum HEIFDecoder {
    /// The primary picture, in RGB — or its embedded thumbnail, when that is at least as large
    /// as the picture would be scaled to for `target` (the box and how it is filled).
    static func decode(
        path: String, target: (size: PixelSize, mode: ContentMode)?, limits: RenderLimits
    ) throws(RenderError) -> RGBImage {
        guard let context = heif_context_alloc() else { throw RenderError(.unsupported, "libheif could not start") }
        defer { heif_context_free(context) }
        let read = SystemPath.withCString(path) { heif_context_read_from_file(context, $0, nil) }
        guard read.code == heif_error_Ok else {
            throw RenderError(
                read.code == heif_error_Input_does_not_exist ? .unreadable : .damaged,
                "libheif cannot read it: \(String(cString: read.message))", path: path)
        }
        var primary: OpaquePointer?
        guard heif_context_get_primary_image_handle(context, &primary).code == heif_error_Ok, let primary else {
            throw RenderError(.damaged, "the file has no primary picture", path: path)
        }
        defer { heif_image_handle_release(primary) }
        let width = Int(heif_image_handle_get_width(primary))
        let height = Int(heif_image_handle_get_height(primary))
        guard width > 0, height > 0 else { throw RenderError(.damaged, "the picture has no size", path: path) }
        guard width * height <= limits.maxPixels else {
            throw RenderError(
                .tooLarge, "the picture is \(width)x\(height), over the limit of \(limits.maxPixels) pixels", path: path
            )
        }
        var handle = primary
        var thumbnail: OpaquePointer?
        defer { if let thumbnail { heif_image_handle_release(thumbnail) } }
        if let target, heif_image_handle_get_number_of_thumbnails(primary) > 0 {
            let needed = ThumbnailGeometry(
                source: PixelSize(width: width, height: height), orientation: .upright, target: target.size,
                mode: target.mode
            ).scaled
            var id: heif_item_id = 0
            if heif_image_handle_get_list_of_thumbnail_IDs(primary, &id, 1) == 1,
                heif_image_handle_get_thumbnail(primary, id, &thumbnail).code == heif_error_Ok, let thumbnail
            {
                // Either way round: a thumbnail's sides may be stored before the rotation.
                let sides = [Int(heif_image_handle_get_width(thumbnail)), Int(heif_image_handle_get_height(thumbnail))]
                if sides.max() ?? 0 >= max(needed.width, needed.height) - 1,
                    sides.min() ?? 0 >= min(needed.width, needed.height) - 1
                {
                    handle = thumbnail
                }
            }
        }
        var image: OpaquePointer?
        let decoded = heif_decode_image(handle, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGB, nil)
        guard decoded.code == heif_error_Ok, let image else {
            throw RenderError(
                decoded.code == heif_error_Unsupported_feature || decoded.code == heif_error_Unsupported_filetype
                    ? .unsupported : .damaged,
                "libheif cannot decode it: \(String(cString: decoded.message))", path: path)
        }
        defer { heif_image_release(image) }
        let outWidth = Int(heif_image_get_width(image, heif_channel_interleaved))
        let outHeight = Int(heif_image_get_height(image, heif_channel_interleaved))
        var stride: Int32 = 0
        guard outWidth > 0, outHeight > 0,
            let plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride)
        else { throw RenderError(.damaged, "libheif gave no pixels", path: path) }
        var pixels = [UInt8](repeating: 0, count: outWidth * outHeight * 3)
        pixels.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            for row in 0..<outHeight {
                (base + row * outWidth * 3).update(from: plane + row * Int(stride), count: outWidth * 3)
            }
        }
        return RGBImage(width: outWidth, height: outHeight, pixels: pixels)
    }
}
