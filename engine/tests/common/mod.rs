//! Shared helpers for tests that run the real model: loading it (fetching it when missing)
//! and a minimal driver of the pools and the forward pass.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

pub mod equivalence;
pub mod gguf_writer;
#[cfg(feature = "cuda")]
pub mod gpu;
pub mod http;
pub mod llama_reference;
pub mod process;
pub mod scripted;
pub mod servers;

use engine::gguf::GgufFile;
use engine::handle::EngineHandle;
use engine::io::ServerInfo;
use engine::model::{ForwardBatch, ForwardModel, KvPoolSize, Model};
use engine::tokenizer::Tokenizer;
use pools::{KvCache, KvCacheConfig, KvDtype, ReqKv};
use radix::{Namespace, NsId};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// The default model's path, fetched with `scripts/fetch-model.sh` if missing.
pub fn model_path() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let path = root.join("models/SmolLM2-135M-Instruct.Q4_1.gguf");
    if !path.exists() {
        let status = Command::new(root.join("scripts/fetch-model.sh"))
            .status()
            .expect("run scripts/fetch-model.sh");
        assert!(
            status.success(),
            "scripts/fetch-model.sh failed: the model is required"
        );
    }
    path
}

/// A family's random-weight GGUF (`llama`, `qwen2`, `qwen3`, `gemma3`, `smollm3`, `phi3`),
/// generated bit-identically by `scripts/fetch-family-models.sh` when missing (it checks the
/// fixtures' sha256). On a machine that cannot run the generator (a GPU machine with no
/// network), `RADIXSERVE_FAMILY_MODELS` names a directory the files were copied to; the tests
/// still check each file's sha256 against its fixture.
pub fn family_model_path(family: &str) -> PathBuf {
    static DIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    let dir = DIR.get_or_init(|| {
        if let Some(dir) = std::env::var_os("RADIXSERVE_FAMILY_MODELS") {
            return PathBuf::from(dir);
        }
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let out = Command::new(root.join("scripts/fetch-family-models.sh"))
            .output()
            .expect("run scripts/fetch-family-models.sh");
        assert!(
            out.status.success(),
            "scripts/fetch-family-models.sh failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let stdout = String::from_utf8(out.stdout).unwrap();
        PathBuf::from(stdout.lines().last().unwrap().trim())
    });
    dir.join(format!("{family}.gguf"))
}

pub fn load_model() -> (Model, Tokenizer) {
    let file = GgufFile::open(model_path()).unwrap();
    let tok = Tokenizer::from_gguf_metadata(file.metadata()).unwrap();
    (Model::from_gguf(&file).unwrap(), tok)
}

/// Cosine similarity of two vectors (in f64).
pub fn cosine(a: &[f32], b: &[f32]) -> f64 {
    let dot: f64 = a.iter().zip(b).map(|(x, y)| *x as f64 * *y as f64).sum();
    let na: f64 = a.iter().map(|x| (*x as f64).powi(2)).sum::<f64>().sqrt();
    let nb: f64 = b.iter().map(|x| (*x as f64).powi(2)).sum::<f64>().sqrt();
    dot / (na * nb)
}

pub fn greedy(logits: &[f32]) -> u32 {
    let mut best = 0;
    for (i, &v) in logits.iter().enumerate() {
        if v > logits[best] {
            best = i;
        }
    }
    best as u32
}

/// Drives a model (the CPU one unless said otherwise) over real pools: admission, slot
/// allocation, batches, caching.
pub struct Runner<M: ForwardModel = Model> {
    pub model: M,
    pub cache: KvCache,
    pub kv: M::Kv,
    pub ns: NsId,
    /// The LoRA adapter every request of [`Self::extend`] runs.
    pub adapter: Option<u32>,
}

impl<M: ForwardModel> Runner<M> {
    pub fn new(model: M, page_size: usize, num_slots: usize) -> Self {
        Self::with_dtype(model, page_size, num_slots, KvDtype::F32)
    }

    pub fn with_dtype(model: M, page_size: usize, num_slots: usize, dtype: KvDtype) -> Self {
        Self::sized(model, page_size, num_slots, dtype, 2048)
    }

    /// A runner whose requests may hold up to `max_context_len` tokens.
    pub fn sized(
        model: M,
        page_size: usize,
        num_slots: usize,
        dtype: KvDtype,
        max_context_len: usize,
    ) -> Self {
        let size = KvPoolSize {
            num_slots,
            req_rows: 8,
            max_context_len,
        };
        let kv = model.new_kv(model.kv_layout(dtype), size).unwrap();
        let mut cache = KvCache::new(KvCacheConfig {
            max_running_requests: size.req_rows,
            max_context_len: size.max_context_len,
            num_slots,
            page_size,
        })
        .unwrap();
        let ns = cache.namespace_id(&Namespace::global());
        Self {
            model,
            cache,
            kv,
            ns,
            adapter: None,
        }
    }

    pub fn admit_uncached(&mut self) -> ReqKv {
        self.cache.admit(self.ns, &[]).unwrap()
    }

    pub fn admit(&mut self, key: &[u32]) -> ReqKv {
        self.cache.admit(self.ns, key).unwrap()
    }

    /// Computes each request's tokens beyond its `kv_len` in one batch; returns each
    /// request's last-token logits.
    pub fn extend(&mut self, reqs: &mut [(&mut ReqKv, &[u32])]) -> Vec<Vec<f32>> {
        self.try_extend(reqs).unwrap()
    }

    /// [`Self::extend`], the model's refusal returned as its message.
    pub fn try_extend(
        &mut self,
        reqs: &mut [(&mut ReqKv, &[u32])],
    ) -> Result<Vec<Vec<f32>>, String> {
        let mut batch = ForwardBatch::default();
        for (req, tokens) in reqs.iter_mut() {
            let start = req.kv_len();
            self.cache.alloc_tokens(req, tokens.len() - start).unwrap();
            let row = req.row_index() as u32;
            let slots = self.cache.slots(req);
            batch.push_request(
                row,
                &tokens[start..],
                start as u32,
                &slots[start..],
                slots,
                true,
            );
            batch.adapters.push(self.adapter);
        }
        let vocab = self.model.vocab_size();
        let logits = (self.model.forward(&batch, &mut self.kv)).map_err(|e| e.to_string())?;
        Ok(logits.chunks_exact(vocab).map(<[f32]>::to_vec).collect())
    }

    /// Greedy continuation of `steps` tokens after `prompt` whose last logits are `logits`.
    pub fn greedy_decode(
        &mut self,
        req: &mut ReqKv,
        prompt: &[u32],
        logits: &[f32],
        steps: usize,
    ) -> Vec<u32> {
        let mut seq = prompt.to_vec();
        let mut out = Vec::new();
        let mut last = logits.to_vec();
        for i in 0..steps {
            let next = greedy(&last);
            out.push(next);
            seq.push(next);
            if i + 1 < steps {
                last = self.extend(&mut [(req, &seq)]).remove(0);
            }
        }
        out
    }

    pub fn finish(&mut self, req: ReqKv, tokens: &[u32]) {
        self.cache
            .cache_finished_req(req, &tokens[..tokens.len()])
            .unwrap();
    }

    pub fn release(&mut self, req: ReqKv) {
        self.cache.release_req(req).unwrap();
    }

    pub fn flush(&mut self) {
        self.cache.flush_all().unwrap();
    }
}

/// Waits (two minutes at most) until the engine's published state satisfies `holds`: what
/// the scheduler does after a command is answered (an unloaded adapter's cache going, say)
/// shows in the next snapshot, not at once.
pub fn wait_until(engine: &EngineHandle, what: &str, holds: impl Fn(&ServerInfo) -> bool) {
    let until = Instant::now() + Duration::from_secs(120);
    while !holds(&engine.server_info()) {
        assert!(Instant::now() < until, "{what}: {:?}", engine.server_info());
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Waits (up to two minutes) until nothing runs or waits, then checks that no K/V leaked:
/// nothing protected, every slot free or held only by the prefix cache.
pub fn wait_idle(engine: &EngineHandle) {
    let until = Instant::now() + Duration::from_secs(120);
    loop {
        let info = engine.server_info();
        if info.waiting_requests == 0 && info.running_requests == 0 {
            assert_eq!(info.kv_protected_tokens, 0);
            assert_eq!(
                info.kv_free_tokens + info.kv_evictable_tokens,
                info.kv_capacity_tokens
            );
            return;
        }
        assert!(Instant::now() < until, "the engine did not go idle");
        std::thread::sleep(Duration::from_millis(5));
    }
}
