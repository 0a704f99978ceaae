/// When to call the completion handler the system gives with a background session's events
/// (`application(_:handleEventsForBackgroundURLSession:completionHandler:)`): once the
/// session said every event was delivered (`urlSessionDidFinishEvents`) and every journal
/// write those events began has ended, so that a suspended app never loses an outcome.
///
/// Either may come first: the system launches the app and gives the handler before the
/// session exists, but when the session already exists (the app was only suspended) its
/// delegate gets the events "without any action by the application" (UIApplication.h:439),
/// and the end of events can come before the app delegate passes the handler on.
package struct BackgroundEventsGate<Handler>: Sendable where Handler: Sendable {
    private var handler: Handler?
    private var eventsDelivered = false
    private var writes = 0

    /// A gate with no handler and no events.
    package init() {}

    /// The system gave its handler: returns the handlers to call now: one still waiting from
    /// an earlier launch (the system gave a new one: the old must not be kept waiting for
    /// ever), and this one when the events it came for are already delivered and recorded.
    package mutating func handlerGiven(_ given: Handler) -> [Handler] {
        let stale = handler
        handler = given
        return (stale.map { [$0] } ?? []) + (release().map { [$0] } ?? [])
    }

    /// Journal writes begun by events and not yet ended.
    package var pendingWrites: Int { writes }

    /// A task's event began a journal write.
    package mutating func writeBegan() { writes += 1 }

    /// A journal write ended: returns the handler when it may be called now.
    package mutating func writeEnded() -> Handler? {
        writes = max(0, writes - 1)
        return release()
    }

    /// The session delivered every event (`urlSessionDidFinishEvents`): returns the handler
    /// when it may be called now.
    package mutating func eventsFinished() -> Handler? {
        eventsDelivered = true
        return release()
    }

    private mutating func release() -> Handler? {
        guard eventsDelivered, writes == 0, let ready = handler else { return nil }
        handler = nil
        eventsDelivered = false
        return ready
    }
}
