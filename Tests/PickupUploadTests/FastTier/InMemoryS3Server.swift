import Foundation
import PickupStore
import PickupUpload

/// An S3 store in memory, reached as an `HTTPTransport`: the fast tier beside the suites that
/// start a real store (S3UploadTests, SeaweedFS). It takes path-style requests
/// (`endpoint/bucket/key`, as `S3Client` sends them), checks each one's SigV4 signature against
/// `credentials` (InMemoryS3Server+Checks.swift) and answers as the Amazon S3 API Reference
/// (https://docs.aws.amazon.com/AmazonS3/latest/API/) says, operation by operation below.
/// Scripted faults, by request number (from 1): `cutting` fails as a dropped connection before
/// the store takes any byte; `losing` does what was asked, then drops the answer; `failing`
/// answers with an S3 error (503 SlowDown, 500 InternalError...) in place of the store's own.
actor InMemoryS3Server: InMemoryServer {
    /// A scripted error answer: its status and S3 error code.
    struct Failure: Sendable {
        var status: Int
        var code: String

        /// "SlowDown: Please reduce your request rate", 503 (ErrorResponses.html#ErrorCodeList).
        static let slowDown = Failure(status: 503, code: "SlowDown")
        /// "InternalError", 500: "If Amazon S3 returns an InternalError response, retry the
        /// request" (https://docs.aws.amazon.com/AmazonS3/latest/userguide/ErrorBestPractices.html).
        static let internalError = Failure(status: 500, code: "InternalError")
        /// "AccessDenied", 403 (ErrorResponses.html#ErrorCodeList).
        static let accessDenied = Failure(status: 403, code: "AccessDenied")
    }

    /// An object the store holds.
    struct Object: Sendable {
        var bytes: Data
        var etag: String
        var type: String?
    }

    private struct Part {
        var bytes: Data
        var etag: String
    }

    private struct Upload {
        var bucket: String
        var key: String
        var type: String?
        var parts: [Int: Part] = [:]
    }

    let endpoint: URL
    let credentials: S3Credentials
    /// The least size of every part but the last at completion: 5 MiB, as S3 ("Part size: 5 MiB
    /// to 5 GiB. There is no minimum size limit on the last part of your multipart upload",
    /// https://docs.aws.amazon.com/AmazonS3/latest/userguide/qfacts.html); a test may set another.
    let minimumPartSize: Int
    /// The most parts one ListParts page lists: 1,000, as S3 (qfacts.html, "Maximum number of
    /// parts returned for a list parts request"); a test may set fewer to make the client page.
    let listPage: Int
    private var objects: [String: Object] = [:]
    private var uploads: [String: Upload] = [:]
    private var started = 0
    private var count = 0
    private let cuts: Set<Int>
    private let losses: Set<Int>
    private let failures: [Int: Failure]
    /// Every request, in order: its method, path and query (`PUT /photos/a.bin?partNumber=2&uploadId=…`).
    private(set) var log: [String] = []

    init(
        endpoint: URL, credentials: S3Credentials, minimumPartSize: Int = 5 << 20, listPage: Int = 1_000,
        cutting cuts: Set<Int> = [], losing losses: Set<Int> = [], failing failures: [Int: Failure] = [:]
    ) {
        self.endpoint = endpoint
        self.credentials = credentials
        self.minimumPartSize = minimumPartSize
        self.listPage = max(1, listPage)
        self.cuts = cuts
        self.losses = losses
        self.failures = failures
    }

    /// The object at `key` in `bucket`, if the store holds it.
    func object(_ bucket: String, _ key: String) -> Object? { objects[bucket + "/" + key] }

    /// Forgets an object, as a lifecycle rule or another client's delete would.
    func remove(_ bucket: String, _ key: String) { objects[bucket + "/" + key] = nil }

    /// The multipart uploads begun and neither completed nor aborted.
    var openUploads: Int { uploads.count }

    /// The numbers of the parts an upload holds, in order.
    func parts(of uploadID: String) -> [Int] { uploads[uploadID].map { $0.parts.keys.sorted() } ?? [] }

    func answer(_ request: HTTPRequest, body: Data) throws(UploadError) -> HTTPResponse {
        count += 1
        let number = count
        let query = request.url.query.map { "?" + $0 } ?? ""
        log.append(request.method + " " + request.url.path + query)
        if cuts.contains(number) { throw UploadError(.network, "the connection was cut (scripted)") }
        if let failure = failures[number] { return error(failure.status, failure.code) }
        let response = handle(request, body: body)
        if losses.contains(number) {
            throw UploadError(.network, "the connection was cut before the answer (scripted)")
        }
        return response
    }

    private func handle(_ request: HTTPRequest, body: Data) -> HTTPResponse {
        guard let place = address(of: request.url) else { return error(400, "InvalidURI") }
        let (bucket, key) = (place.bucket, place.key)
        if let problem = S3Checks.authorizationProblem(request, credentials: credentials) {
            return error(problem.status, problem.code)
        }
        // "x-amz-content-sha256 ... provides a hash of the request payload": a hex SHA-256 that is
        // not the body's is refused, 400 XAmzContentSHA256Mismatch ("The provided
        // 'x-amz-content-sha256' header does not match what was computed", ErrorResponses.html);
        // UNSIGNED-PAYLOAD (presigned URLs) is not checked
        // (https://docs.aws.amazon.com/AmazonS3/latest/API/RESTCommonRequestHeaders.html).
        if let claimed = request.value("x-amz-content-sha256"), S3Checks.isHexDigest(claimed),
            claimed.lowercased() != S3Checks.sha256(body)
        {
            return error(400, "XAmzContentSHA256Mismatch")
        }
        let query = S3Checks.query(of: request.url)
        switch (request.method, query["uploadId"]) {
        case ("PUT", let id?):
            guard let number = query["partNumber"].flatMap({ Int($0) }) else { return error(400, "InvalidArgument") }
            return uploadPart(number, of: id, bucket: bucket, key: key, body: body)
        case ("PUT", nil):
            return putObject(bucket, key, body: body, type: request.value("Content-Type"))
        case ("POST", nil) where query["uploads"] != nil:
            return createMultipartUpload(bucket, key, type: request.value("Content-Type"))
        case ("POST", let id?):
            return completeMultipartUpload(id, bucket: bucket, key: key, body: body)
        case ("GET", let id?):
            return listParts(of: id, bucket: bucket, key: key, query: query)
        case ("DELETE", let id?):
            return abortMultipartUpload(id, bucket: bucket, key: key)
        case ("HEAD", nil):
            return headObject(bucket, key)
        default:
            return error(405, "MethodNotAllowed")
        }
    }

    // MARK: - The operations

    /// PutObject (API_PutObject.html): `PUT /bucket/key` stores the body whole, replacing any
    /// object there, and answers 200 with its `ETag` ("Entity tag for the uploaded object").
    private func putObject(_ bucket: String, _ key: String, body: Data, type: String?) -> HTTPResponse {
        let etag = S3Checks.etag(of: body)
        objects[bucket + "/" + key] = Object(bytes: body, etag: etag, type: type)
        return HTTPResponse(status: 200, headers: ["etag": etag], body: Data())
    }

    /// CreateMultipartUpload (API_CreateMultipartUpload.html): `POST /bucket/key?uploads` answers
    /// 200 with `<InitiateMultipartUploadResult>` naming `Bucket`, `Key` and the `UploadId` every
    /// later request of the upload carries.
    private func createMultipartUpload(_ bucket: String, _ key: String, type: String?) -> HTTPResponse {
        started += 1
        let id = "upload~\(started).\(UUID().uuidString)"
        uploads[id] = Upload(bucket: bucket, key: key, type: type)
        return xml(
            "<InitiateMultipartUploadResult xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"><Bucket>\(bucket)</Bucket>"
                + "<Key>\(S3Checks.escape(key))</Key><UploadId>\(id)</UploadId></InitiateMultipartUploadResult>")
    }

    /// UploadPart (API_UploadPart.html): `PUT ?partNumber=N&uploadId=…`, N "any number from 1
    /// to 10,000, inclusive"; "If you upload a new part using the same part number that was used
    /// with a previous part, the previously uploaded part is overwritten." Answers 200 with the
    /// part's `ETag`; an upload the store does not hold is 404 NoSuchUpload.
    private func uploadPart(_ number: Int, of id: String, bucket: String, key: String, body: Data) -> HTTPResponse {
        guard var upload = uploads[id], upload.bucket == bucket, upload.key == key else {
            return error(404, "NoSuchUpload")
        }
        guard (1...10_000).contains(number) else { return error(400, "InvalidArgument") }
        let etag = S3Checks.etag(of: body)
        upload.parts[number] = Part(bytes: body, etag: etag)
        uploads[id] = upload
        return HTTPResponse(status: 200, headers: ["etag": etag], body: Data())
    }

    /// ListParts (API_ListParts.html): `GET ?uploadId=…` answers `<ListPartsResult>` with a
    /// `<Part>` (`PartNumber`, `ETag`, `Size`) for each part above `part-number-marker`, at most
    /// `max-parts` (1,000 by default) of them; `IsTruncated` says whether more follow, from
    /// `NextPartNumberMarker`.
    private func listParts(of id: String, bucket: String, key: String, query: [String: String]) -> HTTPResponse {
        guard let upload = uploads[id], upload.bucket == bucket, upload.key == key else {
            return error(404, "NoSuchUpload")
        }
        let marker = query["part-number-marker"].flatMap { Int($0) } ?? 0
        let most = min(listPage, query["max-parts"].flatMap { Int($0) } ?? 1_000)
        let after = upload.parts.keys.sorted().filter { $0 > marker }
        let page = after.prefix(most)
        var text =
            "<ListPartsResult xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"><Bucket>\(bucket)</Bucket>"
            + "<Key>\(S3Checks.escape(key))</Key><UploadId>\(id)</UploadId>"
            + "<PartNumberMarker>\(marker)</PartNumberMarker>"
            + "<NextPartNumberMarker>\(page.last ?? marker)</NextPartNumberMarker><MaxParts>\(most)</MaxParts>"
            + "<IsTruncated>\(after.count > page.count)</IsTruncated>"
        for number in page {
            guard let part = upload.parts[number] else { continue }
            text +=
                "<Part><PartNumber>\(number)</PartNumber><LastModified>2026-12-01T00:00:00.000Z</LastModified>"
                + "<ETag>\(S3Checks.escape(part.etag))</ETag><Size>\(part.bytes.count)</Size></Part>"
        }
        return xml(text + "</ListPartsResult>")
    }

    /// CompleteMultipartUpload (API_CompleteMultipartUpload.html): `POST ?uploadId=…` with
    /// `<CompleteMultipartUpload>`, a `<Part>` (`PartNumber`, `ETag`) for each part, makes the
    /// object of the parts listed, in order. Its errors: MalformedXML (no parts listed),
    /// InvalidPartOrder ("The list of parts was not in ascending order"), InvalidPart ("One or
    /// more of the specified parts could not be found ... or the specified entity tag might not
    /// have matched the part's entity tag"), EntityTooSmall (a part but the last below the
    /// minimum), all 400; NoSuchUpload, 404. Answers 200 with `<CompleteMultipartUploadResult>`.
    private func completeMultipartUpload(_ id: String, bucket: String, key: String, body: Data) -> HTTPResponse {
        guard let upload = uploads[id], upload.bucket == bucket, upload.key == key else {
            return error(404, "NoSuchUpload")
        }
        let listed = S3Checks.elements("Part", in: String(decoding: body, as: UTF8.self)).map { block in
            (
                number: S3Checks.elements("PartNumber", in: block).first.flatMap { Int($0) },
                etag: S3Checks.elements("ETag", in: block).first.map(S3Checks.unescape)
            )
        }
        guard !listed.isEmpty, listed.allSatisfy({ $0.number != nil && $0.etag != nil }) else {
            return error(400, "MalformedXML")
        }
        let numbers = listed.compactMap(\.number)
        guard zip(numbers, numbers.dropFirst()).allSatisfy({ $0 < $1 }) else { return error(400, "InvalidPartOrder") }
        var bytes = Data()
        var etags = ""
        for (index, entry) in listed.enumerated() {
            guard let number = entry.number, let part = upload.parts[number],
                S3Checks.unquoted(part.etag) == entry.etag.map(S3Checks.unquoted)
            else { return error(400, "InvalidPart") }
            if index < listed.count - 1, part.bytes.count < minimumPartSize { return error(400, "EntityTooSmall") }
            bytes.append(part.bytes)
            etags += S3Checks.unquoted(part.etag)
        }
        // An object made of parts has an ETag that is no digest of its bytes, ending in
        // "-<number of parts>" (https://docs.aws.amazon.com/AmazonS3/latest/userguide/checking-object-integrity.html).
        let etag = "\"" + S3Checks.sha256(Data(etags.utf8)).prefix(32) + "-\(listed.count)\""
        objects[bucket + "/" + key] = Object(bytes: bytes, etag: etag, type: upload.type)
        uploads[id] = nil
        return xml(
            "<CompleteMultipartUploadResult xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">"
                + "<Location>\(endpoint.absoluteString)/\(bucket)/\(S3Checks.escape(key))</Location>"
                + "<Bucket>\(bucket)</Bucket><Key>\(S3Checks.escape(key))</Key>"
                + "<ETag>\(S3Checks.escape(etag))</ETag></CompleteMultipartUploadResult>")
    }

    /// AbortMultipartUpload (API_AbortMultipartUpload.html): `DELETE ?uploadId=…` frees the
    /// parts and answers 204 No Content; an upload the store does not hold is 404 NoSuchUpload.
    private func abortMultipartUpload(_ id: String, bucket: String, key: String) -> HTTPResponse {
        guard let upload = uploads[id], upload.bucket == bucket, upload.key == key else {
            return error(404, "NoSuchUpload")
        }
        uploads[id] = nil
        return HTTPResponse(status: 204, headers: [:], body: Data())
    }

    /// HeadObject (API_HeadObject.html): `HEAD /bucket/key` answers 200 with the object's
    /// `Content-Length`, `ETag` and `Content-Type` and no body; "If the object you request doesn't
    /// exist", 404 Not Found, also without a body ("A HEAD request has the same options as a GET
    /// operation on an object. The response is identical to the GET response except that there is
    /// no response body").
    private func headObject(_ bucket: String, _ key: String) -> HTTPResponse {
        guard let object = objects[bucket + "/" + key] else {
            return HTTPResponse(status: 404, headers: [:], body: Data())
        }
        var headers = ["content-length": String(object.bytes.count), "etag": object.etag]
        headers["content-type"] = object.type
        return HTTPResponse(status: 200, headers: headers, body: Data())
    }

    // MARK: - Answers

    /// The bucket and key of a path-style URL below `endpoint`, percent-decoded.
    private func address(of url: URL) -> (bucket: String, key: String)? {
        guard let path = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedPath else { return nil }
        let base = endpoint.path.hasSuffix("/") ? String(endpoint.path.dropLast()) : endpoint.path
        guard path.hasPrefix(base + "/") else { return nil }
        let rest = path.dropFirst(base.count + 1)
        guard let slash = rest.firstIndex(of: "/"), let bucket = rest[..<slash].removingPercentEncoding,
            let key = rest[rest.index(after: slash)...].removingPercentEncoding, !bucket.isEmpty, !key.isEmpty
        else { return nil }
        return (bucket: bucket, key: key)
    }

    private func xml(_ text: String) -> HTTPResponse {
        HTTPResponse(
            status: 200, headers: ["content-type": "application/xml"],
            body: Data(("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + text).utf8))
    }

    /// A REST error answer: "Content-Type: application/xml", the status, and an `<Error>` with
    /// its `Code` and `Message` (https://docs.aws.amazon.com/AmazonS3/latest/API/ErrorResponses.html).
    private func error(_ status: Int, _ code: String) -> HTTPResponse {
        HTTPResponse(
            status: status, headers: ["content-type": "application/xml"],
            body: Data(
                ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>\(code)</Code>"
                    + "<Message>in-memory store: \(code)</Message><RequestId>\(count)</RequestId></Error>").utf8))
    }
}
