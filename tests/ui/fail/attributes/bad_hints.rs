// `read_only`, `destructive`, `idempotent` and `open_world` are flags or take `true`/`false`;
// each mistake is reported on its token.
struct Disk;

#[mcs::tool_driver]
impl Disk {
    /// Reads a block.
    #[tool(read_only = "yes")]
    fn read_block(&self) -> u32 {
        0
    }

    /// Wipes the disk.
    #[tool(destructive = 1)]
    fn wipe(&self) -> u32 {
        0
    }

    /// Mounts the disk.
    #[tool(idempotent, idempotent = false)]
    fn mount(&self) -> u32 {
        0
    }

    /// Syncs the disk.
    #[tool(readonly)]
    fn sync(&self) -> u32 {
        0
    }
}

fn main() {}
