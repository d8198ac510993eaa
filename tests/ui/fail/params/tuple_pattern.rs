// A destructuring pattern cannot name an argument; the error is on the pattern.
struct Geo;

#[mcs::tool_driver]
impl Geo {
    /// Distance from the origin.
    #[tool]
    fn norm(&self, (x, y): (f64, f64)) -> f64 {
        (x * x + y * y).sqrt()
    }
}

fn main() {}
