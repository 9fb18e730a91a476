//! The disk tier below the KV pool, with the real model: prefixes evicted from a small pool
//! come back from disk (counted as cached tokens) and give the same greedy output as when
//! computed fresh; a restart finds them; another tenant, another K/V dtype (whose store
//! replaces this one's) or a corrupted file never yields a page; an adapter's pages come back to it
//! whatever its number; a flush removes a namespace's pages; an unwritable disk stops
//! spills while serving goes on. The engine's idle ownership check runs throughout (debug
//! assertions are on in the test profile).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use engine::handle::{
    EngineConfig, EngineHandle, GenerateEvent, GenerateRequest, KvDiskConfig, LoraSpec,
    RequestStream,
};
use engine::sampling::SamplingParams;
use engine::tenants::TenantLimits;
use pools::KvDtype;
use radix::{CacheScope, Namespace};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// A pool of ~700 tokens in f32: two 400-token prompts do not fit together.
const POOL_TOKENS: usize = 700;

fn engine_with(dir: &Path, dtype: KvDtype) -> EngineHandle {
    engine_serving(dir, dtype, 640)
}

fn engine_serving(dir: &Path, dtype: KvDtype, max_context_len: usize) -> EngineHandle {
    start_config(config_for(dir, dtype, max_context_len))
}

fn config_for(dir: &Path, dtype: KvDtype, max_context_len: usize) -> EngineConfig {
    let mut config = EngineConfig::new(common::model_path());
    config.kv_dtype = dtype;
    config.kv_budget_bytes = POOL_TOKENS * 46_080 / dtype_shrink(dtype);
    config.max_context_len = max_context_len;
    config.kv_disk = Some(KvDiskConfig {
        dir: dir.to_path_buf(),
        budget_bytes: 1 << 30,
    });
    config
}

/// The engine of `config`, serving tenants alice (0) and bob (1).
fn start_config(config: EngineConfig) -> EngineHandle {
    let engine = EngineHandle::start(config).unwrap();
    engine.set_tenant_limits(vec![
        TenantLimits::unlimited("alice"),
        TenantLimits::unlimited("bob"),
    ]);
    engine
}

fn dtype_shrink(dtype: KvDtype) -> usize {
    4 / dtype.size_bytes()
}

fn start(dir: &Path) -> EngineHandle {
    engine_with(dir, KvDtype::F32)
}

fn plain_engine() -> EngineHandle {
    let mut config = EngineConfig::new(common::model_path());
    config.kv_budget_bytes = 64 << 20;
    config.max_context_len = 640;
    EngineHandle::start(config).unwrap()
}

/// A distinct ~400-token chat prompt per `topic`.
fn prompt(engine: &EngineHandle, topic: &str) -> Vec<u32> {
    let body: String = (0..22)
        .map(|i| {
            format!(
                "Line {i} of the notes on {topic}: keep item {} in mind. ",
                i * 7
            )
        })
        .collect();
    let text = format!("<|im_start|>user\n{body}\nSummarize.<|im_end|>\n<|im_start|>assistant\n");
    let ids = engine
        .tokenizer()
        .encode_without_bos_eos(&text, true)
        .unwrap();
    assert!((350..560).contains(&ids.len()), "{} tokens", ids.len());
    ids
}

fn tenant_ns(tenant: u32) -> Namespace {
    Namespace::scoped(CacheScope::Tenant(tenant))
}

/// Greedy output ids and the number of cached prompt tokens.
fn run(engine: &EngineHandle, ids: &[u32], tenant: u32) -> (Vec<u32>, u32) {
    run_adapter(engine, ids, tenant, None)
}

/// [`run`] with LoRA adapter number `adapter`.
fn run_adapter(
    engine: &EngineHandle,
    ids: &[u32],
    tenant: u32,
    adapter: Option<u32>,
) -> (Vec<u32>, u32) {
    let mut namespace = tenant_ns(tenant);
    namespace.adapter = adapter;
    run_in(engine, ids, tenant, namespace)
}

