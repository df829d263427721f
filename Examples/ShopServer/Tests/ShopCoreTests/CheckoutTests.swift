import ErrorStreaming
import Logging
import Testing

@testable import ShopCore

/// The checkout's failures, each as the stream, the handler tree and the HTTP answer see it.
struct CheckoutTests {
    private let order = Order(sku: "mug", quantity: 2, card: "4242")
    private let mug = Catalog.standard.product(sku: "mug")!
    private let quiet = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })

    /// A service over `stream` whose retries do not wait.
    private func service(_ stream: ErrorStream) -> CheckoutService {
        CheckoutService(stream: stream, dice: ShopDice(seed: 1), backoff: .none, logger: quiet)
    }

    /// Runs `body`, finishes the stream and returns every event it broadcast meanwhile.
    private func events(of stream: ErrorStream, during body: () async -> Void) async -> [ErrorEvent] {
        let events = stream.events(bufferingPolicy: .unbounded)
        await body()
        stream.finish()
        var collected: [ErrorEvent] = []
        for await event in events { collected.append(event) }
        return collected
    }

    @Test func aSuccessfulCheckoutChargesPriceTimesQuantityAndBroadcastsNothing() async throws {
        let stream = ErrorStream()
        var receipt: Receipt?
        let seen = await events(of: stream) {
            receipt = try? await service(stream).checkout(order, product: mug, scenario: .success)
        }
        #expect(receipt?.totalCents == 2_400)
        #expect(receipt?.attempts == 1)
        #expect(receipt?.orderNumber == 1)
        #expect(seen.isEmpty)
    }

    @Test func conflictsAreRetriedAndEachFailedAttemptIsReported() async throws {
        let stream = ErrorStream()
        var receipt: Receipt?
        let seen = await events(of: stream) {
            receipt = try? await service(stream).checkout(order, product: mug, scenario: .inventoryConflicts(2))
        }
        #expect(receipt?.attempts == 3)
        #expect(seen.map(\.context.attempt) == [1, 2])
        #expect(seen.allSatisfy { $0.error is InventoryConflict && $0.origin == .background })
    }

    @Test func conflictsOutlivingTheRetriesAreAConflictHandledByTheTree() async throws {
        let stream = ErrorStream()
        let handling = ShopErrorHandling(stream: stream, logger: quiet)
        let reports = stream.handlingReports()
        var failure: CheckoutFailure?
        let seen = await events(of: stream) {
            do {
                _ = try await service(stream).checkout(order, product: mug, scenario: .inventoryConflicts(3))
            } catch {
                failure = await handling.handle(error, order: order)
            }
        }
        #expect(
            failure
                == CheckoutFailure(
                    status: 409, code: "I-409", message: InventoryConflict(sku: "mug").userMessage,
                    retryAfterSeconds: nil,
                    handled: true))
        // Three attempts from `retry`, then the final failure through the tree, as the customer's.
        #expect(seen.map(\.context.attempt) == [1, 2, 3, nil])
        #expect(seen.last?.origin == .user)
        var outcomes: [String] = []
        for await report in reports { outcomes.append(report.outcome.description) }
        #expect(outcomes == ["consumed by InventoryConflict"])
    }

    @Test func aDeclinedCardIsPaymentRequiredAndConsumed() async throws {
        let stream = ErrorStream()
        let handling = ShopErrorHandling(stream: stream, logger: quiet)
        var failure: CheckoutFailure?
        let seen = await events(of: stream) {
            do {
                _ = try await service(stream).checkout(order, product: mug, scenario: .declined(reason: "expired_card"))
            } catch {
                failure = await handling.handle(error, order: order)
            }
        }
        #expect(failure?.status == 402)
        #expect(failure?.code == "P-402")
        #expect(failure?.handled == true)
        #expect(seen.count == 1)
        #expect(Classification(of: seen[0].error).category == .userActionable)
        #expect(seen[0].metadata["sku"] == "mug")
    }

    @Test func aDeadlockIsUnavailableWithRetryAfterAndUnhandled() async throws {
        let stream = ErrorStream()
        let handling = ShopErrorHandling(stream: stream, logger: quiet)
        let reports = stream.handlingReports()
        var failure: CheckoutFailure?
        let seen = await events(of: stream) {
            do {
                _ = try await service(stream).checkout(order, product: mug, scenario: .deadlock)
            } catch {
                failure = await handling.handle(error, order: order)
            }
        }
        #expect(failure?.status == 503)
        #expect(failure?.retryAfterSeconds == 1)
        #expect(failure?.handled == false)
        #expect(seen.map { Classification(of: $0.error).code } == ["D-40001"])
        var outcomes: [String] = []
        for await report in reports { outcomes.append(report.outcome.description) }
        #expect(outcomes == ["unhandled"])
    }

    @Test func anImpossibleStateIsReportedOnceAsABugAndAnswered500() async throws {
        let stream = ErrorStream()
        let handling = ShopErrorHandling(stream: stream, logger: quiet)
        var failure: CheckoutFailure?
        let seen = await events(of: stream) {
            do {
                _ = try await service(stream).checkout(order, product: mug, scenario: .impossibleState)
            } catch {
                failure = await handling.handle(error, order: order)
            }
        }
        #expect(failure?.status == 500)
        #expect(failure?.code == "B-0")
        #expect(seen.count == 1)  // reportBug's event only: the tree does not broadcast it again
        #expect(seen.first?.error is BugReport)
        #expect(seen.first?.location?.file == "ShopCore/CheckoutService.swift")
    }

    @Test func anUnknownProductIsAnInvalidOrderAndNotBroadcast() async {
        let stream = ErrorStream()
        let seen = await events(of: stream) {
            await #expect(throws: InvalidOrder.self) {
                try await service(stream).checkout(Order(sku: "yacht"))
            }
        }
        #expect(seen.isEmpty)
    }
}
