/// What an upload reports as it goes.
public enum UploadEvent: Sendable {
    /// The upload began: its id in the journal, its file and its size.
    case started(id: String, path: String, size: Int64)
    /// Bytes the server has confirmed, and the pace in bytes a second (of the bytes sent over the
    /// last few seconds where the transport tells them, else of these since the run began): what
    /// the journal keeps and a resume goes on from. It comes once a chunk, a part or a whole
    /// form has landed, which can be seconds apart: a progress bar follows `sending`.
    case progress(id: String, confirmed: Int64, size: Int64, bytesPerSecond: Double)
    /// Bytes of the file handed to the network so far, the confirmed ones included, and their pace
    /// over the last few seconds (0 until a second of counts): what a progress bar shows between
    /// two `progress` events, which on a slow link can be seconds apart (a tus chunk, S3 parts, a
    /// whole form). Told four times a second at most while requests are in flight, by transports
    /// that can tell (`AsyncHTTPTransport`, `URLSessionTransport`), and once after a resumed
    /// upload learns what the server holds. A failed request takes its bytes back: the next
    /// `sending` is lower.
    case sending(id: String, sent: Int64, size: Int64, bytesPerSecond: Double)
    /// An upload the server already holds part of (tus, S3 in parts), begun in an earlier run
    /// (paused, failed, or cut off by a killed process), was taken up again: the bytes the server
    /// holds, which this run goes on from, told once a run, as soon as the server has said. They
    /// can be more than the journal kept (the last request of that run landed after it was
    /// stopped), fewer (then `rewound` comes first), or 0 when the server no longer knows the
    /// upload and it starts over; bytes sent by this run are those beyond them. A form, or an S3
    /// object sent in one PUT, starts over and tells none.
    case resumed(id: String, confirmed: Int64, size: Int64)
    /// The server holds fewer bytes than it had confirmed (it lost some, or restarted without
    /// them): the upload goes on from `to`, never silently.
    case rewound(id: String, from: Int64, to: Int64)
    /// A failure that will be retried after `delay` seconds.
    case retrying(id: String, error: UploadError, delay: Double)
    /// The upload ended (done, failed or cancelled): its final record.
    case finished(UploadRecord)
}
