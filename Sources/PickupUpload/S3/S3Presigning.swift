import Foundation

/// Hands Pickup a presigned URL for each S3 request, so that the app never
/// holds credentials: an app asks its backend, which signs with its own.
/// Pickup asks for: `POST ?uploads` (start), `PUT ?partNumber=N&uploadId=ID`
/// (a part), `GET ?uploadId=ID&part-number-marker=M` (list the parts),
/// `POST ?uploadId=ID` (complete) and `DELETE ?uploadId=ID` (abort).
public protocol S3URLSigner: Sendable {
    func presignedURL(method: String, location: S3Location, query: [(String, String)]) async throws -> URL
}

/// How S3 requests are authorized: signed here with credentials (SigV4 headers,
/// each part's SHA-256 signed), or presigned by someone who holds them.
public enum S3Authorization: Sendable {
    case credentials(S3Credentials)
    case presigned(any S3URLSigner)
}

/// Presigns with credentials (SigV4 query-string authentication): what a backend
/// written in Swift runs to hand out URLs, and what the tests stand in for one with.
public struct S3Presigner: S3URLSigner {
    public let credentials: S3Credentials
    /// Seconds a URL stays valid.
    public let expires: Int

    public init(credentials: S3Credentials, expires: Int = 900) {
        self.credentials = credentials
        self.expires = max(1, min(expires, 604_800))
    }

    public func presignedURL(method: String, location: S3Location, query: [(String, String)]) async throws -> URL {
        guard
            let url = SigV4.presign(
                method: method, location: location, query: query, credentials: credentials, expires: expires)
        else { throw UploadError(.badTarget, "cannot make a URL for \(location.bucket)/\(location.key)") }
        return url
    }
}
