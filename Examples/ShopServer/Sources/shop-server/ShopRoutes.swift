import ErrorStreaming
import ErrorStreamingMetrics
import Foundation
import Hummingbird
import Prometheus
import ShopCore
import Tracing

/// The shop's HTTP face: `GET /products`, `POST /checkout` and `GET /metrics`.
struct ShopRoutes: Sendable {
    /// The body of every failed request.
    struct Problem: Codable, Sendable {
        /// The error's code (`P-402`), or `invalid-order` for a request the shop cannot read.
        let code: String
        /// The sentence for the customer.
        let message: String
    }

    /// The body of `GET /products`.
    struct ProductList: Codable, Sendable {
        let products: [Product]
    }

    let checkout: CheckoutService
    let handling: ShopErrorHandling
    let recorder: ErrorMetricsRecorder
    let registry: PrometheusCollectorRegistry
    /// Called before each scrape, to bring gauges the routes do not own up to date.
    let beforeScrape: @Sendable () -> Void
    /// With `--otel`: where the exceptions recorded on request spans are counted. `nil` leaves the router
    /// uninstrumented.
    var exceptions: RecordedExceptions? = nil

    /// The router with the three routes; with `exceptions`, Hummingbird's tracing and metrics middleware first.
    func router() -> Router<BasicRequestContext> {
        let router = Router()
        if exceptions != nil {
            // A server span per request (named after its route, with its method and status) and swift-metrics'
            // request counters and durations, both exported by swift-otel.
            router.add(middleware: TracingMiddleware())
            router.add(middleware: MetricsMiddleware())
        }
        router.get("products") { request, context in
            try context.responseEncoder.encode(
                ProductList(products: checkout.catalog.products), from: request, context: context)
        }
        router.post("checkout") { request, context in
            try await placeOrder(request, context: context)
        }
        router.get("metrics") { _, _ in
            scrape()
        }
        return router
    }

    /// `POST /checkout`: `201` with the receipt, or the status a shop answers for the failure, with its code.
    private func placeOrder(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let order: Order
        do {
            order = try await request.decode(as: Order.self, context: context)
        } catch {
            return try respond(.badRequest, Problem(code: "invalid-order", message: "\(error)"), request, context)
        }
        do {
            let receipt = try await checkout.checkout(order)
            return try respond(.created, receipt, request, context)
        } catch let invalid as InvalidOrder {
            return try respond(
                .badRequest, Problem(code: "invalid-order", message: invalid.description), request, context)
        } catch {
            let failure = await handling.handle(error, order: order)
            recordOnRequestSpan(error, failure: failure)
            var response = try respond(
                HTTPResponse.Status(code: failure.status), Problem(code: failure.code, message: failure.message),
                request, context)
            if let seconds = failure.retryAfterSeconds { response.headers[.retryAfter] = String(seconds) }
            return response
        }
    }

    /// With `--otel`, records the failure as an exception on the request's span (the one `TracingMiddleware`
    /// started), in the shop's words, and counts it.
    private func recordOnRequestSpan(_ error: any Error, failure: CheckoutFailure) {
        guard let exceptions,
            let span = InstrumentationSystem.tracer.activeSpan(identifiedBy: ServiceContext.current ?? .topLevel)
        else { return }
        let exception = CheckoutException(error, failure: failure)
        exception.record(on: span)
        exceptions.add(type: exception.type)
    }

    /// `GET /metrics`: the registry in Prometheus' text format, gauges refreshed first.
    private func scrape() -> Response {
        recorder.refreshGauges()
        beforeScrape()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(4_096)
        registry.emit(into: &bytes)
        return Response(
            status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    private func respond(
        _ status: HTTPResponse.Status, _ body: some Encodable, _ request: Request, _ context: BasicRequestContext
    ) throws -> Response {
        var response = try context.responseEncoder.encode(body, from: request, context: context)
        response.status = status
        return response
    }
}
