import AsyncHTTPClient
import NIOCore
import NIOPosix
import PickupUpload

/// A request body written to the connection piece by piece: data as it is, a file
/// `pieceSize` bytes at a time, read on NIO's thread pool (never on the event loop).
///
/// One piece is read ahead while the connection writes the last, so the socket never waits
/// for the disk; the one after is read only once the connection has taken the last — when
/// its write future says so, which it does only while the socket keeps up. However large
/// the file, a few pieces are in memory at a time.
///
/// The writing stops when `stop` completes (the request ended: answered early, stalled,
/// cancelled). AsyncHTTPClient drops a paused write's future without completing it when the
/// request fails (`RequestBag.StateMachine.fail`), and a writer waiting on it alone would hold
/// its pieces and the file's descriptor for as long as that future lives.
enum BodyWriter {
    /// A piece of a body: bytes at hand, or a range of a file still to read.
    private enum Piece {
        case bytes(ByteBuffer)
        case file(SourceFile, offset: Int64, count: Int)
    }

    /// The request ended before its body was written.
    struct Stopped: Error {}

    static func write(
        _ body: HTTPBody, to writer: HTTPClient.Body.StreamWriter, on eventLoop: any EventLoop, pieceSize: Int,
        until stop: EventLoopFuture<Void>
    ) -> EventLoopFuture<Void> {
        var pieces: [Piece] = []
        plan(body, pieceSize: pieceSize, into: &pieces)
        guard let first = pieces.first else { return eventLoop.makeSucceededVoidFuture() }
        return pump(pieces, from: 0, ready: load(first, on: eventLoop), to: writer, on: eventLoop, until: stop)
    }

    /// The body's pieces, in order: empty parts left out, files cut into `pieceSize` ranges.
    private static func plan(_ body: HTTPBody, pieceSize: Int, into pieces: inout [Piece]) {
        switch body {
        case .none: return
        case .data(let data):
            if !data.isEmpty { pieces.append(.bytes(ByteBuffer(bytes: data))) }
        case .parts(let parts):
            for part in parts { plan(part, pieceSize: pieceSize, into: &pieces) }
        case .file(let source, let offset, let length):
            var done: Int64 = 0
            while done < length {
                let count = Int(min(length - done, Int64(pieceSize)))
                pieces.append(.file(source, offset: offset + done, count: count))
                done += Int64(count)
            }
        }
    }

    /// Writes piece `index` once it is `ready`, reading the next one meanwhile.
    private static func pump(
        _ pieces: [Piece], from index: Int, ready: EventLoopFuture<ByteBuffer>,
        to writer: HTTPClient.Body.StreamWriter, on eventLoop: any EventLoop, until stop: EventLoopFuture<Void>
    ) -> EventLoopFuture<Void> {
        ready.flatMap { buffer in
            let following = index + 1 < pieces.count ? load(pieces[index + 1], on: eventLoop) : nil
            return first(of: writer.write(.byteBuffer(buffer)), orStop: stop, on: eventLoop).flatMap {
                guard let following else { return eventLoop.makeSucceededVoidFuture() }
                return pump(pieces, from: index + 1, ready: following, to: writer, on: eventLoop, until: stop)
            }
        }
    }

    /// `write`'s outcome, or `Stopped` once `stop` completes, whichever comes first (a promise
    /// keeps its first completion and ignores a later one).
    private static func first(
        of write: EventLoopFuture<Void>, orStop stop: EventLoopFuture<Void>, on eventLoop: any EventLoop
    ) -> EventLoopFuture<Void> {
        let next = eventLoop.makePromise(of: Void.self)
        write.whenComplete { next.completeWith($0) }
        stop.whenComplete { _ in next.fail(Stopped()) }
        return next.futureResult
    }

    private static func load(_ piece: Piece, on eventLoop: any EventLoop) -> EventLoopFuture<ByteBuffer> {
        switch piece {
        case .bytes(let buffer): return eventLoop.makeSucceededFuture(buffer)
        case .file(let source, let offset, let count):
            return NIOThreadPool.singleton.runIfActive(eventLoop: eventLoop) {
                try read(source, at: offset, count: count)
            }
        }
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
