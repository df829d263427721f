import ErrorWatchWire
import NIOCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The sentence for an endpoint the system would not listen on, in the user's words rather than NIO's: the
/// system call's reason (`address already in use`), or what the resolver said about a host name
/// (`the name nosuchhost could not be resolved: Name or service not known`).
enum ListenProblem {
    /// The ``WireTransportError/cannotListen(endpoint:reason:)`` for `error`, thrown while binding `endpoint`;
    /// `nil` for an error that is not about binding.
    static func error(_ error: any Error, endpoint: String) -> WireTransportError? {
        switch error {
        case let error as IOError:
            // NIO's text names the system call (`bind(descriptor:ptr:bytes:)`); a user wants the reason.
            return .cannotListen(endpoint: endpoint, reason: FileProblem.reason(error.errnoCode))
        case let error as SocketAddressError.UnknownHost:
            // The resolver's own words, which NIO keeps (`Name or service not known`).
            return .cannotListen(
                endpoint: endpoint, reason: "the name \(error.host) could not be resolved: \(error.errorDescription)")
        case let error as SocketAddressError:
            return .cannotListen(endpoint: endpoint, reason: reason(error))
        default:
            return nil
        }
    }

    /// A resolver or address problem as a reason.
    static func reason(_ error: SocketAddressError) -> String {
        switch error {
        case .unknown(let host, _):
            "the name \(host) could not be resolved: \(resolverMessage(for: host) ?? "no address found")"
        case .unsupported: "the address family is not supported"
        case .unixDomainSocketPathTooLong: "the socket path is too long"
        case .failedToParseIPString(let text): "\(text) is not an IP address"
        @unknown default: "\(error)"
        }
    }

    /// What `getaddrinfo` says about `host` now (`Name or service not known`), or `nil` when it resolves.
    static func resolverMessage(for host: String) -> String? {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var result: UnsafeMutablePointer<addrinfo>?
        let code = getaddrinfo(host, nil, &hints, &result)
        if let result { freeaddrinfo(result) }
        guard code != 0, let text = gai_strerror(code) else { return nil }
        return String(cString: text)
    }
}