/// [`run`] in `namespace`.
fn run_in(
    engine: &EngineHandle,
    ids: &[u32],
    tenant: u32,
    namespace: Namespace,
) -> (Vec<u32>, u32) {
    let params = SamplingParams {
        temperature: 0.0,
        max_new_tokens: 12,
        ..SamplingParams::default()
    };
    let mut request = GenerateRequest::new(ids.to_vec(), params);
    request.namespace = namespace;
    request.tenant = tenant;
    collect(engine.submit(request).unwrap())
}

fn disk_info(engine: &EngineHandle) -> engine::handle::DiskTierInfo {
    engine.server_info().kv_disk.expect("the disk tier is on")
}

/// Waits until the disk holds at least `tokens` tokens (spills are written in the background).
fn wait_for_disk(engine: &EngineHandle, tokens: u64) {
    let until = Instant::now() + Duration::from_secs(30);
    while disk_info(engine).tokens < tokens {
        assert!(
            Instant::now() < until,
            "spills never reached {tokens} tokens: {:?}",
            disk_info(engine)
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Page files under `dir`.
fn page_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        // A directory may go while this walks (the tier empties its trash).
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p
                .extension()
                .is_some_and(|x| x == pools::tier::PAGE_FILE_EXTENSION)
            {
                out.push(p);
            }
        }
    }
    out
}

fn full_pages(len: usize) -> u32 {
    // Admission looks up all prompt tokens but the last; pages are 16 tokens.
    ((len - 1) / 16 * 16) as u32
}

#[test]
fn evicted_prefixes_come_back_from_disk_with_the_same_output() {
    let dir = tempfile::tempdir().unwrap();
    let reference = plain_engine();
    let engine = start(dir.path());
    let a = prompt(&engine, "rivers");
    let b = prompt(&engine, "mountains");
    let c = prompt(&engine, "deserts");
    let (fresh_a, cached) = run(&engine, &a, 0);
    assert_eq!(cached, 0);
    assert_eq!(
        fresh_a,
        run(&reference, &a, 0).0,
        "the disk tier changes nothing on a miss"
    );
    // b and c do not fit beside a: a's prefix is evicted (least recently used), and spilled.
    let (fresh_b, _) = run(&engine, &b, 0);
    run(&engine, &c, 0);
    wait_for_disk(&engine, u64::from(full_pages(a.len())));
    let (again_a, cached) = run(&engine, &a, 0);
    assert_eq!(
        again_a, fresh_a,
        "a prefix loaded from disk gives the same greedy output"
    );
    assert!(
        cached >= full_pages(a.len()) - 16,
        "cached {cached} of {}",
        a.len()
    );
    let info = disk_info(&engine);
    assert!(info.loaded_tokens >= u64::from(cached) - 32, "{info:?}");
    assert_eq!(info.bad_pages, 0);
    // And b, evicted in turn, too.
    let (again_b, cached_b) = run(&engine, &b, 0);
    assert_eq!(again_b, fresh_b);
    assert!(cached_b > 0);
    // Another tenant with the very same prompt gets nothing from alice's pages.
    let (bob_a, bob_cached) = run(&engine, &a, 1);
    assert_eq!(bob_cached, 0, "bob must not load alice's pages");
    assert_eq!(bob_a, fresh_a);
}

