import Foundation
import Synchronization

/// What an ``OTLPReceiver`` knows about one sender: a resource (service and instance) once a request from it
/// decoded, or a client address for requests that never did.
public struct OTLPSourceStatus: Sendable, Hashable {
    /// `service.name/service.instance.id`, or `client HOST` for requests that did not decode.
    public var key: String
    /// `service.name`.
    public var serviceName: String?
    /// `service.instance.id`.
    public var instanceID: String?
    /// `host.name`.
    public var hostName: String?
    /// `process.pid`.
    public var pid: Int?
    /// The address of the last connection that sent for it.
    public var peer: String
    /// Export requests accepted (answered 200).
    public var requests: UInt64 = 0
    /// Log records and metric data points received in accepted requests.
    public var records: UInt64 = 0
    /// Events delivered to the dashboard.
    public var events: UInt64 = 0
    /// Records rejected in accepted requests (reported in `partial_success`).
    public var rejected: UInt64 = 0
    /// Requests refused with 503 because the dashboard was behind (the sender retries them).
    public var refused: UInt64 = 0
    /// Requests answered 400, 404, 405, 413 or 415.
    public var badRequests: UInt64 = 0
    /// The last problem met, if any.
    public var lastProblem: String?
    /// When the last accepted request arrived.
    public var lastEventAt: Date?

    /// A sender not heard from yet.
    public init(key: String, peer: String) {
        self.key = key
        self.peer = peer
    }

    /// The name to show: `service.name` (with the instance when there is one), else the key.
    public var displayName: String {
        guard let serviceName else { return key }
        return instanceID.map { "\(serviceName) (\($0))" } ?? serviceName
    }
}

/// The receiver's table of senders; callbacks run after unlocking. At most ``maximumSources`` are kept: the one
/// heard from least recently gives way.
final class OTLPSourceRegistry: Sendable {
    static let maximumSources = 1_024

    private let sources = Mutex<[String: OTLPSourceStatus]>([:])
    private let onStatus: @Sendable (OTLPSourceStatus) -> Void

    init(onStatus: @escaping @Sendable (OTLPSourceStatus) -> Void) { self.onStatus = onStatus }

    /// Every sender, by key.
    var snapshot: [OTLPSourceStatus] { sources.withLock { Array($0.values) }.sorted { $0.key < $1.key } }

    /// Counts what a request from `peer` (address and port; `host` alone) became; returns the rows of an accepted
    /// batch's groups, in order.
    @discardableResult
    func record(_ outcome: OTLPExchange.Outcome, peer: String, host: String, at date: Date) -> [OTLPSourceStatus] {
        var changed: [OTLPSourceStatus] = []
        sources.withLock { sources in
            func update(_ key: String, _ identity: OTLPResourceIdentity?, _ body: (inout OTLPSourceStatus) -> Void) {
                var status = sources[key] ?? OTLPSourceStatus(key: key, peer: peer)
                status.peer = peer
                if let identity {
                    status.serviceName = identity.serviceName ?? status.serviceName
                    status.instanceID = identity.instanceID ?? status.instanceID
                    status.hostName = identity.hostName ?? status.hostName
                    status.pid = identity.pid ?? status.pid
                }
                body(&status)
                if sources[key] == nil, sources.count >= Self.maximumSources,
                    let oldest = sources.values.min(by: {
                        ($0.lastEventAt ?? .distantPast) < ($1.lastEventAt ?? .distantPast)
                    })
                {
                    sources[oldest.key] = nil
                }
                sources[key] = status
                changed.append(status)
            }
            if let batch = outcome.batch {
                for group in batch.groups {
                    update(group.identity.key, group.identity) { status in
                        status.requests += 1
                        status.records += UInt64(group.records)
                        status.events += UInt64(group.events.count)
                        status.rejected += UInt64(group.rejected)
                        status.lastEventAt = date
                        if group.rejected > 0 { status.lastProblem = batch.rejectionMessage }
                    }
                }
            } else if !outcome.refused.isEmpty {
                for identity in outcome.refused {
                    update(identity.key, identity) { status in
                        status.refused += 1
                        status.lastProblem = outcome.problem
                    }
                }
            } else if outcome.response.status != .ok {
                update("client " + host, nil) { status in
                    status.badRequests += 1
                    status.lastProblem = "\(outcome.response.status.code): \(outcome.problem ?? "")"
                }
            }
        }
        for status in changed { onStatus(status) }
        return outcome.batch == nil ? [] : changed
    }
}
