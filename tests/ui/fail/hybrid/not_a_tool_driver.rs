// #[mcs::hybrid] without #[mcs::tool_driver]: the type has no tools to offer.
struct Weather;

#[mcs::hybrid]
impl Weather {
    fn hi(&self) -> String {
        "hi".into()
    }
}

fn main() {}
