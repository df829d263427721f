import ErrorStreaming
import Tracing

/// A failed checkout as the shop records it on the request's span: one OpenTelemetry `exception` event, in the
/// shop's own words.
///
/// swift-otel's `recordError` names the exception after `String(describing:)` of the error, which for a Swift struct
/// is a dump of its fields (`PaymentError(reason: "expired_card")`). The shop says what it means instead: the
/// exception's type is the error's qualified type name (`ShopCore.PaymentError`, as the NDJSON mode reports it) and
/// its message the technical message (`card declined by the payment provider: expired_card`). The event also
/// carries the error's code and the status the shop answered.
///
/// A `5xx` answer also sets the span's status to `ERROR` with the message, as the HTTP semantic conventions ask of
/// a server span; a `4xx` answer is the client's to fix and leaves it unset.
///
/// ```swift
/// let failure = await handling.handle(error, order: order)
/// if let span = InstrumentationSystem.tracer.activeSpan(identifiedBy: .current ?? .topLevel) {
///     CheckoutException(error, failure: failure).record(on: span)
/// }
/// ```
public struct CheckoutException: Sendable, Hashable {
    /// `exception.type`: the error's qualified Swift type name.
    public let type: String
    /// `exception.message`: the error's technical message.
    public let message: String
    /// The error's code (`P-402`), as the customer's answer carries it.
    public let code: String
    /// The HTTP status the shop answered.
    public let status: Int

    /// Describes `error`, which the shop answered with `failure`.
    ///
    /// A ``ReportedBug`` is described by its report: the bug the checkout found, where it found it.
    public init(_ error: any Error, failure: CheckoutFailure) {
        let classification =
            if let bug = error as? ReportedBug { Classification(bug.report) } else { Classification(of: error) }
        type = classification.typeName
        message = classification.technicalMessage
        code = failure.code
        status = failure.status
    }

    /// The attributes of the `exception` event (and so the dashboard's error).
    public var attributes: SpanAttributes {
        var attributes = SpanAttributes()
        attributes["exception.type"] = type
        attributes["exception.message"] = message
        attributes["error.code"] = code
        attributes["http.response.status_code"] = status
        return attributes
    }

    /// Records the exception on `span`, and for a `5xx` answer the `ERROR` status and `error.type`.
    public func record(on span: some Span) {
        span.recordError(CheckoutExceptionError(message: message), attributes: attributes)
        if (500..<600).contains(status) {
            span.updateAttributes { $0["error.type"] = type }
            span.setStatus(SpanStatus(code: .error, message: message))
        }
    }
}

/// The error value handed to `recordError`: its text is the exception's message, should a tracer read it rather
/// than the attributes the shop passes beside it.
struct CheckoutExceptionError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