/// DeepSeek's latent cache (one K row per token and layer, no V buffer) goes to disk and
/// comes back as any other: the same greedy output as when computed fresh.
#[test]
fn a_latent_caches_pages_come_back_from_disk_with_the_same_output() {
    let dir = tempfile::tempdir().unwrap();
    let model = common::family_model_path("deepseek2");
    // 3 layers of 64 + 16 latent values in f32.
    let per_token = 3 * (64 + 16) * 4;
    let config = |disk: Option<KvDiskConfig>, tokens: usize| {
        let mut config = EngineConfig::new(model.clone());
        config.kv_budget_bytes = tokens * per_token;
        config.max_context_len = 640;
        config.kv_disk = disk;
        config
    };
    let reference = EngineHandle::start(config(None, 4096)).unwrap();
    let disk = KvDiskConfig {
        dir: dir.path().to_path_buf(),
        budget_bytes: 1 << 30,
    };
    let engine = start_config(config(Some(disk), POOL_TOKENS));
    let [a, b, c] = ["rivers", "mountains", "deserts"].map(|t| prompt(&engine, t));
    let (fresh_a, _) = run(&engine, &a, 0);
    assert_eq!(engine.server_info().kv_bytes_per_token, per_token);
    assert_eq!(fresh_a, run(&reference, &a, 0).0);
    run(&engine, &b, 0);
    run(&engine, &c, 0);
    wait_for_disk(&engine, u64::from(full_pages(a.len())));
    let (again_a, cached) = run(&engine, &a, 0);
    assert_eq!(again_a, fresh_a, "latent rows loaded from disk");
    assert!(cached >= full_pages(a.len()) - 16, "cached {cached}");
    assert_eq!(disk_info(&engine).bad_pages, 0);
}

#[test]
fn a_restart_finds_the_pages_and_a_flush_removes_them() {
    let dir = tempfile::tempdir().unwrap();
    let (a, fresh_a) = {
        let engine = start(dir.path());
        let a = prompt(&engine, "harbours");
        let (out, _) = run(&engine, &a, 0);
        // Shutdown spills what the pool holds.
        engine.shutdown(Duration::from_secs(5));
        (a, out)
    };
    assert!(!page_files(dir.path()).is_empty());
    let engine = start(dir.path());
    assert!(disk_info(&engine).tokens >= u64::from(full_pages(a.len())));
    let (out, cached) = run(&engine, &a, 0);
    assert_eq!(
        out, fresh_a,
        "after a restart, same output from the disk's K/V"
    );
    assert!(cached >= full_pages(a.len()) - 16, "cached {cached}");
    assert_eq!(
        run(&engine, &a, 1).1,
        0,
        "another tenant's prefix is never loaded"
    );
    // Flushing alice's namespace removes her pages on every tier.
    tokio::runtime::Runtime::new()
        .unwrap()
        .block_on(engine.flush_cache(Some(tenant_ns(0))))
        .unwrap();
    engine.shutdown(Duration::from_secs(5));
    let engine = start(dir.path());
    let (out, cached) = run(&engine, &a, 0);
    assert_eq!(
        cached, 0,
        "flushed pages must not come back after a restart"
    );
    assert_eq!(out, fresh_a);
}

/// A tenant's flush drops its pages under every salt, also those of salts no request has
/// used since a restart (which the prefix cache does not know); another tenant's pages of
/// the same salt stay.
#[test]
fn a_tenants_flush_drops_its_salted_pages_on_disk() {
    let dir = tempfile::tempdir().unwrap();
    let salted = |tenant: u32| tenant_ns(tenant).with_salt("s1");
    let (a, fresh_a) = {
        let engine = start(dir.path());
        let a = prompt(&engine, "lighthouses");
        let (out, _) = run_in(&engine, &a, 0, salted(0));
        run_in(&engine, &a, 1, salted(1));
        engine.shutdown(Duration::from_secs(5));
        (a, out)
    };
    let engine = start(dir.path());
    // Nothing in memory names alice's salt now: her pages are found by their owner.
    tokio::runtime::Runtime::new()
        .unwrap()
        .block_on(engine.flush_cache(Some(tenant_ns(0))))
        .unwrap();
    let (out, cached) = run_in(&engine, &a, 0, salted(0));
    assert_eq!(out, fresh_a);
    assert_eq!(cached, 0, "alice's salted pages outlived her flush");
    let (_, cached) = run_in(&engine, &a, 1, salted(1));
    assert!(
        cached >= full_pages(a.len()) - 16,
        "bob's were flushed: {cached}"
    );
    common::wait_idle(&engine);
}

