import Foundation
import PickupUpload

/// Where `pickup upload --to` sends files.
enum UploadTarget: Sendable, Equatable {
    case tus(URL)
    /// A bucket and key prefix; the store's endpoint comes from `--endpoint`.
    case s3(bucket: String, prefix: String)
    /// A web form that takes the file in a `multipart/form-data` POST.
    case form(URL)

    /// Whether the files go to an S3 bucket (keys are named by `--key`).
    var isS3: Bool { if case .s3 = self { true } else { false } }
    /// Whether the files go to a web form (`--field`, `--form-field`).
    var isForm: Bool { if case .form = self { true } else { false } }
    /// Whether the files go to a tus server (`--metadata`).
    var isTus: Bool { if case .tus = self { true } else { false } }

    /// Parses `tus+http://host/path`, `tus+https://...`, `s3://bucket/prefix` or
    /// `http(s)://host/path` (a form).
    /// Schemes in any case (`HTTP://`, `S3://`, `Tus+HTTPS://`: RFC 3986 says they are case-insensitive).
    init(parsing given: String) throws(UploadError) {
        let text = UploadTarget.lowercasingScheme(given)
        // `URL` takes any number for a port; refused here, before anything reaches the journal.
        if let url = URL(string: text.hasPrefix("tus+") ? String(text.dropFirst(4)) : text),
            let problem = url.portProblem
        {
            throw UploadError(.badTarget, problem)
        }
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
        throw UploadError(
            .badTarget,
            "'\(redacted(given))' is not an upload target: --to takes a tus endpoint (tus+http(s)://HOST/PATH), "
                + "an S3 bucket (s3://BUCKET/PREFIX) or a web form's URL (http(s)://HOST/PATH), with a host")
    }

    /// `text` with its scheme, the part before `://`, in lower case (as URLs compare it); the rest as it is.
    static func lowercasingScheme(_ text: String) -> String {
        guard let end = text.range(of: "://") else { return text }
        let scheme = text[..<end.lowerBound]
        guard !scheme.isEmpty, scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
        else { return text }
        return scheme.lowercased() + text[end.lowerBound...]
    }
}
