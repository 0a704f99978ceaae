import Dispatch

/// One protocol's requests, as the driver calls them: tus, S3 or a form. Each step is
/// a round trip or a few; the driver decides what follows. Steps keep what they learn
/// (the server's extensions, the parts the store holds) and put the server's id for
/// the upload in the record's `remote`.
protocol UploadSteps {
    /// Makes sure the upload exists on the server (creating it when the record has no
    /// `remote`: the first time, or after the server forgot it) and returns the bytes the
    /// server holds.
    mutating func sync(_ record: inout UploadRecord) async throws(UploadError) -> Int64
    /// Sends the next chunk or parts; returns the bytes the server holds after them.
    mutating func send(_ record: inout UploadRecord) async throws(UploadError) -> Int64
    /// Finishes the upload on the server, once it holds every byte.
    mutating func complete(_ record: inout UploadRecord) async throws(UploadError)
    /// The upload ends (done, failed or cancelled): nothing may go on sending for it.
    mutating func stop()
    /// The least gain a send must bring to count as progress (`UploadMachine.minimumGain`).
    var minimumGain: Int64 { get }
}

extension UploadSteps {
    /// S3 parts and forms are held whole or not at all: any gain is a whole part.
    var minimumGain: Int64 { 1 }

    /// Steps that send one request at a time have nothing left running when they end.
    mutating func stop() {}
}

/// Time, as the driver sees it: real, or a test's.
public protocol UploadClock: Sendable {
    /// Seconds since some fixed moment.
    var now: Double { get }
    /// Waits `seconds`, or less when the task is cancelled.
    func sleep(seconds: Double) async
}

/// The machine's own clock.
public struct SystemUploadClock: UploadClock {
    /// The clock of the machine the upload runs on.
    public init() {}

    public var now: Double {
        Double(DispatchTime.now().uptimeNanoseconds) / 1e9
    }

    public func sleep(seconds: Double) async {
        try? await Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1e9))
    }
}
