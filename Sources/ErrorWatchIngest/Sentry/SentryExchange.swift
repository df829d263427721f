import ErrorStreaming
import ErrorWatchWire
import Foundation
import NIOHTTP1

/// One Sentry request's handling without the socket: route and key, encoding, body limit, the envelope read, items
/// mapped, admission, and the answer the SDK expects. ``SentryRequestWork`` runs it for ``IngestHTTPHandler``;
/// tests drive it directly too.
struct SentryExchange: Sendable {
    /// Which endpoint a path names.
    enum Route: Sendable, Equatable {
        /// `POST /api/<project>/envelope/`.
        case envelope
        /// `POST /api/<project>/store/`: one event as JSON, the older protocol.
        case store
        /// `POST /stream`: Spotlight's sidecar endpoint, envelopes without a key.
        case stream
    }

    /// The head of a request, checked before its body arrives.
    struct Accepted: Sendable {
        var route: Route
        /// `gzip` or `deflate` (both inflated by zlib, which tells them apart), or `nil` for none.
        var encoding: String?
        /// The SDK, from `X-Sentry-Auth`'s `sentry_client`, else the query's.
        var client: String?
        /// `User-Agent`: the client's name when neither the auth nor the envelope header names the SDK.
        var userAgent: String?
        /// Whether the key is still to be checked against the envelope header's `dsn` (Spotlight sends none).
        var keyPending: Bool
    }

    /// What a complete request became.
    struct Outcome: Sendable {
        var response: HTTPIngestResponse
        /// The events of each client and release, in request order.
        var groups: [Group] = []
        /// Whether the request was refused because the dashboard was behind (429).
        var rateLimited = false
        /// The SDK that sent it, when known.
        var client: String?
        /// Why the request failed, or what was skipped in it.
        var problem: String?
    }

    /// One client and release's share of a request.
    struct Group: Sendable {
        var key: String
        var client: String?
        var release: String?
        var events: [SentryMappedEvent] = []
        /// Its transactions' spans, for the trace store.
        var spans: [TraceSpan] = []
        var attachments = 0
        var skipped = 0
    }

    let limits: HTTPReceiverLimits
    /// The key SDKs must send, when one is required.
    let requiredKey: String?
    /// Whether the dashboard has room for this many more events now.
    let admit: @Sendable (Int) -> Bool
    let now: @Sendable () -> Date
    /// Slows addresses that keep sending wrong keys; `nil` answers every wrong key `401`.
    var keyThrottle: SentryKeyThrottle? = nil

    /// Checks a request's head from the client address `host`: `.accepted` when its body should be read, else the
    /// answer (401, 404, 405, 413, 415, or 429 for an address past ``SentryKeyThrottle``'s threshold of wrong keys).
    func check(_ head: HTTPRequestHead, host: String? = nil) -> HTTPIngestCheck<Accepted> {
        let parts = head.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = parts.first.map(String.init) ?? ""
        let query = parts.count > 1 ? Self.queryItems(String(parts[1])) : [:]
        guard let route = Self.route(path) else {
            return .refused(
                Self.answer(
                    .notFound,
                    "no Sentry endpoint at \(SentryJSON.cut(path, 200)); use /api/<numeric project>/envelope/, "
                        + "/api/<numeric project>/store/ or /stream"))
        }
        guard head.method == .POST else {
            return .refused(Self.answer(.methodNotAllowed, "\(head.method.rawValue) \(path): only POST is served"))
        }
        let auth = Self.authFields(head.headers.first(name: "x-sentry-auth") ?? "")
        let client = auth["sentry_client"] ?? query["sentry_client"]
        let userAgent = head.headers.first(name: "user-agent").map { SentryJSON.cut($0, 100) }
        var keyPending = false
        if let requiredKey {
            let sent = auth["sentry_key"] ?? query["sentry_key"]
            if sent == nil, route == .stream {
                keyPending = true
            } else if sent != requiredKey {
                if let keyThrottle, let host, let seconds = keyThrottle.wrongKey(from: host) {
                    var response = Self.answer(
                        .tooManyRequests,
                        "more than \(keyThrottle.threshold) requests without the right sentry_key from this address "
                            + "within \(keyThrottle.window); retry in \(seconds) s")
                    response.retryAfter = seconds
                    response.headers = [("X-Sentry-Rate-Limits", "\(seconds)::key")]
                    return .refused(response)
                }
                return .refused(
                    Self.answer(
                        .unauthorized, sent == nil ? "no sentry_key was sent; this receiver requires one" : "wrong sentry_key"))
            }
        }
        let encoding = (head.headers.first(name: "content-encoding") ?? "identity").lowercased()
            .trimmingCharacters(in: .whitespaces)
        guard ["gzip", "deflate", "identity", ""].contains(encoding) else {
            return .refused(
                Self.answer(
                    .unsupportedMediaType,
                    "content encoding \(SentryJSON.cut(encoding, 40)) is not served; use gzip, deflate or none "
                        + "(sentry-python sends br only when the brotli module is installed)"))
        }
        if let length = head.headers.first(name: "content-length").flatMap(Int.init), length > limits.maximumBodyBytes {
            return .refused(tooLarge)
        }
        return .accepted(
            Accepted(
                route: route, encoding: ["gzip", "deflate"].contains(encoding) ? encoding : nil, client: client,
                userAgent: userAgent, keyPending: keyPending))
    }

