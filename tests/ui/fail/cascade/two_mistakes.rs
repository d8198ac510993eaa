// Independent mistakes are all reported in one run, each once, in source order.
struct Files;

#[mcs::tool_driver(nmae = "files")]
impl Files {
    /// Lists files.
    #[tool]
    fn list(&mut self, dir: &str) -> u32 {
        dir.len() as u32
    }

    #[tool]
    fn count(&self) -> u32 {
        0
    }
}

fn main() {}
