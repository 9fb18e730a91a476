//! LoRA adapters loaded and unloaded while serving. A load adds weights read off this thread.
//! An unloaded adapter takes no new request (one already on its way ends with an error); its
//! weights and cached prefixes go once no request uses it, and its number is never given
//! out again, so no request can run an adapter it did not name.

use super::Scheduler;
use crate::io::GenerateError;
use crate::model::lora::LoraAdapter;
use crate::model::ForwardModel;

impl<M: ForwardModel> Scheduler<M> {
    /// Adds `adapter` (a `LoraAdapter`) to the model; its pages on disk are named by
    /// `sha256`, its metrics by `name`.
    pub(super) fn add_adapter(
        &mut self,
        adapter: Box<dyn std::any::Any + Send>,
        name: String,
        sha256: &str,
    ) -> Result<u32, String> {
        let adapter = adapter
            .downcast::<LoraAdapter>()
            .map_err(|_| "not a LoRA adapter".to_string())?;
        let id = self
            .model
            .add_adapter(*adapter)
            .map_err(|e| e.to_string())?;
        if let Some(disk) = self.disk.as_mut() {
            disk.name_adapter(id, sha256);
        }
        let index = id as usize;
        if self.adapter_names.len() <= index {
            self.adapter_names.resize(index + 1, String::new());
        }
        self.adapter_names[index] = name;
        Ok(id)
    }

    /// Takes no new request for adapter `id` and drops it once none uses it.
    pub(super) fn unload_adapter(&mut self, id: u32) {
        if self.retired_adapters.insert(id) {
            self.retiring_adapters.push(id);
        }
        self.drop_unused_adapters();
    }

    /// Why a request of adapter `adapter` may not enter the engine, if it may not.
    pub(super) fn adapter_error(&self, adapter: Option<u32>) -> Option<GenerateError> {
        let id = adapter?;
        self.retired_adapters.contains(&id).then(|| {
            GenerateError::Invalid("its LoRA adapter was unloaded on the request's way in".into())
        })
    }

    /// Drops the weights and cached prefixes of the unloaded adapters no request uses.
    pub(super) fn drop_unused_adapters(&mut self) {
        // A runner that takes adapters completes each launch (the CPU model): a batch in
        // flight needs no adapter weights any more, only requests still to run do.
        if self.retiring_adapters.is_empty() {
            return;
        }
        let in_use = |s: &Self, id: u32| {
            let uses = |r: &super::req::Req| r.adapter == Some(id);
            s.waiting.iter().chain(&s.running).any(uses) || s.loading_uses_adapter(id)
        };
        let unused: Vec<u32> = (self.retiring_adapters.iter().copied())
            .filter(|&id| !in_use(self, id))
            .collect();
        for id in unused {
            self.retiring_adapters.retain(|&r| r != id);
            if let Err(e) = self.model.remove_adapter(id) {
                tracing::warn!("unloading LoRA adapter {id}: {e}");
            }
            // Its K/V serves no one any more; the disk tier's pages stay, named by the file.
            self.forget_states(|n| n.adapter == Some(id));
            let tree = self.cache.tree();
            let namespaces: Vec<_> = (tree.namespace_ids())
                .filter(|&ns| tree.namespace(ns).is_some_and(|n| n.adapter == Some(id)))
                .collect();
            for ns in namespaces {
                if let Err(e) = self.cache.flush_namespace(ns) {
                    tracing::warn!("flushing LoRA adapter {id}'s cache: {e}");
                }
            }
            self.sync_salts();
        }
    }
}
