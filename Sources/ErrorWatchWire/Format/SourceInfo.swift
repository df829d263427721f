import ErrorStreaming
import Foundation
import Logging

/// Who is producing events: written into every line as `service.name`, `process.pid` and `host.name`.
public struct SourceInfo: Sendable, Hashable {
    /// `service.name`: the application's name.
    public var serviceName: String
    /// `process.pid`.
    public var pid: Int
    /// `host.name`.
    public var host: String

    /// Creates a source; pid and host default to this process and machine.
    public init(
        serviceName: String, pid: Int = Int(ProcessInfo.processInfo.processIdentifier),
        host: String = ProcessInfo.processInfo.hostName
    ) {
        self.serviceName = serviceName
        self.pid = pid
        self.host = host
    }
}
