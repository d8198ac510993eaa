// `#[arg(flatten)]` on an `Option<T>` is rejected on `flatten`.
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Page {
    offset: u32,
}

struct Lister;

#[mcs::tool_driver]
impl Lister {
    /// Lists things.
    #[tool]
    fn list(&self, #[arg(flatten)] page: Option<Page>) -> u32 {
        page.map_or(0, |p| p.offset)
    }
}

fn main() {}