    /// The 413 answer.
    var tooLarge: HTTPIngestResponse {
        Self.answer(.payloadTooLarge, "the body is over the limit of \(limits.maximumBodyBytes) bytes")
    }

    /// Handles a complete body: inflates, reads the envelope, maps its items, asks for room.
    func complete(_ request: Accepted, body: [UInt8]) -> Outcome {
        var bytes = body
        if request.encoding != nil {
            do {
                bytes = try Inflater.inflate(body, limit: limits.maximumBodyBytes)
            } catch {
                switch error {
                case .tooLarge:
                    return failure(tooLarge, request, "the \(request.encoding ?? "") body inflates past \(limits.maximumBodyBytes) bytes")
                case .corrupt(let reason):
                    return failure(.badRequest, "the \(request.encoding ?? "") body does not inflate: \(reason)", request)
                }
            }
        }
        var items: [SentryEnvelope.Item]
        var eventID: String?
        var problems: [String: Int] = [:]
        var client = request.client
        if request.route == .store {
            items = [SentryEnvelope.Item(type: "event", payload: bytes[...])]
        } else {
            let envelope: SentryEnvelope
            do { envelope = try SentryEnvelope.read(bytes) } catch {
                return failure(.badRequest, "\(error)", request)
            }
            if request.keyPending, let requiredKey, Self.dsnKey(envelope.dsn) != requiredKey {
                return failure(
                    .unauthorized, "no sentry_key in the query and no matching key in the envelope's dsn", request)
            }
            items = envelope.items
            eventID = envelope.eventID
            problems = envelope.problems
            client = client ?? envelope.sdk
        }
        let receivedAt = now()
        var groups: [Group] = []
        var index: [String: Int] = [:]
        func group(_ release: String?, _ sender: String? = nil) -> Int {
            // The SDK as the request names it, else as the event does (Spotlight sends neither auth nor an sdk
            // header), else the User-Agent.
            let client = client ?? sender ?? request.userAgent
            let key = "\(client ?? "unknown client") \(release ?? "(no release)")"
            if let known = index[key] { return known }
            groups.append(Group(key: key, client: client, release: release))
            index[key] = groups.count - 1
            return groups.count - 1
        }
        var skippedTypes: [String: Int] = [:]
        // Items of the types read, and those refused: an envelope whose every such item was refused is answered
        // 400 with the reason, never 200 with nothing kept.
        var decodable = 0
        var refused = 0
        var unattributed = (attachments: 0, skipped: problems.values.reduce(0, +))
        for item in items {
            switch item.type {
            case "event", "transaction", "log":
                decodable += 1
                let read: SentryJSONReader.Result
                do { read = try SentryJSONReader.read(item.payload) } catch {
                    problems["an \(item.type) item was refused: \(error)", default: 0] += 1
                    unattributed.skipped += 1
                    refused += 1
                    continue
                }
                let payload = read.object
                if item.type != "event" {
                    // An error shows its cuts in its report; other items name theirs in the client's row.
                    for cut in read.cuts { problems["a \(item.type) item was cut: \(cut)", default: 0] += 1 }
                }
                if eventID == nil { eventID = payload["event_id"] as? String }
                let type = request.route == .store && payload["type"] as? String == "transaction" ? "transaction" : item.type
                let mapped = SentryEventMapper.map(type: type, payload: payload, receivedAt: receivedAt, cuts: read.cuts)
                let release = SentryJSON.text(payload["release"], limit: 200) ?? mapped.first?.event.serviceVersion
                var sender: String?
                if let sdk = payload["sdk"] as? [String: Any], let name = SentryJSON.text(sdk["name"], limit: 100) {
                    sender = SentryJSON.text(sdk["version"], limit: 100).map { "\(name)/\($0)" } ?? name
                }
                let target = group(release, sender)
                groups[target].events += mapped
                if type == "transaction" {
                    let transaction = SentryEventMapper.spans(payload)
                    groups[target].spans += transaction.spans
                    if transaction.rejected > 0 {
                        problems["spans without a valid trace, span or parent id were not kept", default: 0] +=
                            transaction.rejected
                    }
                }
            case "attachment":
                unattributed.attachments += 1
            default:
                skippedTypes[SentryJSON.cut(item.type, 40), default: 0] += 1
                unattributed.skipped += 1
            }
        }
        if refused > 0, refused == decodable, groups.allSatisfy({ $0.events.isEmpty && $0.spans.isEmpty }) {
            let reasons = problems.keys.filter { $0.contains(" was refused: ") }.sorted().joined(separator: "; ")
            return failure(.badRequest, reasons, request)
        }
        let target = groups.isEmpty ? group(nil) : 0
        groups[target].attachments += unattributed.attachments
        groups[target].skipped += unattributed.skipped
        let count = groups.reduce(0) { $0 + $1.events.count }
        guard admit(count) else {
            var response = Self.answer(.tooManyRequests, "the dashboard is behind; retry later")
            response.retryAfter = limits.retryAfterSeconds
            response.headers = [("X-Sentry-Rate-Limits", "\(limits.retryAfterSeconds)::key")]
            return Outcome(
                response: response, groups: groups.map { Group(key: $0.key, client: $0.client, release: $0.release) },
                rateLimited: true, client: client, problem: "refused (429): the dashboard is behind")
        }
        var notes = problems.sorted { $0.key < $1.key }.map { $0.value == 1 ? $0.key : "\($0.key) (\($0.value) times)" }
        notes += skippedTypes.sorted { $0.key < $1.key }.map { "skipped \($0.value) \($0.key) item\($0.value == 1 ? "" : "s")" }
        let idText = eventID.map { "{\"id\":\"\(SentryJSON.cut($0.filter { $0.isHexDigit || $0 == "-" }, 64))\"}" } ?? "{}"
        return Outcome(
            response: HTTPIngestResponse(status: .ok, contentType: "application/json", body: Array(idText.utf8)),
            groups: groups, client: client, problem: problems.isEmpty ? nil : notes.joined(separator: "; "))
    }

