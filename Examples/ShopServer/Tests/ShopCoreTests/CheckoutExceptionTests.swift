import ErrorStreaming
import InMemoryTracing
import Logging
import Testing
import Tracing

@testable import ShopCore

/// What a failed checkout leaves on its request span for `--otel`: one exception in the shop's words, and an
/// `ERROR` status only when the shop answered `5xx`.
struct CheckoutExceptionTests {
    private let order = Order(sku: "mug", quantity: 2, card: "4242")
    private let mug = Catalog.standard.product(sku: "mug")!
    private let quiet = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })

    /// Checks out `order` in `scenario`, which must fail, and records the failure on a fresh server span.
    private func recordedSpan(_ scenario: CheckoutScenario) async throws -> FinishedInMemorySpan {
        let stream = ErrorStream()
        let service = CheckoutService(stream: stream, dice: ShopDice(seed: 1), backoff: .none, logger: quiet)
        let handling = ShopErrorHandling(stream: stream, logger: quiet)
        let tracer = InMemoryTracer()
        let span = tracer.startSpan("/checkout", ofKind: .server)
        do {
            _ = try await service.checkout(order, product: mug, scenario: scenario)
            Issue.record("\(scenario) did not fail")
        } catch {
            let failure = await handling.handle(error, order: order)
            CheckoutException(error, failure: failure).record(on: span)
        }
        span.end()
        stream.finish()
        return try #require(tracer.finishedSpans.first)
    }

    @Test func aDeclinedCardIsOneExceptionInTheShopsWordsAndNoErrorStatus() async throws {
        let span = try await recordedSpan(.declined(reason: "expired_card"))
        #expect(span.errors.count == 1)
        let attributes = try #require(span.errors.first?.attributes)
        #expect(attributes["exception.type"]?.toSpanAttribute() == .string("ShopCore.PaymentError"))
        #expect(
            attributes["exception.message"]?.toSpanAttribute()
                == .string("card declined by the payment provider: expired_card"))
        #expect(attributes["error.code"]?.toSpanAttribute() == .string("P-402"))
        #expect(attributes["http.response.status_code"]?.toSpanAttribute() == .int64(402))
        // A 4xx is the client's: the server span's status stays unset, and so does error.type.
        #expect(span.status == nil)
        #expect(span.attributes["error.type"] == nil)
    }

    @Test func aDeadlockAnswered503AlsoSetsErrorStatusWithTheSameMessage() async throws {
        let span = try await recordedSpan(.deadlock)
        #expect(span.errors.count == 1)
        let message = "deadlock detected on orders; transaction rolled back"
        #expect(span.errors.first?.attributes["exception.message"]?.toSpanAttribute() == .string(message))
        #expect(span.status == SpanStatus(code: .error, message: message))
        #expect(span.attributes["error.type"]?.toSpanAttribute() == .string("ShopCore.DatabaseDeadlock"))
    }

    @Test func aReportedBugIsDescribedByItsReportNotItsWrapper() async throws {
        let span = try await recordedSpan(.impossibleState)
        let attributes = try #require(span.errors.first?.attributes)
        #expect(attributes["exception.type"]?.toSpanAttribute() == .string("ErrorStreaming.BugReport"))
        let message = try #require(attributes["exception.message"]?.toSpanAttribute())
        guard case .string(let text) = message else {
            Issue.record("exception.message is \(message)")
            return
        }
        #expect(text.hasPrefix("stock of mug went below zero after reserving 2 ("))
        #expect(attributes["error.code"]?.toSpanAttribute() == .string("B-0"))
        #expect(span.status?.code == .error)
    }

    @Test func theErrorHandedToTheTracerReadsAsTheMessage() {
        let failure = CheckoutFailure(
            status: 409, code: "I-409", message: "try again", retryAfterSeconds: nil, handled: true)
        let exception = CheckoutException(InventoryConflict(sku: "cap"), failure: failure)
        #expect(exception.type == "ShopCore.InventoryConflict")
        #expect(
            "\(CheckoutExceptionError(message: exception.message))"
                == "stock reservation for cap conflicted with a concurrent checkout")
    }

    @Test func eachStepIsASpanAndOnlyTheRequestSpanRecordsTheFailure() async throws {
        let tracer = InMemoryTracer()
        let service = CheckoutService(
            stream: ErrorStream(), dice: ShopDice(seed: 1), backoff: .none, logger: quiet, tracer: tracer)
        _ = try await service.checkout(order, product: mug, scenario: .inventoryConflicts(2))
        let spans = tracer.finishedSpans
        #expect(spans.map(\.operationName) == [
            "inventory.reserve", "inventory.reserve", "inventory.reserve", "payment.charge", "orders.insert",
        ])
        let reservations = spans.filter { $0.operationName == "inventory.reserve" }
        #expect(
            reservations.map { $0.attributes["shop.attempt"]?.toSpanAttribute() } == [.int64(1), .int64(2), .int64(3)])
        #expect(reservations.map { $0.attributes["shop.conflict"] != nil } == [true, true, false])
        // A conflict that the retry got past is no failure of the request: no exception, no ERROR.
        #expect(spans.allSatisfy { $0.errors.isEmpty && $0.status == nil })
    }

    @Test func aDeclinedChargeNamesItsReasonButRecordsNoException() async throws {
        let tracer = InMemoryTracer()
        let service = CheckoutService(
            stream: ErrorStream(), dice: ShopDice(seed: 1), backoff: .none, logger: quiet, tracer: tracer)
        await #expect(throws: PaymentError.self) {
            try await service.checkout(order, product: mug, scenario: .declined(reason: "expired_card"))
        }
        let charge = try #require(tracer.finishedSpans.first { $0.operationName == "payment.charge" })
        #expect(charge.kind == .client)
        #expect(charge.attributes["shop.decline_reason"]?.toSpanAttribute() == .string("expired_card"))
        #expect(charge.errors.isEmpty && charge.status == nil)
        #expect(!tracer.finishedSpans.contains { $0.operationName == "orders.insert" })
    }
}