/// An adapter's pages are named by its file, not its number: after a restart where the other
/// adapter has its old number and it is loaded while serving under another name, each
/// adapter's prefix comes back to its own requests only, with the output it gave before.
#[test]
fn an_adapters_pages_come_back_to_that_adapter_whatever_its_number() {
    let dir = tempfile::tempdir().unwrap();
    let [a, b] = crate::lora::ADAPTERS.map(|name| {
        crate::lora::adapter_file(name); // checks the file against its fixture
        LoraSpec {
            name: name.into(),
            path: common::family_model_path(name),
        }
    });
    let with = |adapters: Vec<LoraSpec>| {
        let mut config = config_for(dir.path(), KvDtype::F32, 640);
        config.lora_paths = adapters;
        start_config(config)
    };
    let (p, fresh_a, fresh_base) = {
        let engine = with(vec![a.clone(), b.clone()]);
        let p = prompt(&engine, "orchards");
        let fresh_a = run_adapter(&engine, &p, 0, Some(0)).0;
        let fresh_base = run(&engine, &p, 0).0;
        assert_ne!(fresh_a, fresh_base, "the adapter changes this output");
        engine.shutdown(Duration::from_secs(5));
        (p, fresh_a, fresh_base)
    };
    let engine = with(vec![b]);
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let a_again = LoraSpec {
        name: "a-again".into(),
        ..a
    };
    runtime.block_on(engine.load_adapter(a_again)).unwrap();
    assert_eq!(engine.adapter("a-again"), Some(1));
    // b now has a's old number: a's pages are not b's.
    let (_, cached) = run_adapter(&engine, &p, 0, Some(0));
    assert_eq!(cached, 0, "b must not load a's pages");
    let (out, cached) = run_adapter(&engine, &p, 0, Some(1));
    assert_eq!(out, fresh_a, "a's pages give a's output");
    assert!(cached >= full_pages(p.len()) - 16, "cached {cached}");
    let (out, cached) = run(&engine, &p, 0);
    assert_eq!(out, fresh_base);
    assert!(cached >= full_pages(p.len()) - 16, "cached {cached}");
    assert_eq!(disk_info(&engine).bad_pages, 0);
    // Another tenant running a gets none of alice's a pages.
    assert_eq!(run_adapter(&engine, &p, 1, Some(1)), (fresh_a, 0));
}

#[test]
fn other_dtypes_contexts_and_corrupt_files_are_misses() {
    let dir = tempfile::tempdir().unwrap();
    let (a, fresh_a) = {
        let engine = start(dir.path());
        let a = prompt(&engine, "lanterns");
        let out = run(&engine, &a, 0).0;
        engine.shutdown(Duration::from_secs(5));
        (a, out)
    };
    // Flip one byte in the middle of every page (same size, so indexed; then refused).
    let f32_pages = page_files(dir.path());
    assert!(!f32_pages.is_empty());
    for path in &f32_pages {
        let mut bytes = std::fs::read(path).unwrap();
        let mid = bytes.len() / 2;
        bytes[mid] ^= 0x55;
        std::fs::write(path, bytes).unwrap();
    }
    {
        let engine = start(dir.path());
        let (out, cached) = run(&engine, &a, 0);
        assert_eq!(
            cached, 0,
            "a corrupt first page ends the run: nothing loaded"
        );
        assert_eq!(out, fresh_a, "corrupt pages never become K/V");
        let info = disk_info(&engine);
        assert!(info.bad_pages >= 1, "{info:?}");
        assert_eq!(info.loaded_tokens, 0);
        engine.shutdown(Duration::from_secs(5));
    }
    assert!(!page_files(dir.path()).is_empty());
    // K/V in bf16 is another fingerprint: the f32 pages are not indexed, and the f32 store
    // is removed (the directory's budget is for the model serving from it).
    {
        let engine = engine_with(dir.path(), KvDtype::Bf16);
        assert_eq!(disk_info(&engine).tokens, 0);
        assert!(page_files(dir.path()).is_empty(), "the f32 store is gone");
        assert_eq!(run(&engine, &a, 0).1, 0);
        engine.shutdown(Duration::from_secs(5));
    }
    // So is another served context (a long-context model's RoPE factors follow it).
    {
        let engine = engine_serving(dir.path(), KvDtype::F32, 600);
        assert_eq!(disk_info(&engine).tokens, 0);
        assert_eq!(run(&engine, &a, 0).1, 0);
        engine.shutdown(Duration::from_secs(5));
    }
}

