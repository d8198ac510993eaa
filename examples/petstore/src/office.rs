//! What both orchestrator binaries start from: the pet shop served in-process, the Petstore
//! driver generated from `petstore.yaml` pointed at it, and a notebook written with
//! `#[mcs::tool_driver]`, registered in the orchestrator given.

use std::sync::Arc;

use mcs::orchestrator::{Orchestrator, Registration};

use crate::notebook::Notebook;
use crate::petstore::Petstore;
use crate::shop;

/// Serves the shop, registers its driver as `shop` and a new notebook as `notes_label` in
/// `office`; the notebook is returned so the binary can show what was written in it.
pub(crate) async fn open(
    office: &Orchestrator,
    notes_label: &str,
) -> Result<Arc<Notebook>, Box<dyn std::error::Error>> {
    let address = shop::serve_pet_shop().await?;
    let petstore = Petstore::new()
        .with_base_url(format!("http://{address}/v1"))
        .with_api_key(shop::API_KEY);
    let notebook = Arc::new(Notebook::default());
    office.register("shop", Arc::new(petstore), Registration::new())?;
    office.register(notes_label, notebook.clone(), Registration::new())?;
    Ok(notebook)
}
