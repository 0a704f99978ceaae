import Foundation
import Pickup
import PickupStore

/// The form step: one `multipart/form-data` POST of the whole file, streamed from disk.
/// A failed try sends it again whole (the protocol has no way to go on); the server's
/// `Location`, if any, becomes the record's `remote`.
///
/// A form cannot be asked what it stored, so a try whose answer was lost is sent again. Every
/// try of an upload, in this process or a later one, is the same request: the same
/// `Idempotency-Key` (`idempotencyKey(_:)`, as a quoted string, as the IETF draft
/// draft-ietf-httpapi-idempotency-key-header asks) and the same multipart boundary, both made
/// from what the journal keeps of the upload, so the body is byte for byte the same. A server that honours the key answers a
/// repeat with its first answer and stores the file once; one that does not stores it again,
/// as any form's retry would.
struct FormSteps: UploadSteps {
    let target: FormTarget
    let source: SourceFile
    let options: UploadOptions
    private let http: StepSender

    init(target: FormTarget, source: SourceFile, options: UploadOptions) {
        self.target = target
        self.source = source
        self.options = options
        http = StepSender(transport: options.transport, stall: options.stallTimeout)
    }

    func sync(_ record: inout UploadRecord) async throws(UploadError) -> Int64 { 0 }

    func send(_ record: inout UploadRecord) async throws(UploadError) -> Int64 {
        let request = FormSteps.request(target, source: source, record: record, options: options)
        let response = try await http.send(request, what: "posting the form")
        let place = redacted(target.url.absoluteString)
        // The web app's answer, kept whether it took the file or not: a refusal's says why.
        record.reply = UploadRecord.reply(from: response.body)
        let said = FormSteps.said(record.reply)
        switch response.status {
        case 200..<300: break
        case 401, 403:
            throw UploadError(.unauthorized, "the server refused the upload" + said, status: response.status)
        case 413: throw UploadError(.tooLarge, "the server refuses a file this large" + said, status: 413)
        case 409:
            // The draft's answer while an earlier try with the same key is still being handled
            // (its answer lost on the way): asked again after a wait, as a 5xx is.
            throw UploadError(
                .server, "the server is still handling an earlier try of this upload", status: 409,
                retryAfter: response.retryAfter())
        case _ where response.value("Tus-Resumable") != nil || response.value("Tus-Version") != nil:
            var wrong = UploadError(
                .badTarget, "\(place) is a tus server, not a web form: upload to it with tus",
                status: response.status)
            wrong.targetProblem = .tusServerGivenAsForm
            throw wrong
        case 404: throw UploadError(.badTarget, "the server has nothing at \(place) to post a form to", status: 404)
        default:
            throw UploadError(
                .server, "posting the form to \(place) failed" + said, status: response.status,
                retryAfter: response.retryAfter())
        }
        record.remote = response.value("Location").flatMap { URL(string: $0, relativeTo: target.url) }?.absoluteString
        return record.size
    }

    func complete(_ record: inout UploadRecord) async throws(UploadError) {}

    /// A refusal's answer as the error says it: ` ("…")`, its first line, 160 characters at
    /// most; nothing when it had none. HTML pages are not quoted (their first line is markup).
    static func said(_ reply: String?) -> String {
        guard let reply, !reply.hasPrefix("<") else { return "" }
        let line = UploadRecord.firstLine(of: reply, limit: 160).line
        return line.isEmpty ? "" : " (\"" + line + "\")"
    }

    /// The form's POST of `record`'s file: the options' headers and the form's own, and the
    /// multipart body (the file streamed from disk).
    static func request(
        _ target: FormTarget, source: SourceFile, record: UploadRecord, options: UploadOptions
    ) -> HTTPRequest {
        let (boundary, body) = formBody(
            target, source: source, name: SystemPath.readable((record.path as NSString).lastPathComponent),
            type: record.type, boundary: "pickup-" + Digest.hex(Array(mark(record, "boundary").prefix(16))))
        var request = HTTPRequest("POST", target.url, body: body)
        let headers = options.headers.merging(target.headers) { $1 }
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { request.set(name, value) }
        // After the app's headers: one key in them would be every upload's, and a server that
        // honours it would answer each later upload with the first one's answer.
        if options.idempotencyKey { request.set("Idempotency-Key", structuredString(idempotencyKey(record))) }
        request.set("Content-Type", "multipart/form-data; boundary=\(boundary)")
        return request
    }

    /// The upload's `Idempotency-Key`: 128 bits in a UUID's form (version 4 and variant bits
    /// set), the same on every try and after a restart. The journal id alone is 52 bits; with
    /// the time the upload was made and its file it is as unlikely to be another's as a random UUID.
    static func idempotencyKey(_ record: UploadRecord) -> String {
        var bytes = Array(mark(record, "idempotency key").prefix(16))
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        let hex = Array(Digest.hex(bytes))
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(hex[$0]) }.joined(separator: "-")
    }

    /// A SHA-256 of what the journal keeps of the upload (its id, when it was made, its file)
    /// for `use`: the same on every try, in this process or a later one.
    static func mark(_ record: UploadRecord, _ use: String) -> [UInt8] {
        Digest.sha256(Array("pickup \(use) \(record.id) \(record.created.bitPattern) \(record.path)".utf8))
    }

    /// The multipart body: the fields, then the file streamed from disk, then the end.
    static func formBody(
        _ target: FormTarget, source: SourceFile, name: String, type: String, boundary: String
    ) -> (boundary: String, body: HTTPBody) {
        var head = ""
        for field in target.fields {
            head += "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(quoted(field.name))\"\r\n\r\n"
            head += field.value + "\r\n"
        }
        head += "--\(boundary)\r\n"
        head += "Content-Disposition: form-data; name=\"\(quoted(target.field))\"; filename=\"\(quoted(name))\"\r\n"
        head += "Content-Type: \(type)\r\n\r\n"
        let tail = "\r\n--\(boundary)--\r\n"
        return (
            boundary,
            .parts([.data(Data(head.utf8)), .file(source, offset: 0, length: source.size), .data(Data(tail.utf8))])
        )
    }

    /// `text` as a structured field's string (RFC 9651 §3.3.3): printable ASCII between quotes,
    /// a quote or backslash escaped with a backslash; anything else left out.
    static func structuredString(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars where (0x20...0x7E).contains(scalar.value) {
            if scalar == "\"" || scalar == "\\" { out += "\\" }
            out.unicodeScalars.append(scalar)
        }
        return out + "\""
    }

    /// A name inside a quoted header parameter, escaped as browsers do (HTML's form encoding).
    static func quoted(_ text: String) -> String {
        text.replacingOccurrences(of: "\"", with: "%22").replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }
}