#[test]
fn an_unwritable_disk_stops_spills_and_serving_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let engine = start(dir.path());
    // The store's directory (beside the lock file) becomes a plain file: every write fails
    // from now on.
    let store = std::fs::read_dir(dir.path())
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.is_dir())
        .unwrap();
    std::fs::remove_dir_all(&store).unwrap();
    std::fs::write(&store, b"not a directory").unwrap();
    let a = prompt(&engine, "orchards");
    let b = prompt(&engine, "glaciers");
    let fresh_a = run(&engine, &a, 0).0;
    run(&engine, &b, 0);
    let until = Instant::now() + Duration::from_secs(30);
    while disk_info(&engine).write_errors == 0 {
        assert!(Instant::now() < until, "no write error seen");
        std::thread::sleep(Duration::from_millis(20));
    }
    let info = disk_info(&engine);
    assert!(info.spills_paused, "{info:?}");
    assert_eq!(info.tokens, 0);
    // Still serving, same answers.
    assert_eq!(run(&engine, &a, 0).0, fresh_a);
}

/// Submits `prompt` for tenant 0 (greedy, 12 tokens) and waits until it waits for the
/// disk.
fn submit_and_wait_for_disk(engine: &EngineHandle, prompt: &[u32]) -> RequestStream {
    let mut request = GenerateRequest::new(prompt.to_vec(), SamplingParams::greedy(12));
    request.namespace = tenant_ns(0);
    let stream = engine.submit(request).unwrap();
    let until = Instant::now() + Duration::from_secs(20);
    while disk_info(engine).loading_requests == 0 {
        assert!(
            Instant::now() < until,
            "the request never waited for the disk"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    stream
}

/// Swaps every page file under `dir` for a FIFO, so that a read of it blocks until
/// [`release_fifos`]; returns their paths.
fn pages_to_fifos(dir: &Path) -> Vec<PathBuf> {
    use std::os::unix::ffi::OsStrExt;
    let pages = page_files(dir);
    assert!(!pages.is_empty());
    for page in &pages {
        std::fs::remove_file(page).unwrap();
        let path = std::ffi::CString::new(page.as_os_str().as_bytes()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(path.as_ptr(), 0o600) }, 0);
    }
    pages
}

/// Ends the blocked read of each FIFO (it reads an empty page: a miss).
fn release_fifos(pages: &[PathBuf]) {
    use std::os::unix::fs::OpenOptionsExt;
    for page in pages {
        let _ = std::fs::OpenOptions::new()
            .write(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(page);
    }
}

/// A read that never ends (a hung disk) does not hold its request: after the read timeout
/// the prompt is computed, with the same output; while that read is late no request waits
/// for the disk; once it ends, pages are read again.
#[test]
fn a_hung_read_is_given_up_and_its_prompt_computed() {
    let dir = tempfile::tempdir().unwrap();
    let engine = start(dir.path());
    let a = prompt(&engine, "harbours");
    let b = prompt(&engine, "forests");
    let fresh_a = run(&engine, &a, 0).0;
    run(&engine, &b, 0);
    run(&engine, &prompt(&engine, "volcanoes"), 0);
    wait_for_disk(&engine, u64::from(full_pages(a.len())));
    let pages = pages_to_fifos(dir.path());
    let stream = submit_and_wait_for_disk(&engine, &a);
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || tx.send(collect(stream)));
    let (out, cached) = rx
        .recv_timeout(Duration::from_secs(30))
        .expect("the request still waits for its read");
    assert_eq!(out, fresh_a, "computed as before");
    assert!(cached < 16, "no page came from the disk: {cached}");
    assert_eq!(disk_info(&engine).loaded_tokens, 0);
    // The read is still blocked: another prompt with pages on disk does not wait for it.
    let mut request = GenerateRequest::new(b.clone(), SamplingParams::greedy(12));
    request.namespace = tenant_ns(0);
    let stream = engine.submit(request).unwrap();
    let until = Instant::now() + Duration::from_secs(1);
    while Instant::now() < until {
        assert_eq!(
            disk_info(&engine).loading_requests,
            0,
            "it waits for the disk"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(collect(stream).1 < 16);
    release_fifos(&pages);
    // Reads start again once the late one ended: a prompt spilled from now on comes back.
    let c = prompt(&engine, "canyons");
    run(&engine, &c, 0);
    let until = Instant::now() + Duration::from_secs(60);
    loop {
        // Two other prompts push `c` out of the pool, and its pages are written.
        let spilled = disk_info(&engine).spilled_tokens;
        run(&engine, &prompt(&engine, "meadows"), 0);
        run(&engine, &prompt(&engine, "islands"), 0);
        while disk_info(&engine).spilled_tokens == spilled {
            assert!(Instant::now() < until, "nothing spilled");
            std::thread::sleep(Duration::from_millis(20));
        }
        run(&engine, &c, 0);
        if disk_info(&engine).loaded_tokens > 0 {
            break;
        }
        assert!(Instant::now() < until, "no page was read again");
    }
}

/// Greedy output ids and cached prompt tokens of a submitted request.
fn collect(mut stream: RequestStream) -> (Vec<u32>, u32) {
    let mut out = Vec::new();
    loop {
        match stream.blocking_next().expect("an event") {
            GenerateEvent::Chunk { token_ids, .. } => out.extend(token_ids),
            GenerateEvent::Finished(done) => return (out, done.usage.cached_tokens),
            GenerateEvent::Error(e) => panic!("{e}"),
        }
    }
}

/// A request waiting for its pages to be read ends as soon as it is aborted, not when the
/// read does (which may be never): its page files are swapped for FIFOs, so the read
/// blocks until the test opens them for writing.
#[test]
fn an_abort_ends_a_request_whose_pages_are_still_being_read() {
    let dir = tempfile::tempdir().unwrap();
    let engine = start(dir.path());
    let a = prompt(&engine, "rivers");
    run(&engine, &a, 0);
    run(&engine, &prompt(&engine, "mountains"), 0);
    run(&engine, &prompt(&engine, "deserts"), 0);
    wait_for_disk(&engine, u64::from(full_pages(a.len())));
    let pages = pages_to_fifos(dir.path());
    let mut stream = submit_and_wait_for_disk(&engine, &a);
    // Waiting for its pages, it is its tenant's waiting request too (the tenant's queue
    // limits count it).
    let info = engine.server_info();
    let tenants_waiting: usize = info.tenants.iter().map(|t| t.waiting_requests).sum();
    assert_eq!(info.waiting_requests, 1, "{info:?}");
    assert_eq!(tenants_waiting, 1, "{:?}", info.tenants);
    engine.abort(&stream.rid);
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let last = loop {
            match stream.blocking_next() {
                Some(GenerateEvent::Chunk { .. }) => continue,
                other => break other,
            }
        };
        let _ = tx.send(last);
    });
    let last = rx.recv_timeout(Duration::from_secs(10));
    // The snapshot is published at the end of the step that sent the final event.
    let until = Instant::now() + Duration::from_secs(5);
    let mut info = engine.server_info();
    while info.kv_disk.as_ref().map(|d| d.loading_requests) != Some(0) && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(10));
        info = engine.server_info();
    }
    // Let the blocked read finish (an empty page: a miss) before anything else.
    release_fifos(&pages);
    let last = last.expect("the aborted request did not end while its read was blocked");
    assert!(
        matches!(last, Some(GenerateEvent::Finished(ref c)) if c.finish_reason.is_abort()),
        "{last:?}"
    );
    assert_eq!(info.kv_disk.map(|d| d.loading_requests), Some(0));
    assert_eq!((info.running_requests, info.waiting_requests), (0, 0));
    // Served as before once the disk answers again.
    assert!(!run(&engine, &a, 0).0.is_empty());
}

