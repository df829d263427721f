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
