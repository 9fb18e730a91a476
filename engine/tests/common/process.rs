//! Process-level helpers for load tests: resident memory, a test run in a process of its own,
//! the open-file limit, and a seeded generator for random inputs.

use std::process::Command;

/// Resident memory of this process, from /proc.
pub fn rss_bytes() -> usize {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap();
    let pages: usize = statm.split_whitespace().nth(1).unwrap().parse().unwrap();
    pages * 4096
}

/// Runs the calling test alone in a process of its own: this test binary again, filtered to
/// that one test. For tests that measure the whole process (resident memory), which the
/// binary's other tests, running beside them, would disturb. `module` is the caller's
/// `module_path!()`. Returns true in the child, where the test goes on; in the parent it
/// checks that the child ran the test and passed, and returns false.
pub fn in_own_process(module: &str, test: &str) -> bool {
    const MARK: &str = "RADIXSERVE_TEST_OWN_PROCESS";
    // libtest names a test by its path below the crate root.
    let name = match module.split_once("::") {
        Some((_, path)) => format!("{path}::{test}"),
        None => test.to_string(),
    };
    if std::env::var(MARK).as_deref() == Ok(name.as_str()) {
        return true;
    }
    let output = Command::new(std::env::current_exe().unwrap())
        .args([name.as_str(), "--exact", "--nocapture", "--test-threads=1"])
        .env(MARK, &name)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    println!("{stdout}{}", String::from_utf8_lossy(&output.stderr));
    assert!(output.status.success(), "{name} failed in its own process");
    assert!(
        stdout.contains("test result: ok. 1 passed"),
        "{name} did not run in its own process"
    );
    false
}

/// Raises this process's open-file limit to its hard limit (thousands of sockets).
pub fn raise_fd_limit() {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: plain libc calls on a local struct.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) == 0 {
            limit.rlim_cur = limit.rlim_max.min(65536);
            libc::setrlimit(libc::RLIMIT_NOFILE, &limit);
        }
    }
}

/// SplitMix64: seeded, so a failing random case can be replayed.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}