/// Tenant 0 asks for a prompt whose pages are on disk, and tenant `flushed`'s namespace is
/// flushed while they are read: the request's output, its cached tokens, and the tokens
/// loaded from disk meanwhile. The page files are swapped for FIFOs holding the pages'
/// bytes, written only after the flush (the test's own read-write ends keep the FIFOs alive
/// if the flush unlinks them).
fn flush_while_reading(flushed: u32) -> (Vec<u32>, Vec<u32>, u32, u64) {
    use std::io::Write;
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().unwrap();
    let engine = start(dir.path());
    let a = prompt(&engine, "glaciers");
    let (fresh_a, _) = run(&engine, &a, 0);
    run(&engine, &prompt(&engine, "volcanoes"), 0);
    run(&engine, &prompt(&engine, "lagoons"), 0);
    // Tenant 1's namespace exists too.
    run(&engine, &prompt(&engine, "tundras"), 1);
    wait_for_disk(&engine, u64::from(full_pages(a.len())));
    let pages = page_files(dir.path());
    assert!(!pages.is_empty());
    let mut fifos = Vec::new();
    for page in &pages {
        let bytes = std::fs::read(page).unwrap();
        std::fs::remove_file(page).unwrap();
        let path = std::ffi::CString::new(page.as_os_str().as_bytes()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(path.as_ptr(), 0o600) }, 0);
        // Read-write: opens at once, and the disk reader's open finds a writer.
        let end = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(page)
            .unwrap();
        fifos.push((end, bytes));
    }
    let loaded_before = disk_info(&engine).loaded_tokens;
    let mut stream = submit_and_wait_for_disk(&engine, &a);
    tokio::runtime::Runtime::new()
        .unwrap()
        .block_on(engine.flush_cache(Some(tenant_ns(flushed))))
        .unwrap();
    // The read goes on with the pages as they were: each FIFO gets its page, then ends
    // (one writer each: a page is more than a pipe holds, and the reader takes them in its
    // own order).
    for (mut end, bytes) in fifos {
        std::thread::spawn(move || {
            let _ = end.write_all(&bytes);
        });
    }
    let (mut out, mut cached) = (Vec::new(), None);
    while cached.is_none() {
        match stream.blocking_next().expect("an event") {
            GenerateEvent::Chunk { token_ids, .. } => out.extend(token_ids),
            GenerateEvent::Finished(done) => cached = Some(done.usage.cached_tokens),
            GenerateEvent::Error(e) => panic!("{e}"),
        }
    }
    let loaded = disk_info(&engine).loaded_tokens - loaded_before;
    (fresh_a, out, cached.unwrap_or_default(), loaded)
}

/// A flush of the request's namespace while its pages are being read drops them when the
/// read ends: it computes its whole prompt, and nothing flushed comes back into the cache.
/// A flush of another tenant's namespace (salts are flushed as they come and go) leaves
/// the read alone.
#[test]
fn pages_read_across_a_flush_of_their_namespace_do_not_come_back() {
    let (fresh, out, cached, loaded) = flush_while_reading(0);
    assert_eq!(out, fresh);
    assert_eq!(cached, 0, "flushed pages were restored");
    assert_eq!(loaded, 0);
    let (fresh, out, cached, loaded) = flush_while_reading(1);
    assert_eq!(out, fresh);
    assert!(
        cached > 0 && loaded > 0,
        "another tenant's flush dropped the read"
    );
}
