import Foundation
import PickupStore

/// One part of a multipart upload, as the store lists it.
public struct S3Part: Sendable, Hashable {
    /// The part's number, from 1.
    public var number: Int
    /// The part's ETag, as the store returned it.
    public var etag: String
    /// The part's size in bytes.
    public var size: Int64
}

/// The S3 multipart requests, signed with SigV4, path-style
/// (`endpoint/bucket/key`), so that any S3-compatible store answers.
struct S3Client: Sendable {
    let location: S3Location
    let authorization: S3Authorization
    let http: StepSender

    init(location: S3Location, authorization: S3Authorization, options: UploadOptions) {
        self.location = location
        self.authorization = authorization
        http = StepSender(transport: options.transport, stall: options.stallTimeout)
    }

    func create(type: String) async throws(UploadError) -> String {
        let body = try await send(
            "POST", query: [("uploads", "")], headers: ["Content-Type": type], what: "starting the upload")
        guard let id = XMLText.first("UploadId", in: body) else {
            throw UploadError(.server, "the store started an upload but gave no UploadId")
        }
        return id
    }

    /// Sends a part, streamed from the file; its SHA-256 is signed (`x-amz-content-sha256`),
    /// so the store checks it.
    func upload(
        part number: Int, of uploadID: String, source: SourceFile, offset: Int64, length: Int
    ) async throws(UploadError) -> String {
        let hasher = DigestHasher()
        try source.forEachBlock(at: offset, count: length) { hasher.update($0) }
        let (_, response) = try await exchange(
            "PUT", query: [("partNumber", String(number)), ("uploadId", uploadID)], headers: [:],
            body: .file(source, offset: offset, length: Int64(length)), payloadHash: hasher.finalizeHex(),
            what: "sending part \(number)")
        guard let etag = response.value("ETag") else {
            throw UploadError(.server, "the store took part \(number) but gave no ETag")
        }
        return etag
    }

    /// Sends the whole object in one PUT, streamed from the file; its SHA-256 is signed
    /// (`x-amz-content-sha256`), so the store checks it. Sent again whole when it fails.
    func put(source: SourceFile, type: String) async throws(UploadError) {
        let length = Int(source.size)
        let hasher = DigestHasher()
        try source.forEachBlock(at: 0, count: length) { hasher.update($0) }
        _ = try await exchange(
            "PUT", query: [], headers: ["Content-Type": type], body: .file(source, offset: 0, length: source.size),
            payloadHash: hasher.finalizeHex(), what: "sending the object")
    }

    /// Every part the store holds for the upload (ListParts, page by page).
    func parts(of uploadID: String) async throws(UploadError) -> [S3Part] {
        var parts: [S3Part] = []
        var marker = 0
        // Page by page until the store says the list is complete: a store may list fewer than
        // 1,000 parts a page, so no fixed number of pages covers the 10,000-part maximum. Each
        // page must move the marker on, so that a store that repeats itself cannot loop.
        for _ in 0..<10_000 {
            let body = try await send(
                "GET", query: [("uploadId", uploadID), ("part-number-marker", String(marker))], headers: [:],
                what: "listing the parts")
            for block in XMLText.blocks("Part", in: body) {
                guard let number = XMLText.first("PartNumber", in: block).flatMap({ Int($0) }),
                    let etag = XMLText.first("ETag", in: block),
                    let size = XMLText.first("Size", in: block).flatMap({ Int64($0) })
                else { continue }
                parts.append(S3Part(number: number, etag: etag, size: size))
            }
            guard XMLText.first("IsTruncated", in: body) == "true",
                let next = XMLText.first("NextPartNumberMarker", in: body).flatMap({ Int($0) }), next > marker
            else { break }
            marker = next
        }
        return parts
    }

