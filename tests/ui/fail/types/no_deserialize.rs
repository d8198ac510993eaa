// A parameter type without `Deserialize` is reported on the parameter's type.
#[derive(schemars::JsonSchema)]
struct Point {
    x: f64,
}

struct Geo;

#[mcs::tool_driver]
impl Geo {
    /// Moves a point.
    #[tool]
    fn shift(&self, point: Point) -> f64 {
        point.x
    }
}

fn main() {}
