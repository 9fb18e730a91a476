//! The disk tier on its own: pages written and read back are bitwise what was spilled; the
//! byte budget evicts least recently used pages; a reopened store finds its pages (warm
//! restart); a flush removes one namespace's pages only; another namespace's key, a foreign
//! or corrupt file never yields a page; and a process killed with SIGKILL while spilling
//! leaves a store the next process uses (every page it finds verifies or is a miss).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use pools::tier::key::model_fingerprint;
use pools::tier::{DiskTier, DiskTierConfig, PageIdentity};
use std::path::Path;
use std::sync::mpsc::channel;
use std::time::{Duration, Instant};

const PAGE_TOKENS: usize = 4;

fn config(dir: &Path, page_bytes: usize, budget_pages: u64) -> DiskTierConfig {
    let file = (pools::tier::page_header_len(PAGE_TOKENS) + page_bytes) as u64;
    DiskTierConfig {
        dir: dir.to_path_buf(),
        budget_bytes: budget_pages * file,
        page_tokens: PAGE_TOKENS,
        page_bytes,
        fingerprint: model_fingerprint(b"test model", "f32"),
        max_pending_bytes: 1 << 30,
    }
}

/// The K/V stand-in of page `j` of namespace `salt`.
fn payload(j: usize, salt: u8, len: usize) -> Vec<u8> {
    (0..len)
        .map(|i| (i as u8).wrapping_mul(31) ^ (j as u8).wrapping_mul(7) ^ salt)
        .collect()
}

/// Spills the first `pages` pages of `tokens` in namespace `identity`.
fn spill(tier: &DiskTier, identity: &str, tokens: &[u32], pages: usize, salt: u8) {
    spill_owned(tier, identity, None, tokens, pages, salt);
}

/// [`spill`], the namespace owned by `owner`.
fn spill_owned(
    tier: &DiskTier,
    identity: &str,
    owner: Option<&str>,
    tokens: &[u32],
    pages: usize,
    salt: u8,
) {
    let owner = owner.map(|o| tier.tag(o));
    for (j, id) in tier
        .chain(&tier.tag(identity), tokens, pages)
        .into_iter()
        .enumerate()
    {
        assert!(tier.claim(&id.key));
        tier.spill(id, owner, payload(j, salt, tier.page_bytes()));
    }
    tier.sync();
}

/// Loads the run of pages from page `first` on; returns their payloads.
fn load(tier: &DiskTier, identity: &str, tokens: &[u32], first: usize) -> Vec<Vec<u8>> {
    let run = tier.present_run(&tier.tag(identity), tokens, first);
    load_pages(tier, run)
}

fn load_pages(tier: &DiskTier, run: Vec<PageIdentity>) -> Vec<Vec<u8>> {
    let (tx, rx) = channel();
    tier.load(
        run,
        Box::new(move |pages| {
            tx.send(pages).unwrap();
        }),
    );
    rx.recv_timeout(Duration::from_secs(30)).unwrap()
}

fn tokens(n: usize, base: u32) -> Vec<u32> {
    (0..n as u32).map(|i| base + i * 3).collect()
}

#[test]
fn pages_round_trip_within_budget_and_survive_a_reopen() {
    let dir = tempfile::tempdir().unwrap();
    let t = tokens(32, 5);
    {
        let tier = DiskTier::open(config(dir.path(), 256, 6)).unwrap();
        spill(&tier, "global", &t, 8, 0);
        let s = tier.stats();
        assert_eq!(
            (s.pages, s.written_pages, s.evicted_pages),
            (6, 8, 2),
            "{s:?}"
        );
        // The two oldest (pages 0 and 1) went: the run from page 0 is empty, from 2 whole.
        assert!(load(&tier, "global", &t, 0).is_empty());
        let got = load(&tier, "global", &t, 2);
        assert_eq!(got.len(), 6);
        for (i, page) in got.iter().enumerate() {
            assert_eq!(page, &payload(i + 2, 0, 256), "page {} bitwise", i + 2);
        }
        // A page already on disk is not claimed again.
        let chain = tier.chain(&tier.tag("global"), &t, 8);
        assert!(!tier.claim(&chain[5].key));
    }
    let tier = DiskTier::open(config(dir.path(), 256, 6)).unwrap();
    assert_eq!(tier.stats().pages, 6, "a reopened store indexes its files");
    let got = load(&tier, "global", &t, 2);
    assert_eq!(got.len(), 6);
    assert_eq!(got[5], payload(7, 0, 256));
    // A smaller budget on reopen drops the least recently used.
    drop(tier);
    let tier = DiskTier::open(config(dir.path(), 256, 3)).unwrap();
    assert_eq!(tier.stats().pages, 3);
}

