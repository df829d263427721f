import ErrorStreaming
import Logging
import Synchronization
import Tracing

/// A bug the checkout has already reported with `reportBug`: the route answers `500` and does not hand it to the
/// handler tree again, which would broadcast it a second time.
public struct ReportedBug: Error, Hashable {
    /// The report that `reportBug` added to the stream.
    public let report: BugReport
}

/// Places orders: reserves stock (retrying conflicts with backoff), charges the card and commits, failing in the
/// ways ``CheckoutScenario`` draws for each order.
///
/// Failed reservation attempts are reported to the stream by ErrorStreaming's `retry`, each with its attempt
/// number; an impossible stock state by `reportBug`. Every other failure is thrown to the caller, which hands it to
/// the shop's handler tree (``ShopErrorHandling``).
///
/// Each step is a span of the request's trace (with `--otel`; a no-op otherwise): `inventory.reserve` per attempt
/// (`shop.conflict` on those that conflicted), `payment.charge`, `orders.insert`. The steps record no exception and
/// set no status: the failure is recorded once, on the request's span (``CheckoutException``).
///
/// ```swift
/// let service = CheckoutService(stream: stream, dice: ShopDice(seed: 7), logger: logger)
/// let receipt = try await service.checkout(Order(sku: "mug", quantity: 2))
/// ```
public final class CheckoutService: Sendable {
    /// Stock reservations per checkout, the first included.
    public static let reservationAttempts = 3

    /// What the shop sells.
    public let catalog: Catalog
    private let stream: ErrorStream
    private let dice: ShopDice
    private let rates: FailureRates
    private let backoff: Backoff
    private let clock: any Clock<Duration>
    private let logger: Logger
    private let tracer: any Tracer
    private let orders = Atomic<Int>(0)

    /// Creates the service.
    ///
    /// - Parameters:
    ///   - catalog: the products.
    ///   - stream: where failed reservation attempts and bugs are reported.
    ///   - dice: the seeded randomness behind every simulated failure and jitter.
    ///   - rates: how often each failure happens.
    ///   - backoff: the wait between reservation attempts (a few milliseconds by default: a row lock clears fast).
    ///   - clock: the clock the backoff waits on.
    ///   - logger: where the checkout logs.
    ///   - tracer: where the checkout's steps are spans (the bootstrapped one by default).
    public init(
        catalog: Catalog = .standard, stream: ErrorStream, dice: ShopDice, rates: FailureRates = .standard,
        backoff: Backoff = .exponential(initial: .milliseconds(2), maximum: .milliseconds(20)),
        clock: any Clock<Duration> = ContinuousClock(), logger: Logger,
        tracer: any Tracer = InstrumentationSystem.tracer
    ) {
        self.tracer = tracer
        self.catalog = catalog
        self.stream = stream
        self.dice = dice
        self.rates = rates
        self.backoff = backoff
        self.clock = clock
        self.logger = logger
    }

    /// Places one order.
    ///
    /// - Throws: ``InvalidOrder`` for an unknown product or a quantity outside 1…100; ``InventoryConflict`` when
    ///   every reservation attempt conflicted; ``PaymentError``; ``DatabaseDeadlock``; ``ReportedBug`` after
    ///   reporting an impossible state.
    public func checkout(_ order: Order) async throws -> Receipt {
        guard let product = catalog.product(sku: order.sku) else { throw InvalidOrder("unknown sku \(order.sku)") }
        guard (1...100).contains(order.quantity) else { throw InvalidOrder("quantity must be 1…100") }
        return try await checkout(order, product: product, scenario: CheckoutScenario.draw(from: dice, rates: rates))
    }

    /// Places one order of a known product as `scenario` says.
    func checkout(_ order: Order, product: Product, scenario: CheckoutScenario) async throws -> Receipt {
        let attempts = try await reserve(order, conflicts: scenario.conflicts)
        if scenario == .impossibleState {
            let report = reportBug(
                "stock of \(order.sku) went below zero after reserving \(order.quantity)", to: stream,
                source: "shop.inventory")
            throw ReportedBug(report: report)
        }
        try step("payment.charge", kind: .client) { span in
            if case .declined(let reason) = scenario {
                span.updateAttributes { $0["shop.decline_reason"] = reason }
                throw PaymentError(reason: reason)
            }
        }
        try step("orders.insert", kind: .client) { _ in
            if scenario == .deadlock { throw DatabaseDeadlock(table: "orders") }
        }

        let number = orders.add(1, ordering: .relaxed).newValue
        logger.debug("order placed", metadata: ["order": "\(number)", "sku": "\(order.sku)"])
        return Receipt(
            orderNumber: number, sku: order.sku, quantity: order.quantity,
            totalCents: product.priceCents * order.quantity, attempts: attempts)
    }

    /// Reserves the stock, retrying conflicts; each failed attempt is reported to the stream as a background
    /// warning with its attempt number. Returns the attempts it took.
    private func reserve(_ order: Order, conflicts: Int) async throws -> Int {
        var attempt = 0
        let context = ErrorContext(
            source: "shop.inventory", severity: .warning, origin: .background, metadata: ["sku": order.sku])
        try await retry(
            maxAttempts: Self.reservationAttempts, backoff: backoff, clock: clock, random: { dice.unit() },
            reportingTo: stream, context: context, shouldRetry: { $0 is InventoryConflict }
        ) {
            attempt += 1
            let number = attempt
            try step("inventory.reserve", kind: .internal) { span in
                span.updateAttributes {
                    $0["shop.sku"] = order.sku
                    $0["shop.attempt"] = number
                }
                if number <= conflicts {
                    span.updateAttributes { $0["shop.conflict"] = true }
                    throw InventoryConflict(sku: order.sku)
                }
            }
        }
        return attempt
    }

    /// Runs `body` in a span named `name`, ended when it returns or throws. What it throws is not recorded on the
    /// span: the failure is recorded once, on the request's span.
    private func step(_ name: String, kind: SpanKind, _ body: (any Span) throws -> Void) rethrows {
        let span = tracer.startSpan(name, context: ServiceContext.current ?? .topLevel, ofKind: kind)
        defer { span.end() }
        try body(span)
    }
}

extension CheckoutScenario {
    /// How many reservation attempts conflict in this scenario.
    var conflicts: Int {
        if case .inventoryConflicts(let count) = self { return count }
        return 0
    }
}
