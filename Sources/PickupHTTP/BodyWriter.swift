import AsyncHTTPClient
import NIOCore
import NIOPosix
import PickupUpload

/// A request body written to the connection piece by piece: data as it is, a file
/// `pieceSize` bytes at a time, read on NIO's thread pool (never on the event loop). The
/// next piece is read only once the connection has taken the last one — when its write
/// future says so, which it does only while the socket keeps up — so however large the file,
/// a few pieces are in memory at a time.
enum BodyWriter {
    static func write(
        _ body: HTTPBody, to writer: HTTPClient.Body.StreamWriter, on eventLoop: any EventLoop, pieceSize: Int
    ) -> EventLoopFuture<Void> {
        writeRest([body], to: writer, on: eventLoop, pieceSize: pieceSize)
    }

    private static func writeRest(
        _ pending: [HTTPBody], to writer: HTTPClient.Body.StreamWriter, on eventLoop: any EventLoop, pieceSize: Int
    ) -> EventLoopFuture<Void> {
        var rest = pending
        while let first = rest.first {
            rest.removeFirst()
            switch first {
            case .none: continue
            case .data(let data):
                if data.isEmpty { continue }
                return writer.write(.byteBuffer(ByteBuffer(bytes: data))).flatMap { [rest] in
                    writeRest(rest, to: writer, on: eventLoop, pieceSize: pieceSize)
                }
            case .parts(let parts): rest.insert(contentsOf: parts, at: 0)
            case .file(let source, let offset, let length):
                if length <= 0 { continue }
                let count = Int(min(length, Int64(pieceSize)))
                if length > Int64(count) {
                    rest.insert(.file(source, offset: offset + Int64(count), length: length - Int64(count)), at: 0)
                }
                return NIOThreadPool.singleton.runIfActive(eventLoop: eventLoop) {
                    try read(source, at: offset, count: count)
                }.flatMap { piece in
                    writer.write(.byteBuffer(piece))
                }.flatMap { [rest] in
                    writeRest(rest, to: writer, on: eventLoop, pieceSize: pieceSize)
                }
            }
        }
        return eventLoop.makeSucceededVoidFuture()
    }

    /// `count` bytes of the file from `offset`, or an error that says the file changed.
    private static func read(_ source: SourceFile, at offset: Int64, count: Int) throws -> ByteBuffer {
        var buffer = ByteBufferAllocator().buffer(capacity: count)
        var failure: UploadError?
        let read = buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: count) { raw in
            do throws(UploadError) {
                return try source.read(at: offset, into: UnsafeMutableRawBufferPointer(rebasing: raw[0..<count]))
            } catch {
                failure = error
                return 0
            }
        }
        if let failure { throw failure }
        guard read == count else {
            throw UploadError(.sourceUnreadable, "\(source.path) ended early: it changed during the upload")
        }
        return buffer
    }
}