#[test]
fn namespaces_never_share_and_flush_removes_only_one() {
    let dir = tempfile::tempdir().unwrap();
    let tier = DiskTier::open(config(dir.path(), 128, 100)).unwrap();
    let t = tokens(16, 9);
    spill(&tier, "tenant:1:a", &t, 4, 1);
    spill(&tier, "tenant:1:b", &t, 4, 2);
    assert_eq!(
        load(&tier, "tenant:1:a", &t, 0),
        (0..4).map(|j| payload(j, 1, 128)).collect::<Vec<_>>()
    );
    assert_eq!(load(&tier, "tenant:1:b", &t, 0)[3], payload(3, 2, 128));
    assert!(
        load(&tier, "tenant:1:c", &t, 0).is_empty(),
        "unknown namespace: nothing"
    );
    // b asks for a's exact key (a guessed or leaked key): the file's namespace differs.
    let a_run = tier.present_run(&tier.tag("tenant:1:a"), &t, 0);
    let b_tag = tier.tag("tenant:1:b");
    let forged: Vec<PageIdentity> = a_run
        .iter()
        .map(|id| PageIdentity {
            tag: b_tag,
            ..id.clone()
        })
        .collect();
    assert!(load_pages(&tier, forged).is_empty());
    tier.flush_namespace(&tier.tag("tenant:1:a"));
    tier.sync();
    assert!(load(&tier, "tenant:1:a", &t, 0).is_empty());
    assert_eq!(load(&tier, "tenant:1:b", &t, 0).len(), 4, "b is untouched");
    drop(tier);
    let tier = DiskTier::open(config(dir.path(), 128, 100)).unwrap();
    assert_eq!(tier.stats().pages, 4, "a's files are gone from disk too");
    tier.flush_all();
    tier.sync();
    drop(tier);
    let tier = DiskTier::open(config(dir.path(), 128, 100)).unwrap();
    assert_eq!(tier.stats().pages, 0);
}

/// An owner's flush removes the pages of every namespace it owns (a tenant's under each of
/// its salts), also those a store reopened found on disk, and no other owner's.
#[test]
fn an_owners_flush_removes_all_it_owns_after_a_reopen_too() {
    let dir = tempfile::tempdir().unwrap();
    let t = tokens(16, 9);
    let namespaces = [
        ("tenant:1:a/salt:1:x", Some("owner/a"), 1),
        ("tenant:1:a/salt:1:y", Some("owner/a"), 2),
        ("tenant:1:b/salt:1:x", Some("owner/b"), 3),
        ("tenant:1:c", None, 4),
    ];
    {
        let tier = DiskTier::open(config(dir.path(), 128, 100)).unwrap();
        for (identity, owner, salt) in namespaces {
            spill_owned(&tier, identity, owner, &t, 4, salt);
        }
    }
    let tier = DiskTier::open(config(dir.path(), 128, 100)).unwrap();
    assert_eq!(tier.stats().pages, 16);
    tier.flush_owner(&tier.tag("owner/a"));
    tier.sync();
    for (identity, owner, salt) in namespaces {
        let pages = load(&tier, identity, &t, 0);
        if owner == Some("owner/a") {
            assert!(pages.is_empty(), "{identity} was flushed");
        } else {
            assert_eq!(pages[3], payload(3, salt, 128), "{identity} stays");
        }
    }
    drop(tier);
    let tier = DiskTier::open(config(dir.path(), 128, 100)).unwrap();
    assert_eq!(tier.stats().pages, 8, "a's files are gone from disk too");
}

