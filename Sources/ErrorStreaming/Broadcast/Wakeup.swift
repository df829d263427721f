/// Who to tell when a waiting listener has something to take: a suspended iterator (`for await`), or the callback
/// of a poller (``ErrorStream/EventPoller``, ``ErrorStream/ReportPoller``).
///
/// The state machines store one per waiting listener and hand it back from the event that ends the wait; the stream
/// calls ``resume()`` after releasing its lock (DESIGN rule 1), so a callback may take the stream's lock again.
enum Wakeup: Sendable {
    /// A suspended iterator, resumed exactly once.
    case continuation(UnsafeContinuation<Void, Never>)
    /// A poller's callback, called once per arming.
    case callback(@Sendable () -> Void)

    /// Resumes the iterator or calls the callback. Outside the stream's locks only.
    func resume() {
        switch self {
        case .continuation(let continuation): continuation.resume()
        case .callback(let callback): callback()
        }
    }
}
