// libFuzzer entry point for what hostile servers say, compiled by scripts/fuzz.sh --target answers
// with the S3 XML reader (XMLText) and UploadError (swiftc -sanitize=fuzzer,address). Not part of
// the package. The HTTP framing itself is swift-nio's parser (fuzzed upstream); this covers
// Pickup's own reading of the bodies: S3 pages and errors, and every string that a server's
// answer can put into an error, which must come out redacted and bounded.

@_cdecl("LLVMFuzzerTestOneInput")
public func pickupFuzzAnswer(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    for block in XMLText.blocks("Part", in: text) {
        _ = XMLText.first("PartNumber", in: block).flatMap { Int($0) }
        _ = XMLText.first("ETag", in: block)
        _ = XMLText.first("Size", in: block).flatMap { Int64($0) }
    }
    _ = XMLText.first("UploadId", in: text)
    _ = XMLText.first("IsTruncated", in: text)
    if let code = XMLText.s3ErrorCode(in: text) {
        // A code shown to a person is a plain name, or the fixed sentence: never the server's text.
        precondition(code.count <= 64 || code == "an error whose code is not a plain name")
    }
    _ = XMLText.escape(text)
    let shown = redacted(text)
    precondition(!shown.contains("?") || !text.hasPrefix("http"), "a query survived redaction")
    return 0
}