#[test]
fn corrupt_and_foreign_files_are_misses_and_are_removed() {
    let dir = tempfile::tempdir().unwrap();
    let t = tokens(16, 1);
    {
        let tier = DiskTier::open(config(dir.path(), 128, 100)).unwrap();
        spill(&tier, "global", &t, 4, 0);
    }
    let mut files: Vec<_> = walk(dir.path());
    files.sort();
    assert_eq!(files.len(), 4);
    // Flip a payload byte of the third page of the chain: pages 0-1 load, the run stops.
    let tier = DiskTier::open(config(dir.path(), 128, 100)).unwrap();
    let third = tier.present_run(&tier.tag("global"), &t, 2)[0].key.hex();
    drop(tier);
    let victim = files
        .iter()
        .find(|p| p.to_string_lossy().contains(&third))
        .unwrap();
    let mut bytes = std::fs::read(victim).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(victim, &bytes).unwrap();
    let tier = DiskTier::open(config(dir.path(), 128, 100)).unwrap();
    let got = load(&tier, "global", &t, 0);
    assert_eq!(got, vec![payload(0, 0, 128), payload(1, 0, 128)]);
    assert_eq!(tier.stats().bad_pages, 1);
    assert!(!victim.exists(), "a bad page is deleted");
    // A truncated file is not even indexed (its size is wrong).
    let second = files.iter().find(|p| p.exists() && *p != victim).unwrap();
    let bytes = std::fs::read(second).unwrap();
    std::fs::write(second, &bytes[..bytes.len() / 2]).unwrap();
    drop(tier);
    let tier = DiskTier::open(config(dir.path(), 128, 100)).unwrap();
    assert_eq!(tier.stats().pages, 2);
}

/// One store per directory at a time: a second open (here in the same process, which
/// `flock` treats like another) waits briefly, then is refused by name; once the first is
/// closed the directory opens again, with what it wrote.
#[test]
fn a_directory_in_use_is_refused_until_its_store_closes() {
    let dir = tempfile::tempdir().unwrap();
    let t = tokens(16, 3);
    let tier = DiskTier::open(config(dir.path(), 128, 100)).unwrap();
    spill(&tier, "global", &t, 4, 0);
    let mut other = config(dir.path(), 128, 100);
    other.fingerprint = model_fingerprint(b"test model", "bf16");
    for second in [config(dir.path(), 128, 100), other] {
        let refused = DiskTier::open(second).err().map(|e| e.to_string());
        assert!(
            refused.as_deref().is_some_and(|m| m.contains("in use")),
            "{refused:?}"
        );
    }
    drop(tier);
    let tier = DiskTier::open(config(dir.path(), 128, 100)).unwrap();
    assert_eq!(tier.stats().pages, 4);
}

/// A flush takes the namespace's pages out of the store's sight before it returns, with
/// writes queued before it still in flight: a process killed right after a flush (before
/// the writer deletes anything) restarts without them. `scan_as_restart` reads the directory
/// as a restart's index would.
#[test]
fn flushed_pages_are_out_of_sight_when_the_flush_returns() {
    let dir = tempfile::tempdir().unwrap();
    let tier = DiskTier::open(config(dir.path(), 4096, 1000)).unwrap();
    let t = tokens(64, 5);
    spill(&tier, "tenant:1:a", &t, 16, 1);
    spill(&tier, "tenant:1:b", &t, 16, 2);
    // More of a's pages still queued while it is flushed.
    let late = tokens(64, 6);
    let run = tier.chain(&tier.tag("tenant:1:a"), &late, 16);
    for (j, id) in run.into_iter().enumerate() {
        if tier.claim(&id.key) {
            tier.spill(id, None, payload(j, 3, 4096));
        }
    }
    tier.flush_namespace(&tier.tag("tenant:1:a"));
    let a_dir = tier.tag("tenant:1:a").hex();
    let visible = |dir: &Path| -> Vec<String> {
        walk(dir)
            .into_iter()
            .filter_map(|p| {
                let parent = p.parent()?.file_name()?.to_str()?.to_string();
                let grandparent = p.parent()?.parent()?.file_name()?.to_str()?.to_string();
                (grandparent != "trash").then_some(parent)
            })
            .collect()
    };
    assert!(
        !visible(dir.path()).contains(&a_dir),
        "a's pages are still where a restart would index them"
    );
    tier.sync();
    assert!(
        !visible(dir.path()).contains(&a_dir),
        "nor do late writes land there"
    );
    assert_eq!(visible(dir.path()).len(), 16, "b's pages stay");
    tier.flush_all();
    assert!(visible(dir.path()).is_empty());
    drop(tier);
    assert_eq!(
        walk(dir.path()),
        Vec::<std::path::PathBuf>::new(),
        "the trash is emptied"
    );
}

