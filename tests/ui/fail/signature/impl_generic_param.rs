// A parameter whose type uses the impl's generic parameter `T` is rejected on that type.
struct Store<T>(std::marker::PhantomData<T>);

#[mcs::tool_driver]
impl<T: Send + Sync + 'static> Store<T> {
    /// Stores a value.
    #[tool]
    fn put(&self, value: Vec<T>) -> usize {
        value.len()
    }
}

fn main() {}
