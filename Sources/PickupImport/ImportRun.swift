import Foundation
import Pickup
import PickupStore

/// A running import: its events, its results, and a way to stop it.
public final class ImportRun: Sendable {
    /// Progress and per-item results, ending with `.completed`. Each access gives a stream of
    /// its own: the first also gets what happened before it was asked for, later ones what
    /// happens from then on (one asked for after the run ended gives `.completed`).
    public var events: AsyncStream<ImportEvent> { feed.stream() }
    private let feed: EventFeed<ImportEvent>
    private let task: Task<[ImportResult], Never>
    private let flag: CancellationFlag

    /// What every item of a run shares: where its events go, the cancel flag, the commit
    /// order, and (where flushes are shared) the rounds its small items are named in.
    struct Context: Sendable {
        let events: EventFeed<ImportEvent>
        let flag: CancellationFlag
        let order: CommitOrder
        let commits: ImportSession.CommitRounds?
        /// Whether the catalog was asked, as the run began, which sources it already holds (or
        /// said it holds no item at all): an item then is not asked about again before it is
        /// copied (what another process records meanwhile is found by content after the copy).
        let sourcesLookedUp: Bool
        /// Each request's files with their links resolved and their status, as the run found
        /// them when it began (nil where it could not): the copy does not look them up again.
        let found: [[(path: String, status: FileStatus)?]]
        /// Where the run resolves a source again (a second try, after it changed).
        let sourcePaths: SourcePaths
        /// The library folder's names as the run first saw them (`adopt`).
        let folderNames: FolderNames
    }

    init(feed: EventFeed<ImportEvent>, task: Task<[ImportResult], Never>, flag: CancellationFlag) {
        self.feed = feed
        self.task = task
        self.flag = flag
    }

    /// One result per request, in the order requested.
    public func results() async -> [ImportResult] { await task.value }

    /// Stops: copies in flight are undone, items not started fail as cancelled.
    /// Items already finished stay imported.
    public func cancel() {
        flag.set()
        task.cancel()
    }
}
