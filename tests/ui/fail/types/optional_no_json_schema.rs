// A parameter `Option<T>` whose `T` lacks `JsonSchema` is reported on the parameter's type.
#[derive(serde::Deserialize)]
struct Point {
    x: f64,
}

struct Geo;

#[mcs::tool_driver]
impl Geo {
    /// Moves a point.
    #[tool]
    fn shift(&self, point: Option<Point>) -> f64 {
        point.map_or(0.0, |p| p.x)
    }
}

fn main() {}
