// What a tool does to the world, said once on the method, reaches its `Tool`.
use mcs::{ToolAnnotations, ToolDriver};

struct Disk;

#[mcs::tool_driver]
impl Disk {
    /// Reads a block.
    #[tool(read_only, open_world = false)]
    fn read_block(&self) -> u32 {
        0
    }

    /// Wipes the disk.
    #[tool(destructive, idempotent, read_only = false)]
    fn wipe(&self) -> u32 {
        0
    }

    /// Says nothing of itself.
    #[tool]
    fn plain(&self) -> u32 {
        0
    }
}

fn main() {
    let tools = Disk.list_tools();
    assert_eq!(
        *tools[0].annotations(),
        ToolAnnotations::new().read_only(true).open_world(false)
    );
    assert_eq!(
        *tools[1].annotations(),
        ToolAnnotations::new().read_only(false).destructive(true).idempotent(true)
    );
    assert!(tools[2].annotations().is_empty());
}
