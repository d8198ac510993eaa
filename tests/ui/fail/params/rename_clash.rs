// `#[arg(name = "...")]` giving a parameter the key of another one is rejected on the rename.
struct Search;

#[mcs::tool_driver]
impl Search {
    /// Searches.
    #[tool]
    fn find(&self, query: String, #[arg(name = "query")] filter: String) -> String {
        query + &filter
    }
}

fn main() {}
