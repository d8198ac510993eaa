// `tags` takes a list of distinct, non-empty strings; each mistake is reported on its token.
struct Shop;

#[mcs::tool_driver]
impl Shop {
    /// Lists pets.
    #[tool(tags = "pets")]
    fn list_pets(&self) -> u32 {
        0
    }

    /// Adds a pet.
    #[tool(tags = ["pets", ""])]
    fn add_pet(&self) -> u32 {
        0
    }

    /// Places an order.
    #[tool(tags = ["orders", "billing", "orders"])]
    fn place_order(&self) -> u32 {
        0
    }

    /// Cancels an order.
    #[tool(tags = [orders])]
    fn cancel_order(&self) -> u32 {
        0
    }

    /// Refunds an order.
    #[tool(tags = ["billing"], tags = ["orders"])]
    fn refund(&self) -> u32 {
        0
    }
}

fn main() {}