/// The byte budget is the directory's: a store of another model (another fingerprint) left
/// by an earlier run is removed when a store opens there; nothing else is.
#[test]
fn other_models_stores_are_removed_at_open() {
    let dir = tempfile::tempdir().unwrap();
    let t = tokens(16, 3);
    let mut other = config(dir.path(), 128, 100);
    other.fingerprint = model_fingerprint(b"another model", "f32");
    let tier = DiskTier::open(other.clone()).unwrap();
    spill(&tier, "global", &t, 4, 0);
    drop(tier);
    let pages = |dir: &Path| walk(dir).len();
    assert_eq!(pages(dir.path()), 4);
    // What is not a store is left alone: a directory of the same kind of name without a
    // store's `tmp/`, and a link to a store elsewhere.
    let foreign = dir.path().join("0123456789abcdef0123456789abcdef");
    std::fs::create_dir_all(&foreign).unwrap();
    std::fs::write(foreign.join("notes.txt"), b"mine").unwrap();
    let elsewhere = tempfile::tempdir().unwrap();
    let linked = elsewhere.path().join("store");
    std::fs::create_dir_all(linked.join("tmp")).unwrap();
    std::os::unix::fs::symlink(&linked, dir.path().join("fedcba9876543210fedcba9876543210"))
        .unwrap();
    let tier = DiskTier::open(config(dir.path(), 128, 100)).unwrap();
    assert_eq!(pages(dir.path()), 0, "the other model's pages are gone");
    assert!(foreign.join("notes.txt").exists());
    assert!(linked.join("tmp").is_dir());
    std::fs::remove_file(dir.path().join("fedcba9876543210fedcba9876543210")).unwrap();
    spill(&tier, "global", &t, 4, 0);
    drop(tier);
    let tier = DiskTier::open(other).unwrap();
    assert_eq!(tier.stats().pages, 0);
    assert_eq!(pages(dir.path()), 0);
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        // A directory may go while this walks (the writer empties the trash).
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

const CHILD_DIR: &str = "RADIXSERVE_SPILL_CHILD_DIR";
const CRASH_PAGE_BYTES: usize = 2 << 20;
const CRASH_PAGES: usize = 400;

/// Entry point of the child process of `a_process_killed_while_spilling_leaves_a_usable_store`
/// (does nothing unless started by it): spills large pages until killed.
#[test]
fn spill_child_process_entry() {
    let Ok(dir) = std::env::var(CHILD_DIR) else {
        return;
    };
    let tier = DiskTier::open(config(Path::new(&dir), CRASH_PAGE_BYTES, 10_000)).unwrap();
    spill(
        &tier,
        "global",
        &tokens(CRASH_PAGES * PAGE_TOKENS, 7),
        CRASH_PAGES,
        3,
    );
    panic!("the parent should have killed this process before it wrote everything");
}

#[test]
fn a_process_killed_while_spilling_leaves_a_usable_store() {
    let dir = tempfile::tempdir().unwrap();
    let mut child = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "spill_child_process_entry", "--nocapture"])
        .env(CHILD_DIR, dir.path())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Kill it (SIGKILL) in the middle of its writes.
    let until = Instant::now() + Duration::from_secs(60);
    while walk(dir.path()).len() < 20 {
        assert!(Instant::now() < until, "the child wrote nothing");
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let written = walk(dir.path()).len();
    assert!(
        written < CRASH_PAGES,
        "killed before the end ({written} pages)"
    );
    let t = tokens(CRASH_PAGES * PAGE_TOKENS, 7);
    let tier = DiskTier::open(config(dir.path(), CRASH_PAGE_BYTES, 10_000)).unwrap();
    let got = load(&tier, "global", &t, 0);
    assert!(
        got.len() >= 20,
        "the pages written before the kill load ({})",
        got.len()
    );
    for (j, page) in got.iter().enumerate() {
        assert!(
            page == &payload(j, 3, CRASH_PAGE_BYTES),
            "page {j} is exactly what was spilled"
        );
    }
    assert_eq!(
        tier.stats().bad_pages,
        0,
        "a rename-committed page is whole"
    );
    // The store keeps working: the rest of the chain can be spilled and read.
    let next = got.len();
    let page = tier.chain(&tier.tag("global"), &t, next + 1).remove(next);
    assert!(tier.claim(&page.key));
    tier.spill(page, None, payload(next, 3, CRASH_PAGE_BYTES));
    tier.sync();
    assert_eq!(
        load(&tier, "global", &t, next),
        vec![payload(next, 3, CRASH_PAGE_BYTES)]
    );
}
