/// One product the shop sells.
public struct Product: Codable, Sendable, Hashable {
    /// The stock-keeping unit, the product's stable id (`mug`).
    public let sku: String
    /// The name shown to customers.
    public let name: String
    /// The price in cents, so no rounding ever happens.
    public let priceCents: Int

    /// Creates a product.
    public init(sku: String, name: String, priceCents: Int) {
        self.sku = sku
        self.name = name
        self.priceCents = priceCents
    }
}

/// What the shop sells: a fixed list, looked up by SKU.
///
/// ```swift
/// let catalog = Catalog.standard
/// catalog.product(sku: "mug")?.priceCents   // 1200
/// ```
public struct Catalog: Sendable {
    /// The products in display order.
    public let products: [Product]
    private let bySKU: [String: Product]

    /// Creates a catalog; a later product with an SKU already listed replaces nothing and is ignored.
    public init(products: [Product]) {
        self.products = products
        self.bySKU = Dictionary(products.map { ($0.sku, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The product with this SKU, or `nil`.
    public func product(sku: String) -> Product? { bySKU[sku] }

    /// The example shop's six products.
    public static let standard = Catalog(products: [
        Product(sku: "mug", name: "Enamel mug", priceCents: 1_200),
        Product(sku: "tee", name: "Logo T-shirt", priceCents: 2_400),
        Product(sku: "cap", name: "Baseball cap", priceCents: 1_800),
        Product(sku: "sticker", name: "Sticker pack", priceCents: 400),
        Product(sku: "hoodie", name: "Zip hoodie", priceCents: 5_600),
        Product(sku: "bottle", name: "Steel bottle", priceCents: 2_200),
    ])
}

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