    private func failure(_ status: HTTPResponseStatus, _ message: String, _ request: Accepted) -> Outcome {
        failure(Self.answer(status, message), request, message)
    }

    private func failure(_ response: HTTPIngestResponse, _ request: Accepted, _ message: String) -> Outcome {
        Outcome(response: response, client: request.client, problem: message)
    }

    /// An error answer: `{"detail": message}`, as Sentry's own servers write them.
    static func answer(_ status: HTTPResponseStatus, _ message: String) -> HTTPIngestResponse {
        let data = (try? JSONSerialization.data(withJSONObject: ["detail": message], options: .withoutEscapingSlashes)) ?? Data("{}".utf8)
        return HTTPIngestResponse(status: status, contentType: "application/json", body: Array(data), message: message)
    }

    /// `/api/<digits>/envelope/` and `/api/<digits>/store/` (the trailing slash optional), and `/stream`.
    static func route(_ path: String) -> Route? {
        if path == "/stream" || path == "/stream/" { return .stream }
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        guard parts.count == 3, parts[0] == "api", !parts[1].isEmpty, parts[1].allSatisfy(\.isASCII),
            parts[1].allSatisfy(\.isNumber)
        else { return nil }
        switch parts[2] {
        case "envelope": return .envelope
        case "store": return .store
        default: return nil
        }
    }

    /// `Sentry sentry_key=abc, sentry_version=7, sentry_client=sentry.python/2.75.0` as its fields.
    static func authFields(_ header: String) -> [String: String] {
        var text = Substring(header.trimmingCharacters(in: .whitespaces))
        if text.lowercased().hasPrefix("sentry ") { text = text.dropFirst(7) }
        var fields: [String: String] = [:]
        for part in text.split(separator: ",").prefix(16) {
            let pair = part.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { continue }
            fields[pair[0].trimmingCharacters(in: .whitespaces)] = SentryJSON.cut(
                pair[1].trimmingCharacters(in: .whitespaces), 200)
        }
        return fields
    }

    /// A query string's items, percent-decoded.
    static func queryItems(_ query: String) -> [String: String] {
        var items: [String: String] = [:]
        for part in query.split(separator: "&").prefix(32) {
            let pair = part.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { continue }
            let value = String(pair[1]).replacingOccurrences(of: "+", with: " ")
            items[String(pair[0])] = SentryJSON.cut(value.removingPercentEncoding ?? value, 200)
        }
        return items
    }

    /// The public key of a DSN (`http://KEY@host/1`).
    static func dsnKey(_ dsn: String?) -> String? {
        guard let dsn, let url = URL(string: dsn) else { return nil }
        return url.user
    }
}
