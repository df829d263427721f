-- wrk script: POST /checkout with a rotating product and quantity, as Tests/e2e/shop_server.sh and
-- docs/benchmarks-shop.md drive the ShopServer. No Lua runs per response, so wrk's own cost stays low.
local skus = { "mug", "tee", "cap", "sticker", "hoodie", "bottle" }
local sent = 0

wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"

request = function()
    sent = sent + 1
    local body = string.format('{"sku":"%s","quantity":%d,"card":"4242"}', skus[(sent % #skus) + 1], (sent % 3) + 1)
    return wrk.format(nil, nil, nil, body)
end
