import Foundation
import PickupTestSupport
import PickupUpload
import Testing

/// Pickup's HTTP client against servers that answer badly: every case ends
/// in a clear error, quickly, with bounded memory — never a crash or a hang.
///
/// The cases that name what went wrong in the answer's bytes (not HTTP, 80 KB of headers, a
/// bad length or chunk size) read AsyncHTTPTransport's own words and run through it alone:
/// URLSession parses the answer itself and says only that it was bad. The others run through
/// every `Transport`.
@Suite("misbehaving servers", .serialized)
struct MisbehavingServerTests {
    func failure(
        _ answer: String, hold: Bool = false, timeout: Double = 1, through transport: Transport = .asyncHTTP
    ) async throws -> UploadError {
        let server = try CannedHTTPServer(answer, hold: hold)
        let client = TusClient(endpoint: try #require(server.url), timeout: timeout, transport: transport.make())
        let started = Date()
        do {
            _ = try await client.create(length: 10, metadata: ["filename": "a"])
            Issue.record("expected an error for \(answer.prefix(40).debugDescription)")
            return UploadError(.server, "no error")
        } catch {
            // A hang would never end; the bound is loose because the tests share two cores (103 s
            // was seen with every suite running, the URLSession ones beside them).
            #expect(Date().timeIntervalSince(started) < timeout + 240, "no hang")
            return error
        }
    }

    @Test("not HTTP, a header line past 80 KB, headers past 80 KB: clear server errors")
    func garbage() async throws {
        let notHTTP = try await failure("HELLO THERE\r\n\r\n")
        #expect(notHTTP.code == .badAnswer && notHTTP.message.contains("not valid HTTP"), "\(notHTTP)")
        let longLine = try await failure(
            "HTTP/1.1 201 Created\r\nX-Long: " + String(repeating: "a", count: 100_000) + "\r\n\r\n")
        #expect(longLine.message.contains("80 KB"), "\(longLine)")
        let manyHeaders = try await failure(
            "HTTP/1.1 201 Created\r\n"
                + String(repeating: "X-Pad: " + String(repeating: "b", count: 1_000) + "\r\n", count: 300)
                + "\r\n")
        #expect(manyHeaders.message.contains("80 KB"), "\(manyHeaders)")
    }

    @Test("a huge or bad Content-Length, a bad or overflowing chunk size, an endless body: refused, not read")
    func bodies() async throws {
        let huge = try await failure("HTTP/1.1 201 Created\r\nContent-Length: 1000000000000\r\n\r\n")
        #expect(huge.message.contains("Content-Length"), "\(huge)")
        let negative = try await failure("HTTP/1.1 201 Created\r\nContent-Length: -5\r\n\r\n")
        #expect(negative.message.contains("Content-Length"), "\(negative)")
        let chunk = try await failure("HTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n")
        #expect(chunk.message.contains("chunk size"), "\(chunk)")
        // A first chunk, then a size that overflows 64 bits if added to it (crashed the old client).
        let overflow = try await failure(
            "HTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nabcd\r\n7fffffffffffffff\r\n")
        #expect(overflow.code == .badAnswer || overflow.code == .network, "\(overflow)")
        let bigChunk = try await failure("HTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\n\r\n7fffffff\r\n")
        #expect(bigChunk.code == .badAnswer || bigChunk.code == .network, "\(bigChunk)")
    }

    @Test(
        "a connection closed mid-answer, and a server that never answers: network errors, no hang",
        arguments: Transport.allCases)
    func silence(transport: Transport) async throws {
        let cut = try await failure(
            "HTTP/1.1 201 Created\r\nContent-Length: 100\r\n\r\nonly a few", through: transport)
        #expect(cut.code == .network && cut.message.contains("closed"), "\(cut)")
        let mute = try await failure("", hold: true, timeout: 1, through: transport)
        #expect(mute.code == .network && mute.message.contains("stalled"), "\(mute)")
        let headersOnly = try await failure("HTTP/1.1 201 Cre", hold: true, timeout: 1, through: transport)
        #expect(headersOnly.code == .network)
    }

    @Test("a 201 without Location and a 500: what happened, with the status", arguments: Transport.allCases)
    func statuses(transport: Transport) async throws {
        let noLocation = try await failure("HTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n", through: transport)
        #expect(noLocation.message.contains("no Location") && noLocation.status == 201)
        let broken = try await failure(
            "HTTP/1.1 500 Internal Server Error\r\nContent-Length: 0\r\n\r\n", through: transport)
        #expect(broken.code == .server && broken.status == 500 && broken.isRetryable)
    }
}
