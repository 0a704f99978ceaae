import Foundation
import Pickup
import PickupStore

/// The form step: one `multipart/form-data` POST of the whole file, streamed from disk.
/// A failed try sends it again whole (the protocol has no way to go on); the server's
/// `Location`, if any, becomes the record's `remote`.
///
/// A form cannot be asked what it stored, so a try whose answer was lost is sent again. Every
/// try of an upload, in this process or a later one, is the same request: the same
/// `Idempotency-Key` (the upload's journal id, as the IETF draft
/// draft-ietf-httpapi-idempotency-key-header asks: a quoted string) and the same multipart
/// boundary, so the body is byte for byte the same. A server that honours the key answers a
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
        switch response.status {
        case 200..<300: break
        case 401, 403: throw UploadError(.unauthorized, "the server refused the upload", status: response.status)
        case 413: throw UploadError(.tooLarge, "the server refuses a file this large", status: 413)
        case _ where response.value("Tus-Resumable") != nil || response.value("Tus-Version") != nil:
            var wrong = UploadError(
                .badTarget, "\(place) is a tus server, not a web form: upload to it with tus",
                status: response.status)
            wrong.targetProblem = .tusServerGivenAsForm
            throw wrong
        case 404: throw UploadError(.badTarget, "the server has nothing at \(place) to post a form to", status: 404)
        default:
            throw UploadError(
                .server, "posting the form to \(place) failed", status: response.status,
                retryAfter: response.retryAfter())
        }
        record.remote = response.value("Location").flatMap { URL(string: $0, relativeTo: target.url) }?.absoluteString
        return record.size
    }

    func complete(_ record: inout UploadRecord) async throws(UploadError) {}

    /// The form's POST of `record`'s file: the options' headers and the form's own, and the
    /// multipart body (the file streamed from disk).
    static func request(
        _ target: FormTarget, source: SourceFile, record: UploadRecord, options: UploadOptions
    ) -> HTTPRequest {
        let (boundary, body) = formBody(
            target, source: source, name: SystemPath.readable((record.path as NSString).lastPathComponent),
            type: record.type, boundary: boundary(record.id))
        var request = HTTPRequest("POST", target.url, body: body)
        // Before the options' headers: a key the app or `-H` gives wins.
        request.set("Idempotency-Key", structuredString(record.id))
        let headers = options.headers.merging(target.headers) { $1 }
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { request.set(name, value) }
        request.set("Content-Type", "multipart/form-data; boundary=\(boundary)")
        return request
    }

    /// The multipart boundary of an upload's every try, so that a repeat is the same body: the
    /// journal id and 24 hex digits of a SHA-256 of it (as unlikely in a file as a random one).
    static func boundary(_ id: String) -> String {
        let hex = Digest.hex(Array(Digest.sha256(Array("pickup multipart boundary \(id)".utf8)).prefix(12)))
        let kept = String(
            id.unicodeScalars.filter { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) }
                .map(Character.init).prefix(16))
        return "pickup-\(kept)-\(hex)"
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
