import Testing

/// The fast tier: the upload steps (tus, S3, forms) driven through the public API against
/// servers in memory that implement `HTTPTransport` (InMemoryTusServer, InMemoryS3Server,
/// InMemoryFormServer), in milliseconds, beside the suites that start real servers. Every suite
/// of this folder is nested here, so that `swift test --filter FastTier` runs them all.
@Suite("fast tier: upload steps through in-memory servers")
enum FastTier {}