    func complete(_ uploadID: String, parts: [S3Part]) async throws(UploadError) {
        var xml = "<CompleteMultipartUpload>"
        for part in parts.sorted(by: { $0.number < $1.number }) {
            xml += "<Part><PartNumber>\(part.number)</PartNumber><ETag>\(XMLText.escape(part.etag))</ETag></Part>"
        }
        xml += "</CompleteMultipartUpload>"
        let data = Data(xml.utf8)
        let hash = data.withUnsafeBytes { Digest.hex(Digest.sha256($0)) }
        let (body, _) = try await exchange(
            "POST", query: [("uploadId", uploadID)], headers: ["Content-Type": "application/xml"], body: .data(data),
            payloadHash: hash, what: "completing the upload")
        // S3 may answer 200 and still fail: the error is in the body; a 200 without the
        // result element (an empty body, a cut answer) is not a completed upload either.
        if XMLText.first("Code", in: body) != nil || !body.contains("<CompleteMultipartUploadResult") {
            let code = XMLText.s3ErrorCode(in: body) ?? "no CompleteMultipartUploadResult in the answer"
            switch code {
            case "NoSuchUpload": throw UploadError(.gone, "completing the upload failed: \(code)", status: 200)
            case "InternalError", "SlowDown", "ServiceUnavailable", "no CompleteMultipartUploadResult in the answer":
                // The store may finish it yet: retried, as S3's documentation asks.
                throw UploadError(.server, "completing the upload failed: \(code)", status: 500)
            default: throw UploadError(.server, "completing the upload failed: \(code)", status: 200)
            }
        }
    }

    /// The object's size at the store (HEAD), or nil when the store holds no such object.
    func objectSize() async throws(UploadError) -> Int64? {
        do {
            let (_, response) = try await exchange(
                "HEAD", query: [], headers: [:], body: .none, payloadHash: S3Client.emptyHash,
                what: "asking whether the object is there")
            return response.value("Content-Length").flatMap { Int64($0) }
        } catch  where error.status == 404 {
            return nil
        }
    }

    func abort(_ uploadID: String) async throws(UploadError) {
        _ = try await send("DELETE", query: [("uploadId", uploadID)], headers: [:], what: "aborting the upload")
    }

    /// The SHA-256 of an empty body, signed for requests that send none.
    static let emptyHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

    private func send(
        _ method: String, query: [(String, String)], headers: [String: String], what: String
    )
        async throws(UploadError) -> String
    {
        try await exchange(
            method, query: query, headers: headers, body: .none, payloadHash: S3Client.emptyHash, what: what
        ).0
    }

    private func exchange(
        _ method: String, query: [(String, String)], headers: [String: String], body: HTTPBody, payloadHash: String,
        what: String
    ) async throws(UploadError) -> (String, HTTPResponse) {
        var request: HTTPRequest
        switch authorization {
        case .credentials(let credentials):
            let path = "/" + SigV4.encode(location.bucket) + "/" + SigV4.encode(location.key, path: true)
            let queryText = query.map {
                $0.1.isEmpty ? SigV4.encode($0.0) : SigV4.encode($0.0) + "=" + SigV4.encode($0.1)
            }.joined(separator: "&")
            let base = location.endpoint.absoluteString.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
            guard let url = URL(string: base + path + (queryText.isEmpty ? "" : "?" + queryText)) else {
                throw UploadError(.badTarget, "cannot make a URL for \(location.bucket)/\(location.key)")
            }
            request = HTTPRequest(method, url, headers: headers.sorted { $0.key < $1.key }, body: body)
            SigV4.sign(&request, encodedPath: path, query: query, payloadHash: payloadHash, credentials: credentials)
        case .presigned(let signer):
            let url: URL
            do {
                url = try await signer.presignedURL(method: method, location: location, query: query)
            } catch {
                let reason = (error as? UploadError)?.message ?? redacted("\(error)")
                throw UploadError(.unauthorized, "\(what) failed: no presigned URL: \(reason)")
            }
            request = HTTPRequest(method, url, headers: headers.sorted { $0.key < $1.key }, body: body)
        }
        let response = try await http.send(request, what: what)
        let text = response.text
        guard (200..<300).contains(response.status) else {
            let code = XMLText.s3ErrorCode(in: text) ?? "error"
            let message = "\(what) failed: \(code)"
            switch (response.status, code) {
            case (404, "NoSuchUpload"): throw UploadError(.gone, message, status: 404)
            case (403, _), (401, _): throw UploadError(.unauthorized, message, status: response.status)
            case (400, "EntityTooLarge"): throw UploadError(.tooLarge, message, status: 400)
            default: throw UploadError(.server, message, status: response.status, retryAfter: response.retryAfter())
            }
        }
        return (text, response)
    }
}
