import Foundation
import PickupStore
import PickupTestSupport
import PickupUpload
import Testing

extension FastTier {
    /// Form uploads, in milliseconds: through an in-memory form server that parses the
    /// multipart/form-data body (FormUploadTests runs the same code against a real server).
    @Suite("form uploads through an in-memory form server: fields and file, retries, refusals")
    struct FormFastTests {
        /// A file of `bytes` bytes of a known pattern named `name` in a fresh temporary folder.
        func file(_ bytes: Int, named name: String = "clip.bin") throws -> String {
            let folder = Temporary.url("formfast")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let path = folder.appendingPathComponent(name).path
            try Data((0..<bytes).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 5) }).write(to: URL(fileURLWithPath: path))
            return path
        }

        func remove(_ path: String) {
            try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent)
        }

        func server(cutting: Set<Int> = [], failing: [Int: Int] = [:]) throws -> InMemoryFormServer {
            InMemoryFormServer(
                url: try #require(URL(string: "http://forms.test/upload")), cutting: cutting, failing: failing)
        }

        func uploader(_ server: InMemoryFormServer, headers: [String: String] = [:]) throws -> Uploader {
            Uploader(
                journal: try UploadJournal(
                    path: Temporary.path("formfast", suffix: ".sqlite")),
                options: UploadOptions(baseDelay: 0.01, maxDelay: 0.02, headers: headers, transport: server))
        }

        @Test(
            "the fields and the file arrive byte-equal, with the file's name and type; the Location becomes the remote")
        func fieldsAndFile() async throws {
            let path = try file(200_000, named: "clip \"1\"; final.mp4")
            defer { remove(path) }
            let server = try server()
            let fields = [
                FormField(name: "album", value: "trip \"2026\""),
                FormField(name: "note", value: "line one\r\nline two"),
                FormField(name: "empty", value: ""),
            ]
            let target = FormTarget(url: server.url, field: "media", fields: fields, headers: ["X-Form": "yes"])
            let record = try await uploader(server, headers: ["Authorization": "Bearer fast"]).upload(
                path: path, to: .form(target), type: "video/mp4")
            #expect(record.state == .done, "\(record.why)")
            #expect(record.remote == "http://forms.test/uploads/1")
            let submissions = await server.submissions
            #expect(submissions.count == 1)
            let submission = try #require(submissions.first)
            #expect(submission.fields == fields)
            #expect(
                submission.files == [
                    InMemoryFormServer.FilePart(
                        field: "media", filename: "clip \"1\"; final.mp4", type: "video/mp4",
                        bytes: try Data(contentsOf: URL(fileURLWithPath: path)))
                ])
            #expect(submission.headers["authorization"] == "Bearer fast")
            #expect(submission.headers["x-form"] == "yes")
        }

        @Test("a connection cut is retried from the start: the whole body is posted again and arrives once")
        func cutRetried() async throws {
            let path = try file(150_000)
            defer { remove(path) }
            let server = try server(cutting: [1])
            let record = try await uploader(server).upload(path: path, to: .form(FormTarget(url: server.url)))
            #expect(record.state == .done, "\(record.why)")
            #expect(await server.log == ["POST /upload", "POST /upload"])
            let files = await server.submissions.flatMap(\.files)
            #expect(files.map(\.bytes) == [try Data(contentsOf: URL(fileURLWithPath: path))])
            #expect(files.map(\.field) == ["file"])
        }

        @Test("a 503 is retried; the file arrives once")
        func unavailableRetried() async throws {
            let path = try file(10_000)
            defer { remove(path) }
            let server = try server(failing: [1: 503])
            let task = try uploader(server).start(path: path, to: .form(FormTarget(url: server.url)))
            let record = await task.result()
            var statuses: [Int?] = []
            for await event in task.events {
                if case .retrying(_, let error, _) = event { statuses.append(error.status) }
            }
            #expect(record.state == .done, "\(record.why)")
            #expect(statuses == [503])
            #expect(await server.submissions.count == 1)
        }

        @Test(
            "a 4xx is refused at once with what it means, never retried",
            arguments: zip(
                [400, 401, 403, 404, 413],
                [UploadError.Code.server, .unauthorized, .unauthorized, .badTarget, .tooLarge]))
        func refused(status: Int, code: UploadError.Code) async throws {
            let path = try file(10_000)
            defer { remove(path) }
            let server = try server(failing: [1: status])
            let record = try await uploader(server).upload(path: path, to: .form(FormTarget(url: server.url)))
            #expect(record.state == .failed)
            #expect(record.error?.code == code)
            #expect(record.error?.status == status)
            #expect(await server.log.count == 1)
            #expect(await server.submissions.isEmpty)
        }
    }
}
