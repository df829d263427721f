/// A customer's order, as `POST /checkout` receives it.
///
/// ```json
/// {"sku": "mug", "quantity": 2, "card": "4242"}
/// ```
public struct Order: Codable, Sendable, Hashable {
    /// The product ordered.
    public var sku: String
    /// How many, 1 to 100.
    public var quantity: Int
    /// The last digits of the card, as a shop keeps them.
    public var card: String?

    /// Creates an order.
    public init(sku: String, quantity: Int = 1, card: String? = nil) {
        self.sku = sku
        self.quantity = quantity
        self.card = card
    }
}

/// What a successful checkout answers.
public struct Receipt: Codable, Sendable, Hashable {
    /// The order's number, increasing from 1 within one run of the server.
    public let orderNumber: Int
    /// The product bought.
    public let sku: String
    /// How many.
    public let quantity: Int
    /// The total charged, in cents.
    public let totalCents: Int
    /// How many stock reservations it took (more than 1 after inventory conflicts).
    public let attempts: Int
}
