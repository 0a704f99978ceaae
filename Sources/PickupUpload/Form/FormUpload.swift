import Foundation

/// A plain web form that takes a file: `multipart/form-data`, one request,
/// for backends with no resumable protocol. The body is streamed from the file.
public struct FormTarget: Sendable {
    public var url: URL
    /// The form field that carries the file.
    public var field: String
    /// Other fields sent before the file, in order.
    public var fields: [FormField]
    /// Extra request headers (an `Authorization`, say): sent, never stored or printed.
    public var headers: [String: String]

    public init(url: URL, field: String = "file", fields: [FormField] = [], headers: [String: String] = [:]) {
        self.url = url
        self.field = field
        self.fields = fields
        self.headers = headers
    }

    /// How the journal names form targets, apart from tus endpoints.
    var journalTarget: String { "form+" + url.absoluteString }

    init?(journalTarget: String) {
        guard journalTarget.hasPrefix("form+"), let url = URL(string: String(journalTarget.dropFirst(5))) else {
            return nil
        }
        self.init(url: url)
    }
}

public struct FormField: Sendable, Hashable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

extension Uploader {
    /// Uploads a file with a form POST; a failed try sends the whole file again
    /// (the protocol has no way to go on). Returns the final record; its `remote` is the
    /// `Location` the server answered with, if any.
    public func upload(
        path: String, toForm target: FormTarget, type: String = "application/octet-stream",
        events: AsyncStream<UploadEvent>.Continuation? = nil
    ) async -> UploadRecord {
        await start(path: path, target: target.journalTarget, type: type, events: events) { record, source in
            await self.runForm(record, target: target, source: source, events: events)
        }
    }

    func runForm(
        _ start: UploadRecord, target: FormTarget, source: SourceFile, events: AsyncStream<UploadEvent>.Continuation?
    ) async -> UploadRecord {
        var record = start
        let http = HTTPClient(transport: options.transport, stall: options.stallTimeout)
        let began = Date()
        events?.yield(.started(id: record.id, path: record.path, size: record.size))
        var attempts = 0
        while true {
            do {
                if Task.isCancelled { throw UploadError(.cancelled, "the upload was cancelled") }
                record.state = .uploading
                record.offset = 0
                try await journal.save(record)
                let (boundary, body) = Uploader.formBody(
                    target, source: source, name: (record.path as NSString).lastPathComponent, type: record.type)
                var request = HTTPRequest("POST", target.url, body: body)
                let headers = options.headers.merging(target.headers) { $1 }
                for (name, value) in headers.sorted(by: { $0.key < $1.key }) { request.set(name, value) }
                request.set("Content-Type", "multipart/form-data; boundary=\(boundary)")
                let response = try await http.send(request, what: "posting the form")
                switch response.status {
                case 200..<300: break
                case 401, 403:
                    throw UploadError(.unauthorized, "the server refused the upload", status: response.status)
                case 413: throw UploadError(.tooLarge, "the server refuses a file this large", status: 413)
                default:
                    throw UploadError(
                        .server, "posting the form to \(redacted(target.url.absoluteString)) failed",
                        status: response.status)
                }
                record.remote =
                    response.value("Location").flatMap { URL(string: $0, relativeTo: target.url) }?
                    .absoluteString
                break
            } catch {
                let failure = (error as? UploadError) ?? UploadError(.network, "\(error)")
                guard failure.isRetryable, attempts + 1 < options.maxAttempts else {
                    return await finish(record, failure, events)
                }
                attempts += 1
                let delay = options.delay(attempt: attempts)
                events?.yield(.retrying(id: record.id, error: failure, delay: delay))
                try? await Task.sleep(nanoseconds: UInt64(delay * 1_000_000_000))
            }
        }
        record.offset = record.size
        Uploader.reportProgress(record, since: began, from: 0, to: events)
        record.state = .done
        record.error = nil
        try? await journal.save(record)
        events?.yield(.finished(record))
        return record
    }

    /// The multipart body: the fields, then the file streamed from disk, then the end.
    static func formBody(
        _ target: FormTarget, source: SourceFile, name: String, type: String
    ) -> (boundary: String, body: HTTPBody) {
        let boundary = "pickup-" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
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

    /// A name inside a quoted header parameter, escaped as browsers do (HTML's form encoding).
    static func quoted(_ text: String) -> String {
        text.replacingOccurrences(of: "\"", with: "%22").replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }
}
