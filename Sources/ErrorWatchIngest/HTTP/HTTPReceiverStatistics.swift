/// What a receiver had to do to stay within its ``HTTPReceiverLimits``: shown in the receiver's row of the `Sources` pane.
public struct HTTPReceiverStatistics: Sendable, Hashable {
    /// Connections closed to admit a new one when every slot was taken: the one that had held an unfinished
    /// request the longest (else the longest idle).
    public var evictedConnections: UInt64 = 0
    /// New connections closed at once because every slot was busy decoding a request.
    public var refusedConnections: UInt64 = 0
    /// Connections closed because a request was not complete (or its answer not read) within
    /// ``HTTPReceiverLimits/requestTimeout`` of its first byte; over gRPC, also calls whose message did not arrive
    /// in time, streams whose answer was not read, and connections that sent no HTTP/2 preface.
    public var timedOutRequests: UInt64 = 0
    /// Requests refused because their body did not fit in ``HTTPReceiverLimits/bodyBudgetBytes`` (`503`, or `413` when the
    /// body alone is larger than the budget; over gRPC, calls or messages answered `RESOURCE_EXHAUSTED` for it).
    public var overBodyBudget: UInt64 = 0

    /// No budget met yet.
    public init() {}
}
