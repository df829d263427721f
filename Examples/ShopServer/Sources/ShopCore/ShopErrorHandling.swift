import ErrorStreaming
import Logging

/// What the shop answers for a failed checkout.
public struct CheckoutFailure: Sendable, Hashable {
    /// The HTTP status: `402`, `409`, `503` or `500`.
    public let status: Int
    /// The error's code (`P-402`), for support and for matching the dashboard.
    public let code: String
    /// The sentence the customer reads.
    public let message: String
    /// Seconds after which the client may try again (`Retry-After`), for transient failures.
    public let retryAfterSeconds: Int?
    /// Whether a node of the handler tree consumed the error.
    public let handled: Bool
}

/// The shop's ``ErrorHandler`` tree and the HTTP answer for each failure.
///
/// ```
/// root (forwards every error to the stream)
///  └─ PaymentError       declined cards: logged, consumed; the customer is told to use another card
///      └─ InventoryConflict  conflicts that outlived the retries: logged, consumed; the customer may try again
/// ```
///
/// Failures are thrown at the leaf, so every one climbs to the root (which adds it to the stream: the forwarder
/// sends it to the dashboard and the metrics recorder counts it) and then descends; a deadlock reaches no node
/// that takes it, so its handling report says `unhandled`, which is what an operator should look at.
public final class ShopErrorHandling: Sendable {
    /// The root: forwards every error to the stream.
    public let root: ErrorHandler
    /// Where checkout failures are thrown.
    public let checkout: ErrorHandler

    /// Builds the tree over `stream`.
    public init(stream: ErrorStream, logger: Logger) {
        root = ErrorHandler(forwardingTo: stream)
        let payments = root.catch(PaymentError.self) { error in
            logger.info("card declined", metadata: ["reason": "\(error.reason)", "code": "\(error.code)"])
        }
        checkout = payments.catch(InventoryConflict.self) { error in
            logger.warning("stock contention outlived the retries", metadata: ["sku": "\(error.sku)"])
        }
    }

    /// Hands a checkout failure to the tree (and so to the stream) and says what to answer.
    ///
    /// A ``ReportedBug`` is not handed to the tree: `reportBug` has already added it to the stream.
    public func handle(_ error: any Error, order: Order) async -> CheckoutFailure {
        if let bug = error as? ReportedBug {
            return CheckoutFailure(
                status: 500, code: bug.report.code.description, message: bug.report.userMessage,
                retryAfterSeconds: nil, handled: false)
        }
        let classification = Classification(of: error)
        let context = ErrorContext(
            source: "shop.checkout", severity: classification.severity, origin: .user,
            metadata: ["sku": order.sku, "quantity": String(order.quantity)])
        let handled = await checkout.handle(error, context: context)
        let (status, retryAfter) = Self.status(for: error)
        return CheckoutFailure(
            status: status, code: classification.code.description, message: classification.userMessage,
            retryAfterSeconds: retryAfter, handled: handled)
    }

    /// The status a shop answers: `402` for a declined card, `409` for a conflict, `503` and `Retry-After: 1` for
    /// a deadlock, `500` for anything else.
    static func status(for error: any Error) -> (status: Int, retryAfter: Int?) {
        switch error {
        case is PaymentError: (402, nil)
        case is InventoryConflict: (409, nil)
        case is DatabaseDeadlock: (503, 1)
        default: (500, nil)
        }
    }
}
