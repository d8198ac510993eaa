//! A notebook written with `#[mcs::tool_driver]`, which the office and discovery examples put
//! beside the generated Petstore driver.

use std::sync::Mutex;

/// Notes the assistant keeps for the shop's staff.
#[derive(Default)]
pub(crate) struct Notebook {
    notes: Mutex<Vec<String>>,
}

#[mcs::tool_driver(
    name = "notebook",
    tag("notes", "Notes for the shop's staff: write one, read them all.")
)]
impl Notebook {
    /// Writes a note for the staff.
    ///
    /// # Arguments
    ///
    /// * `text` - The note, one or two sentences.
    #[tool(tags = ["notes"])]
    fn add_note(&self, text: String) -> usize {
        let mut notes = self.notes.lock().unwrap_or_else(|e| e.into_inner());
        notes.push(text);
        notes.len()
    }

    /// Every note written so far, oldest first.
    #[tool(tags = ["notes"])]
    pub(crate) fn list_notes(&self) -> Vec<String> {
        self.notes.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}
