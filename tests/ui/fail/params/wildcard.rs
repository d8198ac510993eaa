// A `_` parameter has no name to become the argument's key; the error is on `_`.
struct Geo;

#[mcs::tool_driver]
impl Geo {
    /// Always zero.
    #[tool]
    fn zero(&self, _: f64) -> f64 {
        0.0
    }
}

fn main() {}
