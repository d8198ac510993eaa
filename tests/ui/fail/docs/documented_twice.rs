// An argument documented on the parameter and in `# Arguments` is reported.
struct Weather;

#[mcs::tool_driver]
impl Weather {
    /// Current temperature.
    ///
    /// # Arguments
    ///
    /// * `city` - The city.
    #[tool]
    fn temperature(
        &self,
        /// The city's name.
        city: String,
    ) -> f64 {
        city.len() as f64
    }
}

fn main() {}
