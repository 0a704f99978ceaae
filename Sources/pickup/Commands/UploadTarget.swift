import Foundation
import PickupUpload

/// Where `pickup upload --to` sends files.
enum UploadTarget: Sendable, Equatable {
    case tus(URL)
    /// A bucket and key prefix; the store's endpoint comes from `--endpoint`.
    case s3(bucket: String, prefix: String)
    /// A web form that takes the file in a `multipart/form-data` POST.
    case form(URL)

    /// Parses `tus+http://host/path`, `tus+https://...`, `s3://bucket/prefix` or
    /// `http(s)://host/path` (a form).
    init(parsing text: String) throws(UploadError) {
        if text.hasPrefix("tus+http://") || text.hasPrefix("tus+https://"),
            let url = URL(string: String(text.dropFirst(4))), url.host != nil
        {
            self = .tus(url)
            return
        }
        if text.hasPrefix("s3://") {
            let rest = text.dropFirst(5)
            let parts = rest.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard let bucket = parts.first, !bucket.isEmpty else {
                throw UploadError(.badTarget, "'\(text)' names no bucket; use s3://BUCKET/PREFIX")
            }
            self = .s3(bucket: bucket, prefix: parts.count > 1 ? parts[1] : "")
            return
        }
        if text.hasPrefix("http://") || text.hasPrefix("https://"), let url = URL(string: text), url.host != nil {
            self = .form(url)
            return
        }
        throw UploadError(.badTarget, "'\(redacted(text))' is not an upload target")
    }
}
