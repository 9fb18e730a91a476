//! Deterministic random inputs for tests, shared by the CUDA tests and the CPU index twins
//! (included with `#[path]`).
#![allow(dead_code)]

/// xorshift64*: deterministic inputs without a dependency.
pub struct Rng(pub u64);

impl Rng {
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// Uniform in [-1, 1).
    pub fn f32s(&mut self, n: usize) -> Vec<f32> {
        (0..n)
            .map(|_| (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0)
            .collect()
    }

    /// `n` distinct values below `bound`.
    pub fn distinct(&mut self, n: usize, bound: usize) -> Vec<i32> {
        let mut all: Vec<i32> = (0..bound as i32).collect();
        for i in 0..n {
            let j = i + self.below(bound - i);
            all.swap(i, j);
        }
        all.truncate(n);
        all
    }
}
