import ErrorStreaming

/// The payment provider refused the card: the customer can fix it (another card, another day).
///
/// Code `P-402`, after HTTP's 402 Payment Required, which the shop answers with.
public struct PaymentError: ClassifiedError, Hashable {
    /// Why the provider declined, in its own words (`insufficient_funds`, `expired_card`…).
    public let reason: String

    /// Creates a declined-card error.
    public init(reason: String) { self.reason = reason }

    /// Always `.userActionable`: only the customer can do something about it.
    public var category: ErrorCategory { .userActionable }
    /// Always `P-402`.
    public var code: ErrorCode { "P-402" }
    /// What the customer reads.
    public var userMessage: String { "Your card was declined. Please use another card." }
    /// What the logs read.
    public var technicalMessage: String { "card declined by the payment provider: \(reason)" }
    /// A declined card is routine for a shop: a warning, not an error.
    public var severity: ErrorSeverity { .warning }
}

/// Another checkout reserved the last items of a product at the same moment: retried with backoff, as the
/// conflict usually clears within milliseconds.
///
/// Code `I-409`, after HTTP's 409 Conflict, which the shop answers with when every attempt conflicted.
public struct InventoryConflict: ClassifiedError, Hashable {
    /// The product whose stock row was contended.
    public let sku: String

    /// Creates a conflict on one product's stock.
    public init(sku: String) { self.sku = sku }

    /// Always `.transient`: it may work a moment later without anyone doing anything.
    public var category: ErrorCategory { .transient }
    /// Always `I-409`.
    public var code: ErrorCode { "I-409" }
    /// What the customer reads when the retries did not help.
    public var userMessage: String { "This item is in high demand right now. Please try again." }
    /// What the logs read.
    public var technicalMessage: String { "stock reservation for \(sku) conflicted with a concurrent checkout" }
    /// Each conflict is expected under load; the checkout retries it.
    public var severity: ErrorSeverity { .warning }
}

/// The database chose this checkout's transaction as the victim of a deadlock and rolled it back.
///
/// Code `D-40001` (SQLSTATE 40001, serialization failure). The shop answers `503` with `Retry-After`, so a client
/// retries the whole request.
public struct DatabaseDeadlock: ClassifiedError, Hashable {
    /// The table both transactions were locking.
    public let table: String

    /// Creates a deadlock on one table.
    public init(table: String) { self.table = table }

    /// Always `.transient`: the same transaction succeeds when retried.
    public var category: ErrorCategory { .transient }
    /// Always `D-40001`.
    public var code: ErrorCode { "D-40001" }
    /// What the customer reads.
    public var userMessage: String { "We could not complete your order just now. Please try again." }
    /// What the logs read.
    public var technicalMessage: String { "deadlock detected on \(table); transaction rolled back" }
}

/// The request was not an order the shop can read: a client's mistake, answered `400` and not broadcast.
public struct InvalidOrder: Error, Hashable, CustomStringConvertible {
    /// What is wrong with it.
    public let description: String

    /// Creates the complaint.
    public init(_ description: String) { self.description = description }
}
