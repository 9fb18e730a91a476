//! The LoRA adapters a caller may run: those served that its tenant's `lora_adapters` allow.
//! To a caller, an adapter it may not run is one not served: refused as unknown and left out
//! of model lists, so no tenant learns another's adapter names.

use crate::handle::{AdapterInfo, EngineHandle};
use crate::tenants::Caller;

/// The number of the adapter `name`, if it is served and `caller` may run it.
pub(crate) fn usable_adapter(engine: &EngineHandle, caller: &Caller, name: &str) -> Option<u32> {
    engine
        .adapter(name)
        .filter(|_| caller.may_use_adapter(name))
}

/// The adapters served that `caller` may run, by number.
pub(crate) fn usable_adapters(engine: &EngineHandle, caller: &Caller) -> Vec<AdapterInfo> {
    (engine.adapters().into_iter())
        .filter(|a| caller.may_use_adapter(&a.name))
        .collect()
}
