import Foundation

extension UploadRecord {
    /// Where the file is, or goes, on the server, without credentials or query: a tus upload's
    /// own URL (once the server made it), an S3 object's URL (`endpoint/bucket/key`, as the
    /// store is asked), a form's answer's `Location` or else the form's URL; nil for a tus upload
    /// the server has not made yet.
    public var url: String? {
        switch destination {
        case .tus: return remote.map(redacted)
        case .s3(let location), .s3Presigned(let location):
            let base = redacted(location.endpoint.absoluteString).trimmingCharacters(
                in: CharacterSet(charactersIn: "/"))
            return base + "/" + SigV4.encode(location.bucket) + "/" + SigV4.encode(location.key, path: true)
        case .form(let form): return redacted(remote ?? form.url.absoluteString)
        case nil: return remote.map(redacted)
        }
    }
}
