import Foundation

/// Credentials for an S3-compatible store. Never printed: `description` hides them.
public struct S3Credentials: Sendable, CustomStringConvertible {
    /// The access key ID (`AWS_ACCESS_KEY_ID`).
    public var accessKey: String
    /// The secret access key (`AWS_SECRET_ACCESS_KEY`).
    public var secretKey: String
    /// The session token of temporary credentials (`AWS_SESSION_TOKEN`).
    public var sessionToken: String?
    /// The region requests are signed for, such as "us-east-1".
    public var region: String

    /// Credentials for `region`.
    public init(accessKey: String, secretKey: String, sessionToken: String? = nil, region: String = "us-east-1") {
        self.accessKey = accessKey
        self.secretKey = secretKey
        self.sessionToken = sessionToken
        self.region = region
    }

    /// From `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN` and
    /// `AWS_REGION` (or `AWS_DEFAULT_REGION`; us-east-1 when neither is set).
    public static func fromEnvironment(
        _ environment: [String: String] = ProcessInfo.processInfo.environment
    )
        -> S3Credentials?
    {
        guard let key = environment["AWS_ACCESS_KEY_ID"], !key.isEmpty,
            let secret = environment["AWS_SECRET_ACCESS_KEY"],
            !secret.isEmpty
        else { return nil }
        return S3Credentials(
            accessKey: key, secretKey: secret, sessionToken: environment["AWS_SESSION_TOKEN"],
            region: environment["AWS_REGION"] ?? environment["AWS_DEFAULT_REGION"] ?? "us-east-1")
    }

    public var description: String { "S3Credentials(region: \(region), access key: ****)" }
}

/// Where an object goes: the store's endpoint, a bucket and a key.
public struct S3Location: Sendable, Hashable, Codable {
    /// The store's address, such as `https://s3.us-east-1.amazonaws.com`.
    public var endpoint: URL
    /// The bucket.
    public var bucket: String
    /// The object's key in the bucket.
    public var key: String

    /// An object at `endpoint`, in `bucket`, under `key`.
    public init(endpoint: URL, bucket: String, key: String) {
        self.endpoint = endpoint
        self.bucket = bucket
        self.key = key
    }
}
