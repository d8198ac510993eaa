// #[mcs::hybrid] goes on the impl block, not on the type.
#[mcs::hybrid]
struct Weather;

fn main() {}
