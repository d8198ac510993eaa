// `#[arg(default)]` together with `#[arg(flatten)]` is rejected on `default`.
#[derive(Default, serde::Deserialize, schemars::JsonSchema)]
struct Page {
    offset: u32,
}

struct Lister;

#[mcs::tool_driver]
impl Lister {
    /// Lists things.
    #[tool]
    fn list(&self, #[arg(flatten, default)] page: Page) -> u32 {
        page.offset
    }
}

fn main() {}
