import Foundation

/// Hands Pickup a presigned URL for each S3 request, so that the app never
/// holds credentials: an app asks its backend, which signs with its own.
/// Pickup asks for: `POST ?uploads` (start), `PUT ?partNumber=N&uploadId=ID`
/// (a part), `GET ?uploadId=ID&part-number-marker=M` (list the parts),
/// `POST ?uploadId=ID` (complete) and `DELETE ?uploadId=ID` (abort).
public protocol S3URLSigner: Sendable {
    /// A URL that lets its holder make this one request (`method` on `location`, with `query`) for a while.
    func presignedURL(method: String, location: S3Location, query: [(String, String)]) async throws -> URL
}

/// How S3 requests are authorized: signed here with credentials (SigV4 headers,
/// each part's SHA-256 signed), or presigned by someone who holds them.
public enum S3Authorization: Sendable {
    /// Signed here, with these credentials.
    case credentials(S3Credentials)
    /// Signed elsewhere: each request's URL comes from this signer.
    case presigned(any S3URLSigner)
}

/// Presigns with credentials (SigV4 query-string authentication): what a backend
/// written in Swift runs to hand out URLs, and what the tests stand in for one with.
public struct S3Presigner: S3URLSigner {
    /// The credentials URLs are signed with.
    public let credentials: S3Credentials
    /// Seconds a URL stays valid.
    public let expires: Int

    /// A presigner whose URLs last `expires` seconds (1 second to 7 days).
    public init(credentials: S3Credentials, expires: Int = 900) {
        self.credentials = credentials
        self.expires = max(1, min(expires, 604_800))
    }

    /// A URL for one request, signed with the credentials, valid for `expires` seconds.
    public func presignedURL(method: String, location: S3Location, query: [(String, String)]) async throws -> URL {
        guard
            let url = SigV4.presign(
                method: method, location: location, query: query, credentials: credentials, expires: expires)
        else { throw UploadError(.badTarget, "cannot make a URL for \(location.bucket)/\(location.key)") }
        return url
    }
}
